"""``mslab.mint`` (mint.flatten / sum / mean / matmul / select / narrow, mint.nn.ReLU, mint.nn.functional.relu),
ops.sum's Int64 for integer inputs, ``ops.tensor_dot`` and the ``mslab.numpy`` names public code uses (roll,
tensordot, flip, pad, diag, meshgrid, ceil, cumsum, cumprod, norm, cross), P.CumProd / ops.cumprod. Values
observed on MindSpore 2.10 CPU (snippets 6, 7 and 9 of docs/mindspore_observed/opsmore.md); gradients against
central differences, GRAPH == PYNATIVE."""
import numpy as np
import pytest

import mslab as ms
import mslab.numpy as mnp
from mslab import mint, nn, ops
from mslab.common.tensor import Tensor
from mslab.ops import operations as P
from mslab.testing import check_grad, check_modes

Y = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
M = np.arange(12, dtype=np.float32).reshape(3, 4)
I6 = np.arange(6, dtype=np.int32).reshape(2, 3)


def values(t):
    return t.asnumpy().tolist()


# ---- mslab.mint ------------------------------------------------------------------------------------------
def test_mint_flatten_sum_mean():
    y = Tensor(Y)
    # observed on MindSpore 2.10 CPU: flatten starts at axis 0; a 0-d input gives (1,)
    assert mint.flatten(y).shape == (24,) and mint.flatten(y, 1).shape == (2, 12)
    assert mint.flatten(y, start_dim=1, end_dim=-1).shape == (2, 12) and mint.flatten(y, 0, 1).shape == (6, 4)
    assert mint.flatten(Tensor(3.0, ms.float32)).shape == (1,)
    with pytest.raises(ValueError, match="For 'flatten', 'start_dim' cannot come after 'end_dim'."):
        mint.flatten(y, 2, 1)
    assert values(mint.sum(y)) == 276.0 and mint.sum(y, 1).shape == (2, 4)
    assert values(mint.sum(y, dim=(0, 2), keepdim=True)) == [[[60.0], [92.0], [124.0]]]
    i = Tensor(I6)
    assert values(mint.sum(i)) == 15 and mint.sum(i).dtype == ms.int64 and values(mint.sum(i, 1, True)) == [[3], [12]]
    assert values(mint.sum(i, dim=[0, 1])) == 15 and mint.sum(y, dtype=ms.float64).dtype == ms.float64
    for dt in (np.bool_, np.uint8, np.int8, np.int16, np.int32, np.int64):  # observed: all Int64, as ops.sum
        assert ops.sum(Tensor(np.ones(2, dt))).dtype == ms.int64
    assert ops.sum(Tensor(np.ones(2, np.float16))).dtype == ms.float16
    assert values(mint.mean(y)) == 11.5 and mint.mean(y, 1).shape == (2, 4)
    assert mint.mean(y, dim=1, keepdim=True).shape == (2, 1, 4) and values(mint.mean(y, (0, 1))) == [10, 11, 12, 13]
    assert mint.mean(y, dtype=ms.float64).dtype == ms.float64 and values(mint.mean(i)) == 2
    check_modes(lambda t: (mint.flatten(t, 1), mint.sum(t, 2, True), mint.mean(t, [0, 2])), y)
    check_grad(lambda t: mint.mean(mint.flatten(t, 0, 1), 0), Y)


def test_mint_matmul_select_narrow():
    one23, one3 = Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones(3, np.float32))
    # observed on MindSpore 2.10 CPU
    assert values(mint.matmul(one23, one3)) == [3.0, 3.0] and values(mint.matmul(one3, one3)) == 3.0
    assert mint.matmul(Tensor(np.ones((2, 1, 2, 3), np.float32)), Tensor(np.ones((4, 3, 5), np.float32))).shape == \
        (2, 4, 2, 5)
    with pytest.raises(TypeError, match="For 'MatMulExt', the type of 'x2' should be same as 'x1'"):
        mint.matmul(one23, Tensor(np.ones((3, 2), np.int32)))
    y = Tensor(Y)
    assert values(mint.select(y, 1, 2)) == [[8.0, 9.0, 10.0, 11.0], [20.0, 21.0, 22.0, 23.0]]
    assert mint.select(y, 0, -1).shape == (3, 4) and values(mint.select(y, -1, -1)[0]) == [3.0, 7.0, 11.0]
    with pytest.raises(ValueError, match=r"start exceed range. start: 3, start should be in \[-3, 3\)"):
        mint.select(y, 1, 3)
    assert mint.narrow(y, 2, 1, 2).shape == (2, 3, 2) and values(mint.narrow(y, 2, 1, 2)[0, 0]) == [1.0, 2.0]
    assert values(mint.narrow(y, -1, -3, 2)[0, 0]) == [1.0, 2.0]
    with pytest.raises(ValueError, match=r"For 'Narrow', start \(3\), \+ length \(2\) exceeds dimension size \(4\)."):
        mint.narrow(y, 2, 3, 2)
    # observed: grad of sum(narrow(t, 2, 1, 2)) is [[0 1 1 0] ...]; mint.select's grad fails on MindSpore's CPU
    # (RuntimeError from InplaceCopy), mslab gives the documented one
    assert values(ms.grad(lambda t: mint.narrow(t, 2, 1, 2).sum())(y)[0]) == [[0.0, 1.0, 1.0, 0.0]] * 3
    check_grad(lambda t: (mint.select(t, 1, -1), mint.narrow(t, 0, 1, 1)), Y)
    check_modes(lambda a, b: (mint.matmul(a, b), mint.select(a, 0, 1)), Tensor(M), Tensor(M.T.copy()))


def test_mint_nn():
    # observed on MindSpore 2.10 CPU: relu [0. 2.]; mint.nn.ReLU is nn.ReLU
    assert values(mint.nn.functional.relu(Tensor(np.array([-1.0, 2.0], np.float32)))) == [0.0, 2.0]
    assert mint.nn.ReLU is nn.ReLU
    with pytest.raises(NotImplementedError, match="inplace=True"):
        mint.nn.functional.relu(Tensor(np.array([-1.0], np.float32)), inplace=True)
    with pytest.raises(AttributeError, match="exists in MindSpore 2.10 but mslab does not implement it yet"):
        mint.nn.Conv2d  # noqa: B018


# ---- ops.tensor_dot and mslab.numpy ----------------------------------------------------------------------
def test_tensor_dot_and_numpy_products():
    y, w = Tensor(M), Tensor(np.arange(8, dtype=np.float32).reshape(4, 2))
    # observed on MindSpore 2.10 CPU
    assert values(ops.tensor_dot(y, w, 1)) == [[28.0, 34.0], [76.0, 98.0], [124.0, 162.0]]
    assert values(ops.tensor_dot(y, y, ((0, 1), (0, 1)))) == 506.0
    assert values(mnp.tensordot(y, w, 1)) == [[28.0, 34.0], [76.0, 98.0], [124.0, 162.0]]
    assert values(mnp.tensordot(y, y, axes=([0, 1], [0, 1]))) == 506.0 and mnp.tensordot(y, y, 0).shape == (3, 4, 3, 4)
    assert mnp.tensordot(y, Tensor(np.ones((3, 4, 5), np.float32)), axes=2).shape == (5,)
    with pytest.raises(TypeError, match="the type of 'x2' should be same as 'x1'|differ|dtype"):
        mnp.tensordot(y, Tensor(np.ones((4, 2), np.int32)), 1)
    assert values(mnp.dot(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), y)) == [32.0, 38.0, 44.0, 50.0]
    assert values(mnp.dot(y, Tensor(np.ones(4, np.float32)))) == [6.0, 22.0, 38.0]
    assert mnp.dot(Tensor(np.ones((2, 3, 4), np.float32)), Tensor(np.ones((5, 4, 2), np.float32))).shape == (2, 3, 5, 2)
    a, b = np.random.default_rng(0).standard_normal((2, 3)), np.random.default_rng(1).standard_normal((4, 3, 2))
    check_grad(lambda p, q: ops.tensor_dot(p, q, ((1, 0), (1, 2))), a, b)
    check_grad(lambda p, q: mnp.dot(p, q), a, b)
    check_modes(lambda p, q: (mnp.tensordot(p, q, ([1], [1])), mnp.dot(p, q)), Tensor(a), Tensor(b))


def test_numpy_roll_flip_pad_diag_meshgrid():
    y = Tensor(M)
    # observed on MindSpore 2.10 CPU
    assert values(mnp.roll(y, 1)) == [[11, 0, 1, 2], [3, 4, 5, 6], [7, 8, 9, 10]]
    assert values(mnp.roll(y, -1, axis=1)) == [[1, 2, 3, 0], [5, 6, 7, 4], [9, 10, 11, 8]]
    assert values(mnp.roll(y, (1, 2), axis=(0, 1))) == [[10, 11, 8, 9], [2, 3, 0, 1], [6, 7, 4, 5]]
    assert values(mnp.roll(y, 2)) == [[10, 11, 0, 1], [2, 3, 4, 5], [6, 7, 8, 9]]
    assert values(mnp.roll(Tensor(np.array([1, 2, 3], np.int32)), 5)) == [2, 3, 1]
    g = ms.grad(lambda t: (mnp.roll(t, 1, axis=1) * Tensor(M)).sum())(y)
    assert values(g) == [[1, 2, 3, 0], [5, 6, 7, 4], [9, 10, 11, 8]]
    assert values(mnp.flip(y)[0]) == [11, 10, 9, 8] and values(mnp.flip(y, 1)[0]) == [3, 2, 1, 0]
    assert values(mnp.flip(y, (0, 1))[0]) == [11, 10, 9, 8]
    assert values(mnp.pad(Tensor(np.array([1.0, 2.0], np.float32)), 2)) == [0, 0, 1, 2, 0, 0]
    assert values(mnp.pad(Tensor(np.array([[1, 2]], np.int32)), ((1, 0), (0, 2)), constant_values=7)) == \
        [[7, 7, 7, 7], [1, 2, 7, 7]]
    v3 = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    assert values(mnp.pad(v3, (2, 1), mode="reflect")) == [3, 2, 1, 2, 3, 2]
    assert values(mnp.pad(v3, 2, mode="edge")) == [1, 1, 1, 2, 3, 3, 3]
    assert values(mnp.diag(Tensor(np.array([1, 2], np.int32)))) == [[1, 0], [0, 2]]
    assert values(mnp.diag(y)) == [0, 5, 10] and values(mnp.diag(y, 1)) == [1, 6, 11]
    assert values(mnp.diag(Tensor(np.array([1.0, 2.0], np.float32)), -1)) == [[0, 0, 0], [1, 0, 0], [0, 2, 0]]
    grids = mnp.meshgrid(Tensor(np.array([1, 2, 3], np.int32)), Tensor(np.array([4, 5], np.int32)))
    assert isinstance(grids, list) and [values(t) for t in grids] == [[[1, 2, 3], [1, 2, 3]], [[4, 4, 4], [5, 5, 5]]]
    check_grad(lambda t: (mnp.roll(t, (1, -1), (0, 1)), mnp.flip(t, 0), mnp.pad(t, 1, mode="reflect"),
                          mnp.diag(t, -1)), M.astype(np.float64))
    check_grad(lambda t: mnp.diag(t, 2), np.array([1.0, 2.0]))
    check_modes(lambda t: (mnp.roll(t, 3), mnp.flip(t), mnp.pad(t, ((0, 1), (2, 0))), mnp.diag(t)), y)


def test_numpy_ceil_cumsum_norm_cross():
    y, yi = Tensor(M), Tensor(I6)
    # observed on MindSpore 2.10 CPU
    assert values(mnp.ceil(Tensor(np.array([1.2, -1.5], np.float32)))) == [2.0, -1.0]
    assert values(mnp.cumsum(y)) == [0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66] and values(mnp.cumsum(y, 1)[0]) == \
        [0, 1, 3, 6]
    assert mnp.cumsum(yi).dtype == ms.int32 and mnp.cumsum(yi, dtype=ms.float32).dtype == ms.float32
    assert mnp.cumsum(Tensor(np.array([True, True]))).dtype == ms.int32
    close = dict(rtol=1e-6)
    np.testing.assert_allclose(mnp.norm(y).asnumpy(), 22.494444, **close)
    np.testing.assert_allclose(mnp.norm(y, axis=1).asnumpy(), [3.7416575, 11.224972, 19.131126], **close)
    assert values(mnp.norm(y, ord=1)) == 21.0 and values(mnp.norm(y, ord=np.inf)) == 38.0
    assert values(mnp.norm(Tensor(np.array([3.0, 4.0], np.float32)))) == 5.0
    np.testing.assert_allclose(mnp.norm(y, axis=0, keepdims=True).asnumpy(), [[8.944272, 10.34408, 11.83216,
                                                                               13.379088]], **close)
    assert values(ms.grad(lambda t: mnp.norm(t))(Tensor(np.array([3.0, 4.0], np.float32)))) == \
        pytest.approx([0.6, 0.8])
    assert values(mnp.cross(Tensor(np.array([1.0, 0.0, 0.0], np.float32)), Tensor(np.array([0.0, 1.0, 0.0],
                                                                                             np.float32)))) == [0, 0, 1]
    assert values(mnp.cross(Tensor(np.array([[1.0, 2.0, 3.0]], np.float32)),
                            Tensor(np.array([[4.0, 5.0, 6.0]], np.float32)))) == [[-3, 6, -3]]
    rng = np.random.default_rng(2)
    check_grad(lambda a, b: (mnp.cross(a, b), mnp.cumsum(a, 0), mnp.norm(a, axis=1)), rng.standard_normal((2, 3)),
               rng.standard_normal((2, 3)))
    check_modes(lambda t: (mnp.ceil(t / 3), mnp.cumsum(t), mnp.norm(t, ord=1)), y)


# ---- P.CumProd / ops.cumprod / mnp.cumprod ---------------------------------------------------------------
# (exclusive, reverse) -> (CumProd of [2 3 4], grad of sum(CumProd * [1 2 3])), observed on MindSpore 2.10 CPU
CUMPROD = [((False, False), [2, 6, 24], [43, 28, 18]), ((False, True), [24, 12, 4], [12, 16, 15]),
           ((True, False), [1, 2, 6], [11, 6, 0]), ((True, True), [12, 4, 1], [0, 4, 5])]


@pytest.mark.parametrize("flags, out, grad", CUMPROD)
def test_cumprod_matches_mindspore(flags, out, grad):
    x, w = Tensor(np.array([2.0, 3.0, 4.0], np.float32)), Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    op = P.CumProd(*flags)
    assert values(op(x, 0)) == out
    assert values(ms.grad(lambda t: (op(t, 0) * w).sum())(x)) == grad
    rng = np.random.default_rng(3)
    check_grad(lambda t: op(t, 1), rng.standard_normal((2, 4, 3)))
    check_grad(lambda t: op(t, 0), np.array([2.0, 0.0, 4.0, 0.0]))   # zeros: the true gradient (see below)
    check_modes(lambda t: op(t, -1), Tensor(rng.standard_normal((3, 4))))


def test_cumprod_functional_forms():
    x, m = Tensor(np.array([2.0, 3.0, 4.0], np.float32)), Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    # observed on MindSpore 2.10 CPU
    assert values(ops.cumprod(m, 1)) == [[1, 2], [3, 12]] and ops.cumprod(m, -1, dtype=ms.float64).dtype == ms.float64
    assert values(mnp.cumprod(x)) == [2, 6, 24] and values(mnp.cumprod(m, axis=0)) == [[1, 2], [3, 8]]
    assert values(mnp.cumprod(m)) == [1, 2, 6, 24]
    xi = mnp.cumprod(Tensor(np.array([[1, 2], [3, 4]], np.int32)))
    assert values(xi) == [1, 2, 6, 24] and xi.dtype == ms.int32
    assert mnp.cumprod(Tensor(np.array([True, True]))).dtype == ms.int32
    # MindSpore 2.10's CPU gradient divides by x: d sum(cumprod([2, 0, 4])) is [1, nan, 0] there; mslab gives the
    # true gradient [1, 1 * (2 + 2 * 4) = 10, 0] (as SPEC.md's CPU quirks: the documented formula)
    assert values(ms.grad(lambda t: mnp.cumprod(t).sum())(Tensor(np.array([2.0, 0.0, 4.0], np.float32)))) == [1, 10, 0]
