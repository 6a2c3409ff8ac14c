"""Answers that name the place: bad inputs to Cells, sens, integer gradients and division, deep nesting, slow drawings.

Every MindSpore result quoted here was observed on MindSpore 2.10 CPU.
"""
import subprocess

import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, nn, ops
from mslab.errors import CellNestingError, OpError
from mslab.lab.viz import GraphvizTimeout, render

MODES = [ms.PYNATIVE_MODE, ms.GRAPH_MODE]


@pytest.fixture(params=MODES, ids=["PYNATIVE", "GRAPH"])
def mode(request):
    before = ms.get_context("mode")
    ms.set_context(mode=request.param)
    yield request.param
    ms.set_context(mode=before)


class Double(nn.Cell):
    def construct(self, x):
        return x * 2


@pytest.mark.parametrize("bad,words", [
    ([1.0, 2.0, 3.0], r"Dense: input 0 is a list, but the Cell needs a Tensor there: wrap it"),
    (None, r"Dense: input 0 is None, but the Cell needs a Tensor"),
    ([[1.0, 2.0, 3.0], [1.0]], r"Dense: input 0 is a ragged list \(rows of lengths 3, 1\)"),
])
def test_a_cell_given_a_list_or_none_names_itself_and_the_input(mode, bad, words):
    # MindSpore: TypeError "For primitive[Shape], the input argument must be Tensor, but got <class 'list'>"
    with pytest.raises(TypeError, match=words):
        nn.Dense(3, 2)(bad)


def test_zero_size_batches(mode):
    out = nn.Dense(3, 2)(Tensor(np.zeros((0, 3), np.float32)))
    assert out.shape == (0, 2)  # MindSpore: Tensor of shape (0, 2)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    # MindSpore: RuntimeError "Invalid batch size or class num input!"
    with pytest.raises(OpError, match=r"SparseSoftmaxCrossEntropyWithLogits in Cell SoftmaxCrossEntropyWithLogits: "
                                      r"Invalid batch size.*\(0, 2\)"):
        loss(Tensor(np.zeros((0, 2), np.float32)), Tensor(np.zeros((0,), np.int32)))


@pytest.mark.parametrize("sens,error,words", [
    # MindSpore PYNATIVE: ValueError "The shape should be {2, 3}, but got {3, 2}"
    (np.ones((3, 2), np.float32), ValueError, r"Double: the sens for output 0 has shape \(3, 2\) but the output has "
                                              r"shape \(2, 3\)"),
    (np.ones((6,), np.float32), ValueError, r"shape \(6,\) but the output has shape \(2, 3\)"),
    (np.ones((1, 2, 3), np.float32), ValueError, r"shape \(1, 2, 3\)"),
    # MindSpore (both modes): TypeError "The dtype should be Float32, but got Float16"
    (np.ones((2, 3), np.float16), TypeError, r"dtype Float16 but the output \(shape \(2, 3\)\) has dtype Float32"),
    (np.ones((2, 3), np.int32), TypeError, r"The dtype should be Float32, but got Int32"),
])
def test_a_sens_that_does_not_match_the_output_is_refused(mode, sens, error, words):
    grad = ops.GradOperation(sens_param=True)(Double())
    with pytest.raises(error, match=words):
        grad(Tensor(np.ones((2, 3), np.float32)), Tensor(sens))


def test_a_one_element_sens_weights_a_scalar_output(mode):
    class Sum(nn.Cell):
        def construct(self, x):
            return (x * 2).sum()

    grad = ops.GradOperation(sens_param=True)(Sum())
    x = Tensor(np.ones((2, 3), np.float32))
    # MindSpore, both modes: sens (1,) -> all 2.0; sens () of 3.0 -> all 6.0
    assert grad(x, Tensor(np.ones((1,), np.float32))).asnumpy().tolist() == [[2.0] * 3] * 2
    assert grad(x, Tensor(np.array(3.0, np.float32))).asnumpy().tolist() == [[6.0] * 3] * 2


def test_gradients_with_respect_to_integers(mode):
    r = ms.grad(Double())(Tensor(np.array([1, 2, 3], np.int32)))
    assert r.dtype == ms.int32 and r.asnumpy().tolist() == [2, 2, 2]  # MindSpore: [2 2 2] Int32

    class Net(nn.Cell):
        def construct(self, x, y, z):
            return y * (z + 3 * (x + y))

    x, y, z = Tensor(1, ms.int32), Tensor(2, ms.int32), Tensor(3, ms.int32)
    grads = ops.GradOperation(get_all=True)(Net())(x, y, z)
    # docs/mindspore_observed/fidelity.md section 12: (6, 18, 2), all Int32, in both modes
    assert [int(g.asnumpy()) for g in grads] == [6, 18, 2] and all(g.dtype == ms.int32 for g in grads)
    r = ms.grad(Double())(Tensor(np.array([1.0, 2.0], np.float16)))
    assert r.dtype == ms.float16 and r.asnumpy().tolist() == [2.0, 2.0]


@pytest.mark.filterwarnings("error")  # and numpy's divide-by-zero warnings are not shown
def test_integer_division_by_zero_gives_mindspores_numbers(mode):
    # observed on MindSpore 2.10 CPU, PYNATIVE and GRAPH alike
    expected = {
        np.int8: ([127, -128, 0, 2], [0, 0, 0, 1]),
        np.int16: ([32767, -32768, 0, 2], [0, 0, 0, 1]),
        np.int32: ([2147483647, -2147483648, 0, 2], [-2147483648] * 3 + [1]),
        np.int64: ([2 ** 63 - 1, -2 ** 63, 0, 2], [-2 ** 63] * 3 + [1]),
        np.uint8: ([255, 0, 255, 0], [0, 0, 0, 1]),
    }
    for dt, (div, mod) in expected.items():
        a = Tensor(np.array([7, 0, 5, 1] if dt == np.uint8 else [7, -7, 0, 5], dt))
        z = Tensor(np.array([0, 0, 0, 2], dt))
        assert ops.FloorDiv()(a, z).asnumpy().tolist() == div, dt
        assert ops.FloorMod()(a, z).asnumpy().tolist() == mod, dt
        assert ops.FloorDiv()(a, z).asnumpy().dtype == dt and ops.FloorMod()(a, z).asnumpy().dtype == dt
    a = Tensor(np.array([7, -7, 0], np.int32))
    with np.errstate(divide="ignore", invalid="ignore"):
        assert (a / Tensor(np.zeros(3, np.int32))).asnumpy().tolist()[:2] == [np.inf, -np.inf]  # MindSpore: Float32


class Wrap(nn.Cell):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def construct(self, x):
        return self.inner(x) + 1


def test_cells_nested_too_deeply_name_the_problem(mode):
    net = nn.Dense(2, 2)
    with pytest.raises(CellNestingError, match=r"Naming the parameters of Wrap \(as Wrap.inner\) went deeper than "
                                               r"Python's recursion limit .* nn.SequentialCell"):
        for _ in range(5000):
            net = Wrap(net)
    shallow = nn.Dense(2, 2)
    for _ in range(400):  # buildable; too deep to call eagerly, not to compile (MindSpore allows 1000 nested calls)
        shallow = Wrap(shallow)
    if ms.get_context("mode") == ms.GRAPH_MODE:
        assert shallow(Tensor(np.ones((1, 2), np.float32))).shape == (1, 2)
    else:
        with pytest.raises(CellNestingError, match="Calling Wrap went deeper than Python's recursion limit"):
            shallow(Tensor(np.ones((1, 2), np.float32)))
    assert isinstance(CellNestingError("a", "b", 1), RecursionError)


def test_a_drawing_dot_cannot_finish_says_how_to_fold_it(monkeypatch):
    def too_slow(*args, **kwargs):
        raise subprocess.TimeoutExpired(args[0], kwargs.get("timeout"))

    monkeypatch.setattr(render.shutil, "which", lambda name: "/usr/bin/dot")
    monkeypatch.setattr(render.subprocess, "run", too_slow)
    render.clear_cache()
    with pytest.raises(GraphvizTimeout, match=r"could not lay out this picture in 60 s.*collapse_depth=1.*DOT_TIMEOUT"):
        render.render_dot('digraph { a [label="a"]; a -> b }')
