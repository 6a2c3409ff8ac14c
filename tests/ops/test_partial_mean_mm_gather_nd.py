"""F.partial, ops.mean, C.clip_by_value, ops.mm, P.Reciprocal and P.GatherNd: values and gradients.
Numbers observed on MindSpore 2.10 CPU."""
import numpy as np
import pytest

import mslab as ms
from mslab import ops
from mslab.common.tensor import Tensor
from mslab.ops import composite as C
from mslab.ops import functional as F
from mslab.ops import operations as P

X = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]], np.float32)
PARAMS = np.arange(12, dtype=np.float32).reshape(3, 4)


def test_functional_partial():
    # observed on MindSpore 2.10 CPU: F.partial(add, 2)(3) -> 5
    assert F.partial(lambda a, b: a + b, 2)(3) == 5


def test_ops_mean():
    x = Tensor(X)
    # observed on MindSpore 2.10 CPU: 3.6666667 [2. 5.3333335] [[2.5 3.5 5.]]; int32 [[1,2],[3,5]] -> 2
    np.testing.assert_allclose(ops.mean(x).asnumpy(), 3.6666667, rtol=1e-7)
    np.testing.assert_allclose(ops.mean(x, 1).asnumpy(), [2.0, 5.3333335], rtol=1e-7)
    np.testing.assert_array_equal(ops.mean(x, 0, True).asnumpy(), [[2.5, 3.5, 5.0]])
    assert ops.mean(Tensor(np.array([[1, 2], [3, 5]], np.int32))).asnumpy() == 2
    assert ops.mean(Tensor(np.ones((2, 3, 4), np.float32)), (0, 2)).shape == (3,)  # observed: (3,)


def test_composite_clip_by_value():
    # observed on MindSpore 2.10 CPU: [[2. 2. 3.] [4. 5. 5.]]
    out = C.clip_by_value(Tensor(X), Tensor(2.0, ms.float32), Tensor(5.0, ms.float32))
    np.testing.assert_array_equal(out.asnumpy(), [[2, 2, 3], [4, 5, 5]])


def test_mm_is_a_2d_matmul():
    # observed on MindSpore 2.10 CPU: [[6. 6.] [16. 16.]]; a 3-D input -> ValueError "MatMul inputs should
    # have the same dimension size and equal to 2."
    out = ops.mm(Tensor(X), Tensor(np.ones((3, 2), np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [[6, 6], [16, 16]])
    with pytest.raises(ValueError, match="equal to 2"):
        ops.mm(Tensor(np.ones((2, 2, 3), np.float32)), Tensor(np.ones((3, 2), np.float32)))


def test_reciprocal_values_and_gradient():
    x = Tensor(X)
    # observed on MindSpore 2.10 CPU: 1/x and grad(sum(1/x)) = -1/x^2 as below; int32 [2, 4] -> Float32 [0.5 0.25]
    np.testing.assert_allclose(P.Reciprocal()(x).asnumpy(),
                               [[1.0, 0.5, 0.33333334], [0.25, 0.2, 0.14285715]], rtol=1e-7)
    np.testing.assert_allclose(ms.grad(lambda t: P.Reciprocal()(t).sum())(x).asnumpy(),
                               [[-1.0, -0.25, -0.11111112], [-0.0625, -0.04, -0.02040816]], rtol=1e-6)
    ints = ops.reciprocal(Tensor(np.array([2, 4], np.int32)))
    assert ints.dtype == ms.float32
    np.testing.assert_array_equal(ints.asnumpy(), [0.5, 0.25])


def test_gather_nd_values_and_gradient():
    p = Tensor(PARAMS)
    # observed on MindSpore 2.10 CPU: GatherNd(arange(12).reshape(3, 4), [[0,1],[2,3]]) -> [1. 11.];
    # grad of 2 * sum(GatherNd(p, [[0,1],[0,1],[2,3]])) -> 4 at (0, 1), 2 at (2, 3), zeros elsewhere
    np.testing.assert_array_equal(P.GatherNd()(p, Tensor(np.array([[0, 1], [2, 3]], np.int32))).asnumpy(), [1, 11])
    idx = Tensor(np.array([[0, 1], [0, 1], [2, 3]], np.int32))
    g = ms.grad(lambda t: (P.GatherNd()(t, idx) * 2).sum())(p).asnumpy()
    np.testing.assert_array_equal(g, [[0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]])
