"""GRAPH mode compiles control flow on tensors, as MindSpore 2.10 does (numbers observed on MindSpore 2.10 CPU).

Every program in the table runs three ways: a GRAPH_MODE Cell (construct calls the function, which the
front end converts too), a ``jit`` function in PYNATIVE mode, and plain PYNATIVE; each gives MindSpore's
outputs and ``ms.grad`` gradients (docs/mindspore_observed/graph_mode.md, entries 2 and 3). Gradients are
also checked against central differences in both modes.
"""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, nn, ops
from mslab.core.errors import GraphModeError
from mslab.testing import check_grad

f32 = np.float32


def f_if(x):
    if x.sum() > 0:
        return x * 2
    return x


def f_while(x):
    while x.sum() < 100:
        x = x * 2
    return x


def f_elif(x):
    if x.sum() > 5:
        y = x * 3
    elif x.sum() > 0:
        y = x * 2
    else:
        y = -x
    return y


def f_nested(x):
    if x.sum() > 0:
        if x.max() > 2:
            return x * 10
        return x * 5
    else:
        if x.min() < -2:
            return x * x
        return x + 1


def f_break(x):
    i = 0
    while i < 10:
        x = x * 2
        if x.sum() > 20:
            break
        i += 1
    return x


def f_for_tensor(x):
    s = 0
    for v in x:
        s = s + v
    return s


def f_for_range(x):
    s = x[0] * 0
    for i in range(3):
        if x[i] > 0:
            s = s + x[i]
    return s


def f_and(x):
    if x.sum() > 0 and x.max() < 5:
        return x * 2
    return x * 3


def f_or(x):
    if x.sum() > 100 or x.min() < 0:
        return x * 2
    return x * 3


def f_not(x):
    if not x.sum() > 0:
        return x * 2
    return x * 3


V1 = [1.0, 2.0, 3.0]
# (function, input, output, gradient): observed on MindSpore 2.10 CPU, identical in GRAPH_MODE and @ms.jit.
TABLE = [
    (f_if, V1, [2, 4, 6], [2, 2, 2]),
    (f_if, [-1, -2, -3], [-1, -2, -3], [1, 1, 1]),
    (f_while, V1, [32, 64, 96], [32, 32, 32]),
    (f_elif, V1, [3, 6, 9], [3, 3, 3]),
    (f_elif, [0.5, 0.5, 1.0], [1, 1, 2], [2, 2, 2]),
    (f_elif, [-1, -2, -3], [1, 2, 3], [-1, -1, -1]),
    (f_nested, V1, [10, 20, 30], [10, 10, 10]),
    (f_nested, [0.5, 0.5, 1.0], [2.5, 2.5, 5], [5, 5, 5]),
    (f_nested, [-1, -2, -3], [1, 4, 9], [-2, -4, -6]),
    (f_nested, [-0.5, -0.5, 0.1], [0.5, 0.5, 1.1], [1, 1, 1]),
    (f_break, V1, [4, 8, 12], [4, 4, 4]),
    (f_break, [0.1, 0.1, 0.1], [12.8, 12.8, 12.8], [128, 128, 128]),
    (f_for_tensor, V1, 6.0, [1, 1, 1]),
    (f_for_tensor, [[1, 2], [3, 4]], [4, 6], [[1, 1], [1, 1]]),
    (f_for_range, V1, 6.0, [1, 1, 1]),
    (f_for_range, [1, -2, 0.5], 1.5, [1, 0, 1]),
    (f_and, V1, [2, 4, 6], [2, 2, 2]),
    (f_and, [1, 2, 6], [3, 6, 18], [3, 3, 3]),
    (f_and, [-1, -2, -3], [-3, -6, -9], [3, 3, 3]),
    (f_or, V1, [3, 6, 9], [3, 3, 3]),
    (f_or, [1, -2, 0.5], [2, -4, 1], [2, 2, 2]),
    (f_not, V1, [3, 6, 9], [3, 3, 3]),
    (f_not, [-1, -2, -3], [-2, -4, -6], [2, 2, 2]),
]
IDS = [f"{fn.__name__}{x}" for fn, x, _, _ in TABLE]


class Wrap(nn.Cell):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, x):
        return self.fn(x)


@pytest.fixture(autouse=True)
def pynative_after():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE, jit_syntax_level=ms.LAX)


@pytest.mark.parametrize("fn, x, out, grad", TABLE, ids=IDS)
@pytest.mark.parametrize("how", ["graph_cell", "jit", "pynative"])
def test_control_flow_matches_mindspore(fn, x, out, grad, how):
    ms.set_context(mode=ms.GRAPH_MODE if how == "graph_cell" else ms.PYNATIVE_MODE)
    g = Wrap(fn) if how == "graph_cell" else ms.jit(fn) if how == "jit" else fn
    t = Tensor(np.array(x, f32))
    np.testing.assert_allclose(g(t).asnumpy(), np.array(out, f32), rtol=1e-6)
    np.testing.assert_allclose(ms.grad(g)(t).asnumpy(), np.array(grad, f32), rtol=1e-6)


@pytest.mark.parametrize("fn, x", [(fn, x) for fn, x, _, _ in TABLE], ids=IDS)
def test_control_flow_gradients_match_central_differences(fn, x):
    check_grad(ms.jit(fn), np.array(x, np.float64).astype(f32), rtol=1e-3, atol=1e-3, eps=1e-3)


def test_variable_condition_records_an_if_node_and_constant_condition_none():
    graph = ms.trace(f_if, Tensor(np.array(V1, f32)))
    assert [n.prim.name for n in graph.nodes if n.prim.name in ("If", "While")] == ["If"]
    text = str(graph)
    assert "then" in text and "else" in text  # the branches print nested under the If

    class ShapeCond(nn.Cell):
        def construct(self, x):
            if x.shape[0] > 2:
                return x.sum()
            return x.max()

    graph = ms.trace(ShapeCond(), Tensor(np.array(V1, f32)))
    assert [n.prim.name for n in graph.nodes] == ["ReduceSum"]  # decided while compiling: no If


def test_training_flag_is_a_constant_condition():
    class TrainFlag(nn.Cell):
        def construct(self, x):
            if self.training:
                return x * 2
            return x

    ms.set_context(mode=ms.GRAPH_MODE)
    net = TrainFlag()
    x = Tensor(np.array(V1, f32))
    net.set_train(True)
    assert net(x).asnumpy().tolist() == [2, 4, 6]  # observed on MindSpore 2.10 (set_train before the first call)
    net.set_train(False)
    assert net(x).asnumpy().tolist() == [1, 2, 3]
    assert not any(n.prim.name == "If" for n in ms.trace(net, x).nodes)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_side_effect_under_a_branch_happens_only_when_taken(mode):
    class SideEffect(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = ms.Parameter(Tensor(np.array([0.0], f32)), name="p")

        def construct(self, x):
            if x.sum() > 0:
                ops.assign(self.p, self.p + 1)
            return x * 2

    ms.set_context(mode=mode)
    s = SideEffect()
    x = Tensor(np.array(V1, f32))
    seen = []
    for inp in (x, -x, x):  # observed on MindSpore 2.10: p goes 1, 1, 2 in both modes
        out = s(inp)
        seen.append(float(s.p.asnumpy()[0]))
        assert out.asnumpy().tolist() == (inp * 2).asnumpy().tolist()
    assert seen == [1.0, 1.0, 2.0]


def test_jit_function_side_effect_under_a_branch():
    p = ms.Parameter(Tensor(np.array([0.0], f32)), name="pj")

    @ms.jit
    def side(x):
        if x.sum() > 0:
            ops.assign(p, p + 1)
        return x * 2

    x = Tensor(np.array(V1, f32))
    side(x)
    assert p.asnumpy().tolist() == [1.0]
    side(-x)
    assert p.asnumpy().tolist() == [1.0]


def test_capture_mode_trace_bakes_in_the_branch_that_ran():
    def branch(x):
        if x.sum() > 0:
            return x * 2
        return x - 100

    x = Tensor(np.array(V1, f32))
    traced = ms.jit(branch, capture_mode="trace")
    compiled = ms.jit(branch, capture_mode="ast")
    # observed on MindSpore 2.10: trace gives [-2, -4, -6] for -x (the first call's branch), ast [-101, ...]
    assert traced(x).asnumpy().tolist() == [2, 4, 6]
    assert traced(-x).asnumpy().tolist() == [-2, -4, -6]
    assert compiled(x).asnumpy().tolist() == [2, 4, 6]
    assert compiled(-x).asnumpy().tolist() == [-101, -102, -103]


def test_jit_signature_is_mindspore_2_10s():
    import inspect

    params = inspect.signature(ms.jit).parameters
    assert list(params)[:6] == ["function", "capture_mode", "jit_level", "dynamic", "fullgraph", "backend"]
    assert params["capture_mode"].default == "ast" and params["fullgraph"].default is False
    with pytest.raises(ValueError, match="capture_mode"):
        ms.jit(f_if, capture_mode="bytecode")


def test_python_containers_and_scalars_select_the_graph_by_value():
    @ms.jit
    def scaled(x, d):
        return x * d["a"]

    x = Tensor(np.array(V1, f32))
    assert scaled(x, {"a": 2.0}).asnumpy().tolist() == [2, 4, 6]
    assert scaled(x, {"a": 3.0}).asnumpy().tolist() == [3, 6, 9]  # a new dict value compiles anew

    @ms.jit
    def times(x, k, t):
        return x * k + t[0]

    assert times(x, 2, (1,)).asnumpy().tolist() == [3, 5, 7]
    assert times(x, 3, (0,)).asnumpy().tolist() == [3, 6, 9]


def test_variable_assigned_in_one_branch_only_is_a_clear_error():
    def one_sided(x):
        if x.sum() > 0:
            y = x * 2
        return y

    with pytest.raises(GraphModeError, match="'y' is assigned in only one branch") as err:
        ms.jit(one_sided)(Tensor(np.array(V1, f32)))
    assert "at test_control_flow.py:" in str(err.value) and "if x.sum() > 0:" in str(err.value)  # the line


def test_branches_that_disagree_on_shape_are_a_clear_error():
    def shapes(x):
        if x.sum() > 0:
            x = x.reshape(3, 1)
        return x

    with pytest.raises(GraphModeError, match="'x' is f32\\[3, 1\\] in one branch"):
        ms.jit(shapes)(Tensor(np.array(V1, f32)))
