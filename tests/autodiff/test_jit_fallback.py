"""JIT Fallback (jit_syntax_level LAX/STRICT), graph print and float(): as observed on MindSpore 2.10 CPU.

docs/mindspore_observed/graph_mode.md entries 7-10: under LAX (the default) numpy on tensors and
asnumpy() work inside construct, are recomputed every call, and stop gradients; float(t) is a cast
whose gradient is cut; print prints every call. STRICT refuses the host code (ValueError for numpy on a
tensor, AttributeError for asnumpy); @jit is LAX unless fullgraph=True, whatever the context says.
"""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, nn

X = np.array([1, 2, 3], np.float32)


class NpExp(nn.Cell):
    def construct(self, x):
        return Tensor(np.exp(x.asnumpy()))


class Times2(nn.Cell):
    def construct(self, x):
        return Tensor(x.asnumpy() * 2)


class FloatMax(nn.Cell):
    def construct(self, x):
        m = float(x.max())
        return x * m


class MixedNp(nn.Cell):
    def construct(self, x):
        y = Tensor(x.asnumpy() * 2)
        return x * y


class NpOnTensor(nn.Cell):
    def construct(self, x):
        return Tensor(np.exp(x))


class PrintT(nn.Cell):
    def construct(self, x):
        print("value", x)
        return x + 1


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE, jit_syntax_level=ms.LAX)


def test_default_syntax_level_is_lax():
    assert ms.get_context("jit_syntax_level") == ms.LAX == 2 and ms.STRICT == 0 and ms.COMPATIBLE == 1


# (Cell, output at x, output at 2x, gradient at x): observed on MindSpore 2.10 CPU
LAX_TABLE = [
    (NpExp, [2.718282, 7.3890557, 20.085537], [7.3890557, 54.59815, 403.42877], [0, 0, 0]),
    (Times2, [2, 4, 6], [4, 8, 12], None),
    (FloatMax, [3, 6, 9], [12, 24, 36], [3, 3, 3]),
    (MixedNp, [2, 8, 18], [8, 32, 72], [0, 0, 0]),
    (NpOnTensor, [2.718282, 7.3890557, 20.085537], None, None),
]


@pytest.mark.parametrize("cell, out, out2, grad", LAX_TABLE, ids=[c[0].__name__ for c in LAX_TABLE])
def test_lax_runs_host_code_every_call(cell, out, out2, grad):
    net = cell()
    x = Tensor(X)
    np.testing.assert_allclose(net(x).asnumpy(), out, rtol=1e-6)
    assert net(x).dtype == ms.float32
    if out2 is not None:  # recomputed with the new input, not frozen at compile time
        np.testing.assert_allclose(net(x * 2).asnumpy(), out2, rtol=1e-6)
    if grad is not None:  # gradients stop at host (PyExecute) values; float() is a cut cast
        np.testing.assert_allclose(ms.grad(net)(x).asnumpy(), grad)


def test_host_code_is_a_visible_node():
    graph = ms.trace(MixedNp(), Tensor(X))
    ops_ = [n.prim.name for n in graph.nodes]
    assert ops_ == ["PyExecute", "Mul"]
    assert "source='x.asnumpy() * 2'" in str(graph) and "(host)" in str(graph)


def test_print_prints_when_the_graph_runs_every_call(capsys):
    net = PrintT()
    x = Tensor(X)
    assert net(x).asnumpy().tolist() == [2, 3, 4]
    net(x * 10)
    # observed on MindSpore 2.10: each item on its own line, tensors in the graph print format
    assert capsys.readouterr().out == (
        "value\nTensor(shape=[3], dtype=Float32, value=[ 1.00000000e+00  2.00000000e+00  3.00000000e+00])\n"
        "value\nTensor(shape=[3], dtype=Float32, value=[ 1.00000000e+01  2.00000000e+01  3.00000000e+01])\n")


def test_graph_print_format_of_ints_matrices_and_scalars(capsys):
    class P(nn.Cell):
        def construct(self, x, i, m):
            print("f", x, "i", i, "m", m, 3, 2.5)
            print(x.sum())
            return x + 1

    P()(Tensor(np.array([1.5, -2, 3], np.float32)), Tensor(np.array([1, 2, 3], np.int32)),
        Tensor(np.array([[1, 2], [3, 4]], np.float32)))
    # observed on MindSpore 2.10 CPU
    assert capsys.readouterr().out == (
        "f\nTensor(shape=[3], dtype=Float32, value=[ 1.50000000e+00 -2.00000000e+00  3.00000000e+00])\n"
        "i\nTensor(shape=[3], dtype=Int32, value=[1 2 3])\n"
        "m\nTensor(shape=[2, 2], dtype=Float32, value=\n[[ 1.00000000e+00  2.00000000e+00]\n"
        " [ 3.00000000e+00  4.00000000e+00]])\n3\n2.5\n2.5\n")


def test_strict_refuses_host_code_with_mindspores_error_kinds():
    ms.set_context(jit_syntax_level=ms.STRICT)
    x = Tensor(X)
    with pytest.raises(ValueError, match="Try|LAX"):  # MindSpore: ValueError "... Try to set jit_syntax_level to LAX"
        NpOnTensor()(x)
    with pytest.raises(AttributeError, match="asnumpy"):  # MindSpore: AttributeError "In JIT strict mode ..."
        Times2()(x)
    assert FloatMax()(x).asnumpy().tolist() == [3, 6, 9]  # float() and print work under STRICT too
    assert PrintT()(x).asnumpy().tolist() == [2, 3, 4]


def test_jit_is_lax_unless_fullgraph():
    ms.set_context(mode=ms.PYNATIVE_MODE, jit_syntax_level=ms.STRICT)  # ignored by @jit (observed)

    def fallback(x):
        return Tensor(np.exp(x.asnumpy()))

    x = Tensor(X)
    np.testing.assert_allclose(ms.jit(fallback)(x).asnumpy(), [2.718282, 7.3890557, 20.085537], rtol=1e-6)
    with pytest.raises(AttributeError, match="asnumpy"):
        ms.jit(fallback, fullgraph=True)(x)
    def float_fn(x):
        return x * float(x.max())

    assert ms.jit(float_fn, fullgraph=True)(x).asnumpy().tolist() == [3, 6, 9]
