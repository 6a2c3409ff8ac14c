"""More of the MindSpore names public code uses most (issue 19): set_seed's common path, set_device, F.partial,
ops.mean, C.clip_by_value, ops.mm, P.Reciprocal, P.GatherNd, nn.Pad. Numbers observed on MindSpore 2.10 CPU."""
import numpy as np
import pytest

import mslab as ms
from mslab import nn, ops
from mslab.common.tensor import Tensor
from mslab.ops import composite as C
from mslab.ops import functional as F
from mslab.ops import operations as P
from mslab.testing import check_grad, check_modes

X = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]], np.float32)
PARAMS = np.arange(12, dtype=np.float32).reshape(3, 4)


def test_common_set_seed_is_the_top_level_one():
    # observed on MindSpore 2.10 CPU: mindspore.common.set_seed is mindspore.set_seed -> True
    assert ms.common.set_seed is ms.set_seed and ms.common.get_seed is ms.get_seed


def test_set_device_sets_the_context_target():
    # observed on MindSpore 2.10 CPU: set_device("CPU") -> get_context("device_target") == "CPU";
    # set_device("CPU", 0) -> device_id 0; set_device("Foo") -> ValueError naming CPU/GPU/Ascend
    try:
        ms.set_device("CPU", 0)
        assert ms.get_context("device_target") == "CPU" and ms.get_context("device_id") == 0
        with pytest.raises(ValueError, match="device_target"):
            ms.set_device("Foo")
    finally:
        ms.set_context(device_target="CPU", device_id=0)


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


# observed on MindSpore 2.10 CPU: nn.Pad(paddings=((1, 1), (2, 0)), mode)(X)
PADDED = {
    "CONSTANT": [[0, 0, 0, 0, 0], [0, 0, 1, 2, 3], [0, 0, 4, 5, 7], [0, 0, 0, 0, 0]],
    "REFLECT": [[7, 5, 4, 5, 7], [3, 2, 1, 2, 3], [7, 5, 4, 5, 7], [3, 2, 1, 2, 3]],
    "SYMMETRIC": [[2, 1, 1, 2, 3], [2, 1, 1, 2, 3], [5, 4, 4, 5, 7], [5, 4, 4, 5, 7]],
}


@pytest.mark.parametrize("mode", sorted(PADDED))
def test_pad_values_gradient_and_modes(mode):
    pad = nn.Pad(paddings=((1, 1), (2, 0)), mode=mode)
    np.testing.assert_array_equal(pad(Tensor(X)).asnumpy(), PADDED[mode])
    wide = nn.Pad(paddings=((1, 1), (2, 2)), mode=mode)  # every edge mirrored as far as it goes, as numpy.pad
    np.testing.assert_array_equal(wide(Tensor(X)).asnumpy(), np.pad(X, ((1, 1), (2, 2)), mode.lower()))
    check_grad(lambda t: pad(t) * np.arange(20.0).reshape(4, 5), X)
    check_modes(pad, Tensor(X))


def test_pad_constant_gradient_is_dout_cut_back():
    # observed on MindSpore 2.10 CPU: grad of 3 * sum(Pad(((1, 1), (2, 0)))(X)) -> all 3s of X's shape
    g = ms.grad(lambda t: (nn.Pad(paddings=((1, 1), (2, 0)))(t) * 3).sum())(Tensor(X))
    np.testing.assert_array_equal(g.asnumpy(), np.full((2, 3), 3.0))


def test_pad_errors():
    # observed on MindSpore 2.10 CPU: mode 'FOO' -> ValueError "For 'Pad', the 'mode' must be str and must be in
    # '['CONSTANT', 'REFLECT', 'SYMMETRIC']'..."; one pair for a 2-D input -> ValueError "the length of 'paddings'
    # must be equal to the rank of 'input_x', but got 1 vs 2"; REFLECT by 3 on an axis of 2 -> ValueError
    with pytest.raises(ValueError, match="'mode' must be"):
        nn.Pad(paddings=((1, 1), (2, 0)), mode="FOO")
    with pytest.raises(ValueError, match="1 vs 2"):
        nn.Pad(paddings=((1, 1),))(Tensor(X))
    with pytest.raises(ValueError, match="no greater than the dimension size"):
        nn.Pad(paddings=((3, 0), (0, 0)), mode="REFLECT")(Tensor(X))
