"""Ops public MindSpore code uses in 2-4 files (issue 19): ops.Rsqrt, ops.repeat_elements, ops.cdist, ops.DepthToSpace,
ops.KLDivLoss, P.MirrorPad, and the ones MindSpore 2.10 cannot run on CPU (ops.Einsum, F.scalar_to_array).
Values observed on MindSpore 2.10 CPU (snippets and output in docs/mindspore_observed/opsthree.md); each
differentiable one against central differences and GRAPH == PYNATIVE (Rsqrt's in tests/ops/test_math_ops.py)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import mslab as ms
from mslab import ops
from mslab.common.tensor import Tensor
from mslab.ops import block_ops, device_only_ops
from mslab.ops import functional as F
from mslab.ops import operations as P
from mslab.testing import check_grad, check_modes, in_mode

SETTINGS = settings(max_examples=10, deadline=None)
M = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)
X1 = np.array([[[1.0, 1.0], [2.0, 2.0]]], np.float32)
X2 = np.array([[[3.0, 3.0], [3.0, 3.0], [1.0, 2.0]]], np.float32)
PADS = Tensor(np.array([[1, 1], [2, 2]], np.int64))


def values(t):
    return t.asnumpy().tolist()


def test_rsqrt_matches_mindspore():
    x = Tensor(np.array([[1.0, 4.0], [0.25, 9.0]], np.float32))
    # observed on MindSpore 2.10 CPU
    np.testing.assert_allclose(ops.Rsqrt()(x).asnumpy(), [[1.0, 0.5], [2.0, 0.3333333]], rtol=1e-6)
    g = ops.grad(lambda t: ops.Rsqrt()(t).sum())(x)
    np.testing.assert_allclose(g.asnumpy(), [[-0.5, -0.0625], [-4.0, -0.0185185]], rtol=1e-5)
    assert ops.Rsqrt()(Tensor(np.array([4.0], np.float16))).dtype == ms.float16
    zero_neg = ops.Rsqrt()(Tensor(np.array([0.0, -1.0], np.float32))).asnumpy()
    assert np.isinf(zero_neg[0]) and np.isnan(zero_neg[1])


def test_repeat_elements_matches_mindspore():
    a = Tensor(np.array([[1, 2], [3, 4]], np.int32))
    # observed on MindSpore 2.10 CPU
    assert values(ops.repeat_elements(a, 2, 0)) == [[1, 2], [1, 2], [3, 4], [3, 4]]
    assert values(ops.repeat_elements(a, 3, 1)) == [[1, 1, 1, 2, 2, 2], [3, 3, 3, 4, 4, 4]]
    w = Tensor(np.arange(8, dtype=np.float32).reshape(2, 4))
    g = ops.grad(lambda t: (ops.repeat_elements(t, 2, 1) * w).sum())(Tensor(np.array([[1., 2.], [3., 4.]], np.float32)))
    assert values(g) == [[1.0, 5.0], [9.0, 13.0]]


@SETTINGS
@given(x=hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=3), elements=st.floats(-5, 5)),
       rep=st.integers(1, 3), data=st.data())
def test_repeat_elements_is_numpy_repeat(x, rep, data):
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    np.testing.assert_array_equal(ops.repeat_elements(Tensor(x), rep, axis).asnumpy(), np.repeat(x, rep, axis))
    check_grad(lambda t: ops.repeat_elements(t, rep, axis), x)
    check_modes(lambda t: ops.repeat_elements(t, rep, axis), Tensor(x))


def test_cdist_matches_mindspore():
    x1, x2 = Tensor(X1), Tensor(X2)
    # observed on MindSpore 2.10 CPU
    np.testing.assert_allclose(ops.cdist(x1, x2).asnumpy(), [[[2.828427, 2.828427, 1.0], [1.4142135, 1.4142135, 1.0]]],
                               rtol=1e-6)
    assert values(ops.cdist(x1, x2, 1.0)) == [[[4.0, 4.0, 1.0], [2.0, 2.0, 1.0]]]
    two_d = ops.cdist(Tensor(np.array([[0., 0.], [1., 1.]], np.float32)), Tensor(np.array([[3., 4.]], np.float32)))
    np.testing.assert_allclose(two_d.asnumpy(), [[5.0], [3.6055512]], rtol=1e-6)
    g1, g2 = ops.grad(lambda p, q: ops.cdist(p, q).sum(), (0, 1))(x1, x2)
    np.testing.assert_allclose(g1.asnumpy(), [[[-1.41421354, -2.41421366], [-0.414213538, -1.41421354]]], rtol=1e-6)
    np.testing.assert_allclose(g2.asnumpy(), [[[1.41421354, 1.41421354], [1.41421354, 1.41421354], [-1.0, 1.0]]],
                               rtol=1e-6)


@pytest.mark.parametrize("p", [1.0, 2.0, 3.0])
def test_cdist_gradient_and_modes(p):
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 2, 4))
    check_grad(lambda u, v: ops.cdist(u, v, p), a, b)
    check_modes(lambda u, v: ops.cdist(u, v, p), Tensor(a), Tensor(b))


def test_depth_to_space_matches_mindspore():
    d = Tensor(np.arange(16, dtype=np.float32).reshape(1, 4, 2, 2))
    # observed on MindSpore 2.10 CPU
    assert values(ops.DepthToSpace(2)(d)) == [[[[0., 4., 1., 5.], [8., 12., 9., 13.], [2., 6., 3., 7.],
                                                [10., 14., 11., 15.]]]]
    w = Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))
    g = ops.grad(lambda t: (ops.DepthToSpace(2)(t) * w).sum())(d)
    assert values(g) == [[[[0., 2.], [8., 10.]], [[1., 3.], [9., 11.]], [[4., 6.], [12., 14.]], [[5., 7.], [13., 15.]]]]
    x = np.random.default_rng(2).standard_normal((2, 8, 2, 3))
    check_grad(lambda t: ops.DepthToSpace(2)(t), x)
    check_modes(lambda t: ops.DepthToSpace(2)(t), Tensor(x))


def test_kl_div_loss_matches_mindspore():
    lg, lb = Tensor(np.array([0.2, 0.7, 0.1], np.float32)), Tensor(np.array([0., 1., 0.], np.float32))
    # observed on MindSpore 2.10 CPU
    expected = {"mean": -0.23333333, "sum": -0.7, "batchmean": -0.23333333}
    for reduction, value in expected.items():
        np.testing.assert_allclose(ops.KLDivLoss(reduction)(lg, lb).asnumpy(), value, rtol=1e-6)
    np.testing.assert_allclose(ops.KLDivLoss("none")(lg, lb).asnumpy(), [0.0, -0.7, 0.0], rtol=1e-6)
    lb2 = Tensor(np.array([0.3, 0.5, 0.2], np.float32))
    np.testing.assert_allclose(ops.KLDivLoss()(lg, lb2).asnumpy(), -0.48655105, rtol=1e-6)
    g_logits, g_labels = ops.grad(lambda p, q: ops.KLDivLoss("sum")(p, q), (0, 1))(lg, lb2)
    np.testing.assert_allclose(g_logits.asnumpy(), [-0.3, -0.5, -0.2], rtol=1e-6)
    assert values(g_labels) == [0.0, 0.0, 0.0]
    lg2 = Tensor(np.array([[0.2, 0.7], [0.4, 0.1]], np.float32))
    lb22 = Tensor(np.array([[0.3, 0.7], [0.6, 0.4]], np.float32))
    for reduction, value in {"mean": -0.528469, "sum": -2.113876, "batchmean": -1.056938}.items():
        np.testing.assert_allclose(ops.KLDivLoss(reduction)(lg2, lb22).asnumpy(), value, rtol=1e-6)
    rng = np.random.default_rng(3)
    labels = Tensor(rng.random((2, 3)))
    check_grad(lambda p: ops.KLDivLoss("batchmean")(p, labels), rng.standard_normal((2, 3)))
    check_modes(lambda p, q: ops.KLDivLoss("mean")(p, q), lg2, lb22)


def test_mirror_pad_matches_mindspore():
    m = Tensor(M)
    # observed on MindSpore 2.10 CPU
    assert values(P.MirrorPad()(m, PADS)) == [[6., 5., 4., 5., 6., 5., 4.], [3., 2., 1., 2., 3., 2., 1.]] * 2
    assert values(P.MirrorPad("SYMMETRIC")(m, PADS)) == [[2., 1., 1., 2., 3., 3., 2.]] * 2 + [
        [5., 4., 4., 5., 6., 6., 5.]] * 2
    w = Tensor(np.arange(28, dtype=np.float32).reshape(4, 7))
    assert values(ops.grad(lambda t: (P.MirrorPad()(t, PADS) * w).sum())(m)) == [[72., 102., 64.], [44., 60., 36.]]
    three = P.MirrorPad()(Tensor(np.arange(8, dtype=np.float32).reshape(1, 2, 4)),
                          Tensor(np.array([[0, 0], [1, 1], [1, 0]], np.int64)))
    assert values(three) == [[[5., 4., 5., 6., 7.], [1., 0., 1., 2., 3.], [5., 4., 5., 6., 7.], [1., 0., 1., 2., 3.]]]
    for mode in ("REFLECT", "SYMMETRIC"):
        check_grad(lambda t, mode=mode: P.MirrorPad(mode)(t, PADS), M.astype(np.float64))
        check_modes(lambda t, mode=mode: P.MirrorPad(mode)(t, PADS), m)


@pytest.mark.parametrize("call, message", [  # observed on MindSpore 2.10 CPU, in PYNATIVE and GRAPH mode
    (lambda: ops.Einsum("ij,jk->ik")((Tensor(M), Tensor(M.T))), "Unsupported op \\[Einsum\\] on CPU"),
    # MindSpore: "prim:ScalarToArray has no attr:__infer__"; mslab's P.ScalarToArray error says what to use
    (lambda: F.scalar_to_array(3), "MindSpore 2.10 cannot run it.*scalar_to_tensor"),
])
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_ops_mindspore_cannot_run_on_cpu(call, message, mode):
    with in_mode(mode), pytest.raises(RuntimeError, match=message):
        ms.jit(lambda x: call())(Tensor(1.0)) if mode == ms.GRAPH_MODE else call()


ONES = Tensor(np.ones((2, 3), np.float32))


@pytest.mark.parametrize("call, error, message", [  # observed on MindSpore 2.10 CPU
    (lambda: ops.repeat_elements(ONES, 0, 0), ValueError,
     "the 'rep' must be in range of \\(0, 2147483647\\], but got 0"),
    (lambda: ops.repeat_elements(ONES, 2, 2), ValueError, "the 'axis' must be in range of \\[-2, 2\\), but got 2"),
    (lambda: ops.cdist(ONES, Tensor(np.ones((2, 4), np.float32))), ValueError,
     "the number of columns of 'x' must be the same as the number of 'y', but got 'x_shape\\[1\\]': 3"),
    (lambda: ops.cdist(Tensor(np.ones(3, np.float32)), Tensor(np.ones(3, np.float32))), ValueError,
     "the input_x dim must be in \\[2,3\\], but got 1"),
    (lambda: ops.DepthToSpace(1), ValueError, "the 'block_size' should be >= : 2, but got 1"),
    (lambda: ops.DepthToSpace(2)(Tensor(np.ones((1, 3, 2, 2), np.float32))), ValueError,
     "the square of block_size must be smaller than the input channel, but got the block_size is 2, and the input "
     "channel is 3"),
    (lambda: ops.KLDivLoss("avg"), ValueError,
     "the 'reduction' must be str and must be in '\\['none', 'mean', 'batchmean', 'sum'\\]', but got 'avg'"),
    (lambda: P.MirrorPad("EDGE"), ValueError, "the 'mode' must be str and must be in '\\['REFLECT', 'SYMMETRIC'\\]'"),
    (lambda: P.MirrorPad()(ONES, Tensor(np.array([[3, 3], [0, 0]], np.int64))), ValueError, "padding"),
    (lambda: ops.Einsum(3), TypeError, "the equation must be str!"),
])
def test_errors_match_mindspore(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_every_new_name_is_tested():
    source = open(__file__).read().split("def test_every_new")[0]
    assert all(n in source for n in block_ops.__all__ + device_only_ops.__all__ if n != "Randperm")
