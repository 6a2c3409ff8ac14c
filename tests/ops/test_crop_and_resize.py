"""P.CropAndResize (issue 19, used in 4 public files): crops, both methods, extrapolation, the image's and the boxes'
gradients, as observed on MindSpore 2.10 CPU (docs/mindspore_observed/opsthree.md); central differences and
GRAPH == PYNATIVE."""
import numpy as np
import pytest

from mslab import ops
from mslab.common.tensor import Tensor
from mslab.ops import crop_resize_ops
from mslab.ops import operations as P
from mslab.testing import check_grad, check_modes

IMG = np.arange(2 * 4 * 5 * 2, dtype=np.float32).reshape(2, 4, 5, 2)
BOXES = np.array([[0.0, 0.0, 1.0, 1.0], [0.25, 0.2, 0.75, 0.9], [-0.5, 0.1, 0.5, 1.5]], np.float32)
IDX = Tensor(np.array([0, 1, 1], np.int32))
W = Tensor(np.arange(36, dtype=np.float32).reshape(3, 3, 2, 2))


def flat(t):
    return t.asnumpy().ravel().tolist()


def test_crops_match_mindspore():
    out = P.CropAndResize()(Tensor(IMG), Tensor(BOXES), IDX, (3, 2))
    assert out.shape == (3, 3, 2, 2) and str(out.dtype) == "Float32"
    # observed on MindSpore 2.10 CPU
    np.testing.assert_allclose(flat(out), [
        0, 1, 8, 9, 15, 16, 23, 24, 30, 31, 38, 39,
        49.1, 50.1, 54.7, 55.7, 56.6, 57.6, 62.199997, 63.199997, 64.1, 65.1, 69.7, 70.7,
        0, 0, 0, 0, 40.8, 41.8, 0, 0, 55.8, 56.8, 0, 0], rtol=1e-6)
    near = P.CropAndResize("nearest", 7.0)(Tensor(IMG), Tensor(BOXES), IDX, (3, 2))
    assert flat(near) == [0, 1, 8, 9, 20, 21, 28, 29, 30, 31, 38, 39, 52, 53, 58, 59, 62, 63, 68, 69, 62, 63, 68, 69,
                          7, 7, 7, 7, 40, 41, 7, 7, 60, 61, 7, 7]
    one_row = P.CropAndResize()(Tensor(IMG), Tensor(np.array([[0.1, 0.2, 0.1, 0.8]], np.float32)),
                                Tensor(np.array([0], np.int32)), (1, 3))
    np.testing.assert_allclose(flat(one_row), [4.6, 5.6, 7.0, 8.0, 9.4, 10.4], rtol=1e-6)
    ints = P.CropAndResize()(Tensor(np.arange(8, dtype=np.int32).reshape(1, 2, 2, 2)),
                             Tensor(np.array([[0., 0., 1., 1.]], np.float32)), Tensor(np.array([0], np.int32)), (3, 3))
    assert str(ints.dtype) == "Float32"
    assert flat(ints) == [0, 1, 1, 2, 2, 3, 2, 3, 3, 4, 4, 5, 4, 5, 5, 6, 6, 7]


@pytest.mark.parametrize("method", ["bilinear", "nearest"])
def test_gradients_match_mindspore(method):
    gi, gb = ops.grad(lambda im, bx: (P.CropAndResize(method)(im, bx, IDX, (3, 2)) * W).sum(), (0, 1))(
        Tensor(IMG), Tensor(BOXES))
    # observed on MindSpore 2.10 CPU: the boxes' gradient is the bilinear one for both methods
    np.testing.assert_allclose(gb.asnumpy(), [[330, 0, 330, 0], [2670, 792, 3630, 888], [0, 976, 1950, 0]], rtol=1e-6)
    expected = {
        "bilinear": [0, 1, 0, 0, 0, 0, 0, 0, 2, 3, 2, 2.5, 0, 0, 0, 0, 0, 0, 3, 3.5, 2, 2.5, 0, 0, 0, 0, 0, 0, 3, 3.5,
                     8, 9, 0, 0, 0, 0, 0, 0, 10, 11, 17.4, 18.05, 13.6, 14.2, 0, 0, 1.4, 1.5, 2.1, 2.25, 13, 13.55, 20,
                     21.2, 0, 0, 7.8, 8.3, 11.7, 12.45, 14.2, 14.75, 24.8, 26, 0, 0, 10.2, 10.7, 15.3, 16.05, 1, 1.05,
                     4, 4.2, 0, 0, 2.2, 2.3, 3.3, 3.45],
        "nearest": [0, 1, 0, 0, 0, 0, 0, 0, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 5, 0, 0, 0, 0, 0, 0, 6, 7, 8, 9,
                    0, 0, 0, 0, 0, 0, 10, 11, 28, 29, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 12, 13, 0, 0, 0, 0, 14, 15, 32, 33,
                    36, 38, 0, 0, 0, 0, 40, 42, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}
    np.testing.assert_allclose(flat(gi), expected[method], rtol=1e-5, atol=1e-5)


def test_central_differences_and_modes():
    rng = np.random.default_rng(0)
    img = rng.standard_normal((2, 4, 5, 3))
    boxes = np.array([[0.13, 0.07, 0.91, 0.83], [-0.2, 0.31, 0.66, 1.27]])  # no sample on a whole pixel
    # the output is Float32 whatever the inputs (as MindSpore's), so the differences take a wide step
    idx = Tensor(np.array([1, 0], np.int32))
    for method in ("bilinear", "nearest"):
        check_grad(lambda im, method=method: P.CropAndResize(method, 0.5)(im, Tensor(boxes), idx, (3, 4)), img,
                   eps=1e-2, rtol=1e-4, atol=1e-4)
        check_modes(lambda im, bx, method=method: P.CropAndResize(method, 0.5)(im, bx, idx, (3, 4)),
                    Tensor(img.astype(np.float32)), Tensor(boxes.astype(np.float32)))
    check_grad(lambda bx: P.CropAndResize()(Tensor(img), bx, idx, (3, 4)), boxes, eps=1e-3, rtol=1e-3, atol=1e-3)
    check_grad(lambda bx: P.CropAndResize()(Tensor(img), bx, idx, (1, 1)), boxes, eps=1e-3, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("call, error, message", [  # observed on MindSpore 2.10 CPU
    (lambda: P.CropAndResize()(Tensor(np.ones((1, 4, 5, 2), np.float32)), Tensor(BOXES[:1]),
                               Tensor(np.array([3], np.int32)), (2, 2)), ValueError,
     "the value of box_index must be in \\[0, 1\\), but got \\[3\\]"),
    (lambda: P.CropAndResize()(Tensor(np.ones((1, 4, 5, 2), np.float32)), Tensor(BOXES[:1]),
                               Tensor(np.array([0], np.int32)), (0, 2)), ValueError,
     "the \\[crop\\] height must be greater than 0, but got 0"),
    (lambda: P.CropAndResize()(Tensor(np.ones((4, 5, 2), np.float32)), Tensor(BOXES[:1]),
                               Tensor(np.array([0], np.int32)), (2, 2)), ValueError,
     "the \\[x\\] rank must be equal to 4, but got 3"),
    (lambda: P.CropAndResize("bicubic"), ValueError, "the 'method' must be str and must be in"),
    (lambda: P.CropAndResize("bilinear_v2"), NotImplementedError, "mslab does not implement it yet"),
])
def test_errors_match_mindspore(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_every_crop_primitive_is_tested():
    source = open(__file__).read().split("def test_every_crop")[0]
    # the two gradient kernels are tested through CropAndResize's gradients above
    assert set(crop_resize_ops.__all__) == {"CropAndResize", "CropAndResizeGradImage", "CropAndResizeGradBoxes"}
    assert "CropAndResize" in source and "grad" in source
