"""``ops.tensor_dot`` and the ``mslab.numpy`` names public code uses: roll, tensordot, flip, pad, diag, meshgrid,
ceil, cumsum, norm, cross. Values observed on MindSpore 2.10 CPU (docs/mindspore_observed/opsmore.md)."""
import numpy as np
import pytest

import mslab as ms
import mslab.numpy as mnp
from mslab import ops
from mslab.common.tensor import Tensor
from mslab.testing import check_grad, check_modes

M = np.arange(12, dtype=np.float32).reshape(3, 4)
I6 = np.arange(6, dtype=np.int32).reshape(2, 3)


def values(t):
    return t.asnumpy().tolist()


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
