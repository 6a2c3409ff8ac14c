"""nn.Conv3d and nn.Conv3dTranspose (issue 19): shapes and sums of both, nn.Conv3dTranspose in detail, against
numbers observed on MindSpore 2.10 CPU (docs/mindspore_observed/nnlayers.md; Conv3d's details: test_api_nnlayers)."""
import numpy as np
import pytest

import mslab as ms
from mslab import nn
from mslab.common.tensor import Tensor
from mslab.testing import check_grad, check_modes

X = Tensor(np.sin(np.arange(2 * 2 * 3 * 3 * 4, dtype=np.float32)).reshape(2, 2, 3, 3, 4))
X3 = Tensor(np.sin(np.arange(2 * 2 * 5 * 4 * 6, dtype=np.float32)).reshape(2, 2, 5, 4, 6))
CONV3D = [  # nn.Conv3d on X3: kwargs -> output shape, sum, sum of squares; observed on MindSpore 2.10 CPU
    (dict(), (2, 4, 5, 4, 6), 1.208, 413.017),
    (dict(pad_mode="valid"), (2, 4, 3, 2, 4), 0.2527, 148.557),
    (dict(pad_mode="pad", padding=1), (2, 4, 5, 4, 6), 1.208, 413.017),
    (dict(pad_mode="pad", padding=(1, 0, 0, 2, 1, 1)), (2, 4, 4, 4, 6), 0.5413, 449.471),
    (dict(stride=2), (2, 4, 3, 2, 3), -0.0422, 68.512),
    (dict(stride=(2, 1, 2), pad_mode="valid"), (2, 4, 2, 2, 2), -1.6328, 50.469),
    (dict(dilation=2, pad_mode="same"), (2, 4, 5, 4, 6), 0.0085, 536.197),
    (dict(group=2, stride=2), (2, 4, 3, 2, 3), 0.883, 32.24),
]
CASES = [  # nn.Conv3dTranspose on X: kwargs -> output shape, sum, sum of squares; observed on MindSpore 2.10 CPU
    (dict(), (2, 4, 3, 3, 4), -0.0997, 1039.147),
    (dict(pad_mode="valid"), (2, 4, 5, 5, 6), 0.0913, 3947.753),
    (dict(pad_mode="pad", padding=1), (2, 4, 3, 3, 4), -0.0997, 1039.147),
    (dict(pad_mode="pad", padding=(1, 0, 0, 2, 1, 1)), (2, 4, 4, 3, 4), 1.2317, 1657.074),
    (dict(stride=2), (2, 4, 6, 6, 8), 1.1412, 4046.474),
    (dict(stride=(2, 1, 2), pad_mode="valid"), (2, 4, 7, 5, 9), 0.0913, 9232.639),
    (dict(stride=2, pad_mode="pad", padding=1, output_padding=1), (2, 4, 6, 6, 8), -1.233, 4012.705),
    (dict(group=2, stride=2), (2, 4, 6, 6, 8), -0.3185, 1373.986),
]


@pytest.mark.parametrize("cls,kwargs,shape,total,squares", [(nn.Conv3d, *c) for c in CONV3D] +
                         [(nn.Conv3dTranspose, *c) for c in CASES])
def test_shapes_and_sums(cls, kwargs, shape, total, squares):
    g, out = kwargs.get("group", 1), cls is nn.Conv3d
    w = np.cos(np.arange(4 * 2 // g * 27, dtype=np.float32))
    w = Tensor(w.reshape(((4, 2 // g) if out else (2, 4 // g)) + (3, 3, 3)))
    y = cls(2, 4, 3, weight_init=w, **kwargs)(X3 if out else X)
    assert y.shape == shape
    np.testing.assert_allclose(float(y.sum()), total, atol=2e-4)
    np.testing.assert_allclose(float((y * y).sum()), squares, rtol=1e-5)


X1 = Tensor(np.sin(np.arange(27, dtype=np.float32)).reshape(1, 1, 3, 3, 3))


@pytest.mark.parametrize("k,kwargs,shape,plane", [  # y[0, 0, :, 0, :], observed on MindSpore 2.10 CPU
    (1, dict(stride=2, pad_mode="valid"), (1, 1, 6, 6, 6),
     [[0, 0, 0.841471, 0, 0.9092974, 0], [0] * 6, [0.41211846, 0, -0.54402107, 0, -0.9999902, 0], [0] * 6,
      [-0.75098723, 0, 0.1498772, 0, 0.9129453, 0], [0] * 6]),
    (2, dict(pad_mode="same"), (1, 1, 3, 3, 3),
     [[0, 0.841471, 1.7507684], [0.41211846, 0.70956844, 0.20675707], [-0.33886877, -0.7330127, -0.4811889]]),
    (4, dict(pad_mode="same"), (1, 1, 3, 3, 3),
     [[-0.02251992, -0.08152986, -0.08152986], [0.20417438, 0.21188939, 0.21188939],
      [0.20417438, 0.21188939, 0.21188939]]),
])
def test_conv3d_transpose_edges(k, kwargs, shape, plane):
    y = nn.Conv3dTranspose(1, 1, k, weight_init="ones", **kwargs)(X1)
    assert y.shape == shape
    np.testing.assert_allclose(y.asnumpy()[0, 0, :, 0, :], plane, rtol=1e-5, atol=1e-6)


def test_conv3d_transpose_bias_gradients_modes_errors():
    w = Tensor(np.cos(np.arange(2 * 4 * 27, dtype=np.float32)).reshape(2, 4, 3, 3, 3))
    c = nn.Conv3dTranspose(2, 4, 3, stride=2, pad_mode="pad", padding=(1, 0, 0, 1, 1, 1), output_padding=(0, 1, 1),
                           has_bias=True, weight_init=w, bias_init="ones")
    assert c.weight.shape == (2, 4, 3, 3, 3)
    y = c(X)  # observed on MindSpore 2.10 CPU
    assert y.shape == (2, 4, 6, 7, 8)
    np.testing.assert_allclose(y.asnumpy()[1, 2, 3, :, 1], [2.0125241, 0.4538986, -1.9985719, 3.8460684, 1.4294906,
                                                            -2.1745281, 4.2881737], rtol=1e-5)
    gx, (gw, gb) = ms.grad(lambda a: (c(a) ** 2).sum(), 0, c.trainable_params())(X)
    np.testing.assert_allclose(gx.asnumpy()[0, 1, 2], [[26.14687, -151.25534, -132.26361, 52.403515],
                                                       [67.35766, 90.596436, -30.41629, -120.98554],
                                                       [-87.80903, 71.47044, 163.66388, 62.302776]], rtol=1e-5)
    np.testing.assert_allclose(gw.asnumpy()[1, 3, 0], [[-26.114435, -60.826004, -128.31503],
                                                       [-67.64294, -17.628317, 65.56312],
                                                       [113.95752, 73.96361, 51.35177]], rtol=1e-5)
    np.testing.assert_allclose(gb.asnumpy(), [1344.1681, 1342.6719, 1344.6082, 1344.9729], rtol=1e-5)
    with pytest.raises(ValueError, match="the depth of parameter 'dilation' must be 1, but got 2"):
        nn.Conv3dTranspose(2, 4, 3, dilation=2)
    small = nn.Conv3dTranspose(2, 2, 2, stride=(2, 1, 2), pad_mode="pad", padding=(1, 0, 0, 1, 1, 0), group=2,
                               output_padding=(1, 0, 0), has_bias=True, dtype=ms.float64)
    check_grad(small, np.random.default_rng(2).standard_normal((1, 2, 2, 3, 2)))
    check_modes(c, X)
    check_modes(ms.grad(lambda a: (c(a) ** 2).sum(), 0, c.trainable_params()), X)
