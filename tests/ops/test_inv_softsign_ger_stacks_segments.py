"""Operators MindSpore's own CPU tests use that mslab lacked (issue 28): P.Inv, P.Invert, Softsign (P / ops / nn),
P.Ger / ops.ger, ops.hstack / vstack, UnsortedSegmentMax / Min / Prod. Values and gradients observed on MindSpore
2.10 CPU (docs/mindspore_observed/wrongvals.md, newops.py); each differentiable one against central differences in
both modes, and GRAPH == PYNATIVE."""
import numpy as np
import pytest

import mslab as ms
from mslab import nn, ops
from mslab.common.tensor import Tensor
from mslab.ops import operations as P
from mslab.testing import check_grad, check_modes

MODES = [ms.PYNATIVE_MODE, ms.GRAPH_MODE]
X = np.array([[0.5, -2.0, 4.0], [-0.25, 1.0, 3.0]], np.float32)


def values(t):
    return t.asnumpy().tolist()


def grads_in(mode, fn, positions, *args):
    ms.set_context(mode=mode)
    try:
        g = ms.grad(fn, positions)(*args)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    return [values(t) for t in g] if isinstance(g, tuple) else values(g)


# ---- Inv, Invert, Softsign ---------------------------------------------------------------------------------
def test_inv_keeps_the_dtype_as_mindspore():
    # observed on MindSpore 2.10 CPU
    np.testing.assert_allclose(values(P.Inv()(Tensor(X))), [[2.0, -0.5, 0.25], [-4.0, 1.0, 0.33333334]], rtol=1e-7)
    ints = P.Inv()(Tensor(np.array([1, -1, 3, 0, 2, -4], np.int32)))
    assert ints.dtype == ms.int32 and values(ints) == [1, -1, 0, -2147483648, 0, 0]
    assert values(ops.inv(Tensor(np.array([0.0, -0.0], np.float32)))) == [np.inf, -np.inf]
    assert ops.inv(Tensor(np.array([4.0], np.float16))).dtype == ms.float16


@pytest.mark.parametrize("mode", MODES)
def test_inv_gradient(mode):
    def total(t):
        return P.Inv()(t).sum()

    # observed on MindSpore 2.10 CPU: -1 / x^2
    expected = [[-4.0, -0.25, -0.0625], [-16.0, -1.0, -0.11111112]]
    np.testing.assert_allclose(grads_in(mode, total, 0, Tensor(X)), expected, rtol=1e-6)


def test_inv_and_softsign_match_central_differences():
    check_grad(lambda t: ops.inv(t), X.astype(np.float64))
    check_grad(lambda t: ops.softsign(t), np.array([[0.3, -1.7, 2.5], [-0.2, 0.9, -4.0]]))
    check_modes(lambda t: (ops.inv(t), ops.softsign(t)), Tensor(X))


def test_invert_is_bitwise_not_of_integers():
    # observed on MindSpore 2.10 CPU
    assert values(P.Invert()(Tensor(np.array([0, 5, -3], np.int32)))) == [-1, -6, 2]
    assert values(P.Invert()(Tensor(np.array([0, 5, 255], np.uint8)))) == [255, 250, 0]
    assert values(ops.invert(Tensor(np.array([1, -2], np.int16)))) == [-2, 1]
    with pytest.raises(TypeError, match=r"For primitive\[Invert\], the input argument\[x\] must be a type of"):
        P.Invert()(Tensor(X))


@pytest.mark.parametrize("mode", MODES)
def test_softsign_values_and_gradient(mode):
    expected = [[0.33333334, -0.6666667, 0.8], [-0.2, 0.5, 0.75]]   # observed on MindSpore 2.10 CPU
    for out in (P.Softsign()(Tensor(X)), ops.softsign(Tensor(X)), nn.Softsign()(Tensor(X))):
        np.testing.assert_allclose(values(out), expected, rtol=1e-7)

    def total(t):
        return ops.softsign(t).sum()

    np.testing.assert_allclose(grads_in(mode, total, 0, Tensor(X)), [[0.44444445, 0.11111111, 0.04],
                                                                     [0.64, 0.25, 0.0625]], rtol=1e-6)
    with pytest.raises(TypeError):
        ops.softsign(Tensor(np.array([1, 2], np.int32)))


# ---- Ger, hstack, vstack -----------------------------------------------------------------------------------
A = np.array([1.0, 2.0, 3.0], np.float32)
B = np.array([0.5, -1.0], np.float32)
W32 = Tensor(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32))
W23 = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))


def weighted_ger(p, q):
    return (ops.ger(p, q) * W32).sum()


def weighted_vstack(p, q):
    return (ops.vstack([p, q]) * W23).sum()


@pytest.mark.parametrize("mode", MODES)
def test_ger_values_and_gradients(mode):
    expected = [[0.5, -1.0], [1.0, -2.0], [1.5, -3.0]]   # observed on MindSpore 2.10 CPU
    assert values(P.Ger()(Tensor(A), Tensor(B))) == expected and values(ops.ger(Tensor(A), Tensor(B))) == expected
    # observed: ([-1.5 -2.5 -3.5], [22 28])
    assert grads_in(mode, weighted_ger, (0, 1), Tensor(A), Tensor(B)) == [[-1.5, -2.5, -3.5], [22.0, 28.0]]
    check_grad(lambda p, q: ops.ger(p, q), A.astype(np.float64), B.astype(np.float64))
    with pytest.raises(ValueError, match="1-D"):
        ops.ger(Tensor(X), Tensor(B))


@pytest.mark.parametrize("mode", MODES)
def test_hstack_and_vstack_as_numpy(mode):
    a, x = Tensor(A), Tensor(X)
    # observed on MindSpore 2.10 CPU
    assert values(ops.hstack([a, a])) == [1.0, 2.0, 3.0, 1.0, 2.0, 3.0]
    assert ops.hstack([x, x]).shape == (2, 6) and ops.vstack([x, x]).shape == (4, 3)
    assert values(ops.vstack([a, a])) == [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]] and ops.vstack((a,)).shape == (1, 3)
    assert grads_in(mode, weighted_vstack, (0, 1), a, Tensor(A)) == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    check_modes(lambda p, q: (ops.hstack((p, q)), ops.vstack((p, q))), x, x)


# ---- UnsortedSegmentMax / Min / Prod ------------------------------------------------------------------------
D = np.array([[1.0, 5.0], [3.0, 2.0], [3.0, 7.0], [-1.0, 0.0]], np.float32)
IDS = Tensor(np.array([0, 0, 2, 0], np.int32))
W42 = Tensor(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]], np.float32))
LOW, HIGH = -3.4028234663852886e+38, 3.4028234663852886e+38
# observed on MindSpore 2.10 CPU: (output with 4 segments, gradient of sum(output * W42))
SEGMENTS = {
    "UnsortedSegmentMax": ([[3.0, 5.0], [LOW, LOW], [3.0, 7.0], [LOW, LOW]],
                           [[0.0, 2.0], [1.0, 0.0], [5.0, 6.0], [0.0, 0.0]]),
    "UnsortedSegmentMin": ([[-1.0, 0.0], [HIGH, HIGH], [3.0, 7.0], [HIGH, HIGH]],
                           [[0.0, 0.0], [0.0, 0.0], [5.0, 6.0], [1.0, 2.0]]),
    "UnsortedSegmentProd": ([[-3.0, 0.0], [1.0, 1.0], [3.0, 7.0], [1.0, 1.0]],
                            [[-3.0, 0.0], [-1.0, 0.0], [5.0, 6.0], [3.0, 20.0]]),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(SEGMENTS))
def test_unsorted_segment_reductions_as_mindspore(mode, name):
    op = getattr(P, name)()
    out, grad = SEGMENTS[name]

    def weighted(t):
        return (op(t, IDS, 4) * W42).sum()

    assert values(op(Tensor(D), IDS, 4)) == out
    assert grads_in(mode, weighted, 0, Tensor(D)) == grad
    functional = getattr(ops, name.replace("UnsortedSegment", "unsorted_segment_").lower())
    assert values(functional(Tensor(D), IDS, 3)) == out[:3]


def test_unsorted_segment_gradients_at_ties_and_zeros():
    ids = Tensor(np.array([0, 0, 0], np.int32))

    def top(t):
        return P.UnsortedSegmentMax()(t, ids, 1).sum()

    def product(t):
        return P.UnsortedSegmentProd()(t, ids, 1).sum()

    # observed on MindSpore 2.10 CPU: a tie splits evenly; with one zero only the zero gets a gradient
    assert values(ms.grad(top)(Tensor(np.array([[2.0], [2.0], [1.0]], np.float32)))) == [[0.5], [0.5], [0.0]]
    assert values(ms.grad(product)(Tensor(np.array([[0.0], [2.0], [3.0]], np.float32)))) == [[6.0], [0.0], [0.0]]


def test_unsorted_segment_reductions_match_central_differences():
    x = np.array([[0.3, -1.2], [1.5, 0.4], [-0.7, 2.2], [0.9, -0.1], [1.1, 0.6]])
    ids = np.array([1, 0, 1, 1, 0], np.int32)
    for op in (P.UnsortedSegmentMax(), P.UnsortedSegmentMin(), P.UnsortedSegmentProd()):
        check_grad(lambda t, i, op=op: op(t, i, 2), x, ids)  # (no empty segment: its -huge would drown the sum)
