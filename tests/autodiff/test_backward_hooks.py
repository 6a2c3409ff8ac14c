"""Tensor.register_hook, Cell.register_backward_hook and register_backward_pre_hook (issue 27): what they are
shown, what their results change, handles, and the hook nodes in the tape and the graph. Every expected value
below was printed by MindSpore 2.10 CPU running the same code (PYNATIVE and GRAPH mode)."""
import numpy as np
import pytest

import mslab as ms
from mslab import nn
from mslab.common.tensor import Tensor
from mslab.testing import check_grad, in_mode

MODES = [ms.PYNATIVE_MODE, ms.GRAPH_MODE]
X = np.array([1.0, 2.0], np.float32)


def values(ts):
    return [t.asnumpy().tolist() for t in ts]


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x, y):
        return self.dense(x * y) * 2


def net_inputs():
    return Tensor(np.array([[1.0, 2.0]], np.float32)), Tensor(np.array([[3.0, 4.0]], np.float32))


def square_sum(a):
    return (a * a).sum()


@pytest.mark.parametrize("mode", MODES)
def test_tensor_hook_sees_and_replaces_the_whole_gradient(mode):
    seen = []

    def double(grad):
        seen.append(grad.asnumpy().tolist() if mode == ms.PYNATIVE_MODE else grad)
        return grad * 2

    def f(x):
        y = x * 3
        y.register_hook(double)
        return y * y

    with in_mode(mode):
        # MindSpore 2.10: the hook gets [6 12]; grad [36 72]
        assert ms.grad(f)(Tensor(X)).asnumpy().tolist() == [36.0, 72.0]
    if mode == ms.PYNATIVE_MODE:
        assert seen == [[6.0, 12.0]]

    def chained(x):
        y = x * 1
        z = y * 2  # a use before the registration counts too: the hook sees 2 + 3
        y.register_hook(lambda g: g + 1)
        y.register_hook(lambda g: g * 10)  # sees the first hook's result
        return z.sum() + (y * 3).sum()
    with in_mode(mode):
        assert ms.grad(chained)(Tensor(X)).asnumpy().tolist() == [60.0, 60.0]  # MindSpore: first 5, second 6


@pytest.mark.parametrize("mode", MODES)
def test_hook_on_a_leaf_and_a_parameter_stays_until_removed(mode):
    x = Tensor(X)
    handle = x.register_hook(lambda g: g * 2)
    with in_mode(mode):
        assert ms.grad(square_sum)(x).asnumpy().tolist() == [4.0, 8.0]  # MindSpore: [4 8], hook saw [2 4]
        handle.remove()
        handle.remove()  # a second remove does nothing
        assert ms.grad(square_sum)(x).asnumpy().tolist() == [2.0, 4.0]

    class Weighted(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")

        def construct(self, x):
            return (x * self.w).sum()
    net = Weighted()
    handle = net.w.register_hook(lambda g: g * 10)
    with in_mode(mode):
        (gw,) = ms.grad(net, grad_position=None, weights=net.trainable_params())(Tensor(X))
        assert gw.asnumpy().tolist() == [10.0, 20.0]  # MindSpore: [10 20]; removed: [1 2]
        handle.remove()
        (gw,) = ms.grad(net, grad_position=None, weights=net.trainable_params())(Tensor(X))
        assert gw.asnumpy().tolist() == [1.0, 2.0]


def test_tensor_hook_results_and_errors():
    x = Tensor(X)
    x.register_hook(lambda g: None)  # None keeps the gradient
    assert ms.grad(square_sum)(x).asnumpy().tolist() == [2.0, 4.0]
    bad = Tensor(X)
    bad.register_hook(lambda g: 3)
    with pytest.raises(RuntimeError, match="^Tensor hook should be return Tensor, but get type: int.$"):  # MindSpore
        ms.grad(square_sum)(bad)
    with pytest.raises(TypeError, match="^Expected a callable hook function, but got int.$"):  # MindSpore
        Tensor(1.0).register_hook(1)
    handle = Tensor(1.0).register_hook(print)
    assert callable(handle.remove) and isinstance(handle.id, int)  # MindSpore's _TensorHookHandle: id, remove


@pytest.mark.parametrize("mode", MODES)
def test_cell_backward_hook_and_pre_hook_are_shown_the_gradients(mode):
    seen = []
    net = Net()
    h1 = net.dense.register_backward_hook(lambda cell, gi, go: seen.append(("hook", cell, gi, go)))
    h2 = net.dense.register_backward_pre_hook(lambda cell, go: seen.append(("pre", cell, go)))
    h3 = net.register_backward_hook(lambda cell, gi, go: seen.append(("net", cell, gi, go)))
    with in_mode(mode):
        gx, gy = ms.grad(net, grad_position=(0, 1))(*net_inputs())
        assert gx.asnumpy().tolist() == [[12.0, 16.0]] and gy.asnumpy().tolist() == [[4.0, 8.0]]
        if mode == ms.PYNATIVE_MODE:
            # MindSpore 2.10, in this order: pre (Dense, ([[2 2]],)), hook (Dense, ([[4 4]],), ([[2 2]],)),
            # then Net's hook (([[12 16]], [[4 8]]), ([[1 1]],)); each argument a tuple
            assert [s[0] for s in seen] == ["pre", "hook", "net"]
            assert seen[0][1] is net.dense and values(seen[0][2]) == [[[2.0, 2.0]]]
            assert values(seen[1][2]) == [[[4.0, 4.0]]] and values(seen[1][3]) == [[[2.0, 2.0]]]
            assert seen[2][1] is net and values(seen[2][2]) == [[[12.0, 16.0]], [[4.0, 8.0]]]
            assert values(seen[2][3]) == [[[1.0, 1.0]]] and all(isinstance(s[2], tuple) for s in seen)
        seen.clear()
        net(*net_inputs())  # a forward call alone runs no backward hook
        assert seen == []
        for h in (h1, h2, h3):
            h.remove()
        ms.grad(net, grad_position=(0, 1))(*net_inputs())
        assert seen == []


@pytest.mark.parametrize("mode", MODES)
def test_what_cell_hooks_return_replaces_the_gradients(mode):
    net = Net()
    with in_mode(mode):
        h = net.dense.register_backward_hook(lambda cell, gi, go: (gi[0] * 10,))
        assert values(ms.grad(net, grad_position=(0, 1))(*net_inputs())) == [[[120.0, 160.0]], [[40.0, 80.0]]]
        h.remove()
        h = net.dense.register_backward_pre_hook(lambda cell, go: (go[0] * 100,))
        assert values(ms.grad(net, grad_position=(0, 1))(*net_inputs())) == [[[1200.0, 1600.0]], [[400.0, 800.0]]]
        h.remove()
    # the pre-hook's result reaches the Parameters' gradients and is the grad_output the backward hook sees
    dense = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    dense.register_backward_pre_hook(lambda cell, go: (go[0] * 100,))
    outputs = []
    dense.register_backward_hook(lambda cell, gi, go: outputs.append(go[0].asnumpy().tolist()))
    gx, (gw, gb) = ms.grad(dense, grad_position=0, weights=dense.trainable_params())(Tensor(np.array([[1.0, 2.0]],
                                                                                                    np.float32)))
    # MindSpore 2.10: ([[100 100]], ([[100 200]], [100])), the backward hook saw grad_output [[100]]
    assert gx.asnumpy().tolist() == [[100.0, 100.0]] and gw.asnumpy().tolist() == [[100.0, 200.0]]
    assert gb.asnumpy().tolist() == [100.0] and outputs == [[[100.0]]]
    relu = nn.ReLU()
    relu.register_backward_hook(lambda cell, gi, go: gi[0] * 3)  # a Tensor alone stands for a 1-tuple
    assert ms.grad(relu)(Tensor(np.array([1.0, -2.0], np.float32))).asnumpy().tolist() == [3.0, 0.0]


def test_cell_hook_errors_are_mindsporeS():
    x, y = net_inputs()
    net = Net()
    net.register_backward_hook(lambda cell, gi, go: (gi[0] * 10,))
    with pytest.raises(TypeError, match="^The backward hook return value size is 1 not equal to expect grad input "
                                        "size 2$"):
        ms.grad(net, grad_position=(0, 1))(x, y)
    relu = nn.ReLU()
    relu.register_backward_hook(lambda cell, gi, go: 5)
    with pytest.raises(TypeError, match="^The output type of function: hook_backward_grad should be a tensor but "
                                        "got int.$"):
        ms.grad(relu)(Tensor(X))
    relu = nn.ReLU()
    relu.register_backward_pre_hook(lambda cell, go: (go[0], go[0]))
    with pytest.raises(TypeError, match="^The backward pre hook return value size is 2 not equal to expect output "
                                        "size 1$"):
        ms.grad(relu)(Tensor(X))
    with pytest.raises(TypeError, match="^Expected a callable hook function, but got int.$"):
        relu.register_backward_hook(3)


def test_hooks_are_nodes_in_the_tape_and_the_graph():
    net = Net()
    net.dense.register_backward_hook(lambda cell, gi, go: None)
    net.register_backward_pre_hook(lambda cell, go: None)
    with ms.record() as tape:
        net(*net_inputs())
    text = str(tape.graph)
    assert "CellBackwardHook[Dense.input](%0)" in text and "CellBackwardHook[Net.pre](" in text
    net.register_backward_hook(lambda cell, gi, go: None)
    with ms.record() as tape:
        net(*net_inputs())
    text = str(tape.graph)  # two Tensor inputs pass one node, as a tuple
    assert "CellBackwardHook[Net.input](%x, %y)" in text and "TupleGetItem(%0) {index=1}" in text

    def f(x):
        y = x * 3
        y.register_hook(lambda g: g * 2)
        return (y * y).sum()
    text = str(ms.trace(ms.grad(f), Tensor(X)))
    assert "TensorHook[<lambda>](%7)" in text and "backward  grad of %0 Mul" in text
    with ms.record() as tape:  # PYNATIVE: the registration shows on the tape, where the code made it
        f(Tensor(X))
    assert "%1 = TensorHook[<lambda>](%0)" in str(tape.graph)


def test_hook_nodes_pass_gradients_unchanged_when_hooks_return_none():
    def hooked(a):
        y = a * a
        y.register_hook(lambda g: None)
        return y.exp()
    check_grad(hooked, np.array([0.5, -1.0]))  # both modes, against central differences

    class Plain(nn.Cell):  # no float32 Parameters: check_grad differentiates in float64
        def __init__(self):
            super().__init__()
            self.act = nn.Tanh()

        def construct(self, x, y):
            return self.act(x * y) * 2
    net = Plain()
    net.act.register_backward_hook(lambda cell, gi, go: None)
    net.register_backward_pre_hook(lambda cell, go: None)
    net.register_backward_hook(lambda cell, gi, go: None)
    check_grad(lambda a, b: net(a, b).exp(), np.array([[0.5, -1.0]]), np.array([[2.0, 0.3]]))


def test_graph_mode_keeps_the_hooks_it_compiled():
    def times_ten(g):
        return g * 10
    x, y = Tensor(X), Tensor(X)
    with in_mode(ms.GRAPH_MODE):
        g = ms.grad(square_sum)
        assert g(x).asnumpy().tolist() == [2.0, 4.0]
        handle = x.register_hook(times_ten)
        assert g(x).asnumpy().tolist() == [2.0, 4.0]  # MindSpore 2.10: [2 4], the graph compiled without the hook
        handle.remove()
        g = ms.grad(square_sum)
        handle = x.register_hook(times_ten)
        # MindSpore 2.10: [20 40] three times: compiled in, for another tensor and after remove() too
        assert [g(t).asnumpy().tolist() for t in (x, y)] == [[20.0, 40.0]] * 2
        handle.remove()
        assert g(x).asnumpy().tolist() == [20.0, 40.0]


def test_pynative_hooks_run_on_every_call():
    seen = []

    def f(x):
        y = x * 3
        y.register_hook(lambda g: (seen.append(1), g * 2)[1])
        return (y * y).sum()
    g = ms.grad(f)
    assert [g(Tensor(X)).asnumpy().tolist() for _ in range(3)] == [[36.0, 72.0]] * 3 and len(seen) == 3
    x = Tensor(X)
    g = ms.grad(square_sum)
    assert g(x).asnumpy().tolist() == [2.0, 4.0]
    handle = x.register_hook(lambda grad: grad * 10)  # a backward replayed from the first call would skip it
    assert g(x).asnumpy().tolist() == [20.0, 40.0]
    handle.remove()
    assert g(x).asnumpy().tolist() == [2.0, 4.0]


@pytest.mark.parametrize("mode", MODES)
def test_a_cell_hook_on_computed_inputs_runs_on_every_call(mode):
    class Two(nn.Cell):
        def construct(self, x, y):
            return (x * y).sum()
    net = Two()
    seen = []
    net.register_backward_hook(lambda cell, gi, go: (seen.append(1), (gi[0] * 10, gi[1]))[1])

    def f(a, b):
        return net(a * 2, b * 3)
    with in_mode(mode):
        g = ms.grad(f, grad_position=(0, 1))
        got = [values(g(Tensor(X), Tensor(np.array([3.0, 4.0], np.float32)))) for _ in range(3)]
    # MindSpore 2.10 (PYNATIVE): ([180 240], [6 12]) on each of three calls, the hook run each time
    assert got == [[[180.0, 240.0], [6.0, 12.0]]] * 3
    if mode == ms.PYNATIVE_MODE:
        assert len(seen) == 3
