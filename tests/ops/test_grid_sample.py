"""ops.grid_sample (issue 19): bilinear and nearest, padding zeros / border / reflection, align_corners, and the
input's and the grid's gradients, as observed on MindSpore 2.10 CPU (docs/mindspore_observed/opsthree.md);
central differences and GRAPH == PYNATIVE."""
import numpy as np
import pytest

from mslab import ops
from mslab.common.tensor import Tensor
from mslab.ops import grid_sample_ops
from mslab.testing import check_grad, check_modes

X = np.arange(24, dtype=np.float32).reshape(2, 1, 3, 4)
GRID = np.array([[[[-1.0, -1.0], [0.3, -0.2], [1.2, 0.9]], [[-0.7, 0.5], [0.0, 0.0], [0.95, -1.3]]],
                 [[[0.1, 0.2], [-1.5, 0.4], [0.6, 1.0]], [[1.0, 1.0], [-0.25, -0.75], [2.0, -2.0]]]], np.float32)
W = Tensor(np.arange(12, dtype=np.float32).reshape(2, 1, 2, 3))

# observed on MindSpore 2.10 CPU: ops.grid_sample(x, grid, mode, padding_mode, align_corners).ravel()
SAMPLES = {
    ("bilinear", "zeros", False): [0, 4.9, 0.715, 7.1, 5.5, 0.09, 18.9, 0, 11.35, 5.75, 11.375, 0],
    ("bilinear", "zeros", True): [0, 5.15, 7.42, 6.45, 5.5, 2.0475, 18.45, 4.4, 22.4, 23, 14.125, 0],
    ("bilinear", "border", False): [0, 4.9, 11, 7.1, 5.5, 3, 18.9, 18.4, 22.7, 23, 13, 15],
    ("bilinear", "border", True): [0, 5.15, 10.6, 6.45, 5.5, 2.925, 18.45, 17.6, 22.4, 23, 14.125, 15],
    ("bilinear", "reflection", False): [0, 4.9, 11, 7.1, 5.5, 3, 18.9, 18.9, 22.7, 23, 13, 17.5],
    ("bilinear", "reflection", True): [0, 5.15, 10.3, 6.45, 5.5, 4.125, 18.45, 18.35, 22.4, 23, 14.125, 17.5],
    ("nearest", "zeros", False): [0, 6, 0, 8, 6, 0, 18, 0, 0, 0, 13, 0],
    ("nearest", "zeros", True): [0, 6, 11, 8, 6, 3, 18, 0, 22, 23, 13, 0],
    ("nearest", "border", False): [0, 6, 11, 8, 6, 3, 18, 20, 23, 23, 13, 15],
    ("nearest", "border", True): [0, 6, 11, 8, 6, 3, 18, 16, 22, 23, 13, 15],
    ("nearest", "reflection", False): [0, 6, 11, 8, 6, 3, 18, 21, 23, 23, 13, 18],
    ("nearest", "reflection", True): [0, 6, 11, 8, 6, 3, 18, 17, 22, 23, 13, 18],
}
# observed on MindSpore 2.10 CPU: the gradients of (grid_sample(x, grid, 'bilinear', padding, False) * W).sum()
GRADS = {
    "zeros": ([0, 0, 0.27, 0.18, 0.675, 2.075, 2.63, 0.07, 2.025, 0.225, 0, 0.13, 0, 8.75, 0, 0, 0, 1.26, 2.94, 0, 0,
               0.54, 2.46, 5.05],
              [0, 0, 2, 6, -28.6, -3.3, 6, 18, 8, 24, -1.5, 13.5, 12, 36, 0, 0, 8, -272.4, -207, -155.25, 17.5, 195, 0,
               0]),
    "border": ([0, 0, 0.27, 5.03, 0.675, 2.075, 2.63, 0.07, 2.025, 0.225, 0, 2, 0, 10, 0, 11, 2.8, 1.26, 2.94, 0, 4.2,
                0.54, 3.66, 14.6],
               [0, 0, 2, 6, 0, 0, 6, 18, 8, 24, 0, 0, 12, 36, 0, 42, 16, 0, 0, 0, 20, 0, 0, 0]),
    "reflection": ([0, 0, 0.27, 5.03, 0.675, 2.075, 2.63, 0.07, 2.025, 0.225, 0, 2, 0, 10, 0, 0, 1.4, 8.16, 8.44, 0,
                    2.1, 2.64, 3.66, 14.6],
                   [0, 0, 2, 6, 0, 0, 6, 18, 8, 24, 0, 0, 12, 36, -14, 42, 16, 0, 0, 0, 20, 0, -22, -66]),
}


@pytest.mark.parametrize("key", sorted(SAMPLES))
def test_samples_match_mindspore(key):
    out = ops.grid_sample(Tensor(X), Tensor(GRID), *key)
    assert out.shape == (2, 1, 2, 3)
    np.testing.assert_allclose(out.asnumpy().ravel(), SAMPLES[key], rtol=1e-5, atol=1e-5)


def test_default_align_corners_is_false():
    np.testing.assert_allclose(ops.grid_sample(Tensor(X), Tensor(GRID)).asnumpy().ravel(),
                               SAMPLES["bilinear", "zeros", False], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("padding", sorted(GRADS))
def test_gradients_match_mindspore(padding):
    gx, gg = ops.grad(lambda a, g: (ops.grid_sample(a, g, "bilinear", padding, False) * W).sum(), (0, 1))(
        Tensor(X), Tensor(GRID))
    np.testing.assert_allclose(gx.asnumpy().ravel(), GRADS[padding][0], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(gg.asnumpy().ravel(), GRADS[padding][1], rtol=1e-5, atol=1e-4)


def test_nearest_gradients_match_mindspore():
    gx, gg = ops.grad(lambda a, g: (ops.grid_sample(a, g, "nearest", "zeros", True) * W).sum(), (0, 1))(
        Tensor(X), Tensor(GRID))
    # observed on MindSpore 2.10 CPU: the grid gets a zero gradient
    assert gx.asnumpy().ravel().tolist() == [0, 0, 0, 5, 0, 0, 5, 0, 3, 0, 0, 2, 0, 10, 0, 0, 0, 0, 6, 0, 0, 0, 8, 9]
    assert not gg.asnumpy().any()


@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [False, True])
def test_central_differences_and_modes(padding, align):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 2, 3, 4))
    grid = rng.uniform(-1.3, 1.3, (2, 3, 2, 2))  # generic points: none on a pixel or a border
    check_grad(lambda a, g: ops.grid_sample(a, g, "bilinear", padding, align), x, grid)
    check_grad(lambda a: ops.grid_sample(a, Tensor(grid), "nearest", padding, align), x)
    for mode in ("bilinear", "nearest"):
        check_modes(lambda a, g, mode=mode: ops.grid_sample(a, g, mode, padding, align),
                    Tensor(x.astype(np.float32)), Tensor(grid.astype(np.float32)))


@pytest.mark.parametrize("call, message", [  # observed on MindSpore 2.10 CPU: ValueErrors
    (lambda: ops.grid_sample(Tensor(X), Tensor(GRID), "bicubic"), "'mode'"),
    (lambda: ops.grid_sample(Tensor(X), Tensor(GRID), "bilinear", "edge"), "'padding_mode'"),
    (lambda: ops.grid_sample(Tensor(X), Tensor(np.zeros((2, 2, 2, 3), np.float32))), "grid \\(N, H_out, W_out, 2\\)"),
])
def test_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_every_grid_primitive_is_tested():
    # GridSampler2D is grid_sample's primitive, GridSampler2DGrad its gradients (both tested above)
    assert set(grid_sample_ops.__all__) == {"GridSampler2D", "GridSampler2DGrad", "grid_sample"}
