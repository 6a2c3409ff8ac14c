"""issue 19 nn names: Conv2dTranspose/Conv1dTranspose (and P.Conv2DTranspose), against numbers observed on
MindSpore 2.10 CPU (snippets and output in docs/mindspore_observed/nnlayers.md)."""
import numpy as np
import pytest

import mslab as ms
from mslab import nn, ops
from mslab.common.tensor import Tensor
from mslab.ops import operations as P
from mslab.testing import check_grad, check_modes

X = Tensor(np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5) / 50 - 1)
W = Tensor(np.cos(np.arange(3 * 2 * 3 * 3, dtype=np.float32)).reshape(3, 2, 3, 3))

# (pad_mode, padding, stride, dilation) -> output shape, sum, sum of squares; observed on MindSpore 2.10 CPU
CONV2D_TRANSPOSE = [
    ("same", 0, 1, 1, (2, 2, 4, 5), 9.82536, 283.141),
    ("same", 0, 1, 2, (2, 2, 4, 5), -1.08776, 67.6711),
    ("same", 0, 2, 1, (2, 2, 8, 10), 15.81678, 1287.704),
    ("same", 0, 2, 2, (2, 2, 8, 10), 9.82536, 283.141),
    ("valid", 0, 1, 1, (2, 2, 6, 7), 23.29587, 598.3134),
    ("valid", 0, 1, 2, (2, 2, 8, 9), 23.29587, 595.0629),
    ("valid", 0, 2, 1, (2, 2, 9, 11), 23.29587, 1477.4476),
    ("valid", 0, 2, 2, (2, 2, 11, 13), 23.29587, 598.3134),
    ("pad", 1, 1, 1, (2, 2, 4, 5), 9.82536, 283.141),
    ("pad", 1, 1, 2, (2, 2, 6, 7), 9.82536, 309.9702),
    ("pad", 1, 2, 1, (2, 2, 7, 9), 9.82536, 1180.4209),
    ("pad", 1, 2, 2, (2, 2, 9, 11), 9.82536, 283.141),
    ("pad", (1, 0, 2, 1), 1, 1, (2, 2, 5, 4), 13.17089, 387.983),
    ("pad", (1, 0, 2, 1), 1, 2, (2, 2, 7, 6), 14.84261, 432.7985),
    ("pad", (1, 0, 2, 1), 2, 1, (2, 2, 8, 8), 14.81991, 1129.7139),
    ("pad", (1, 0, 2, 1), 2, 2, (2, 2, 10, 10), 16.49162, 428.481),
]


@pytest.mark.parametrize("pad_mode,padding,stride,dilation,shape,total,squares", CONV2D_TRANSPOSE)
def test_conv2d_transpose_shapes_and_values(pad_mode, padding, stride, dilation, shape, total, squares):
    net = nn.Conv2dTranspose(3, 2, 3, stride=stride, pad_mode=pad_mode, padding=padding, dilation=dilation,
                             weight_init=W)
    y = net(X)
    assert y.shape == shape and net.weight.shape == (3, 2, 3, 3)
    np.testing.assert_allclose(float(y.sum()), total, rtol=2e-6, atol=1e-5)
    np.testing.assert_allclose(float((y * y).sum()), squares, rtol=2e-6)


def test_conv2d_transpose_bias_output_padding_group():
    net = nn.Conv2dTranspose(3, 2, 3, stride=2, has_bias=True, weight_init=W,
                             bias_init=Tensor(np.array([0.5, -1], np.float32)))
    assert net.has_bias and net.pad_mode == "same"
    np.testing.assert_allclose(net(X).asnumpy()[0, 0, :2], [  # observed on MindSpore 2.10 CPU
        [-0.87059736, -0.786608, -0.8596674, -0.74071956, -0.8100802, -0.69483113, -0.7604929, -0.6489425,
         -0.7109057, -0.60305417],
        [1.7653015, 1.8870077, 1.9733855, 1.840597, 1.9232335, 1.794186, 1.8730819, 1.7477751, 1.82293,
         1.7013643]], rtol=1e-5)
    y = nn.Conv2dTranspose(3, 2, 3, stride=2, pad_mode="pad", padding=1, output_padding=1, weight_init=W)(X)
    assert y.shape == (2, 2, 8, 10)  # 7 x 9 plus a zero row and column; observed on MindSpore 2.10 CPU
    np.testing.assert_allclose(y.asnumpy()[1, 1, -2:, -3:], [[1.9469833, 1.8375845, 0], [0, 0, 0]], rtol=1e-5)
    x4 = Tensor(np.arange(2 * 4 * 4 * 5, dtype=np.float32).reshape(2, 4, 4, 5) / 50 - 1)
    net = nn.Conv2dTranspose(4, 2, 3, group=2, weight_init="ones")
    assert net.weight.shape == (4, 1, 3, 3) and net(x4).shape == (2, 2, 4, 5)
    np.testing.assert_allclose(net(x4).asnumpy()[:, :, 0, 0], [[-5.92, 0.48], [6.88, 13.28]], rtol=1e-5)


CONV1D_TRANSPOSE = [  # observed on MindSpore 2.10 CPU
    ("same", 0, 1, (2, 2, 6), -0.73165, 161.4192),
    ("same", 0, 2, (2, 2, 12), -0.9256, 130.8522),
    ("valid", 0, 1, (2, 2, 8), -0.2594, 174.1182),
    ("valid", 0, 2, (2, 2, 13), -0.2594, 131.1909),
    ("pad", 1, 1, (2, 2, 6), -0.73165, 161.4192),
    ("pad", 1, 2, (2, 2, 11), -0.73165, 118.4919),
]
X1 = Tensor(np.sin(np.arange(2 * 3 * 6, dtype=np.float32)).reshape(2, 3, 6))
W1 = Tensor(np.cos(np.arange(3 * 2 * 3, dtype=np.float32)).reshape(3, 2, 3))


@pytest.mark.parametrize("pad_mode,padding,stride,shape,total,squares", CONV1D_TRANSPOSE)
def test_conv1d_transpose(pad_mode, padding, stride, shape, total, squares):
    y = nn.Conv1dTranspose(3, 2, 3, stride=stride, pad_mode=pad_mode, padding=padding, weight_init=W1)(X1)
    assert y.shape == shape
    np.testing.assert_allclose(float(y.sum()), total, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(float((y * y).sum()), squares, rtol=2e-6)


def test_conv1d_transpose_bias_and_weight_shape():
    net = nn.Conv1dTranspose(3, 2, 3, stride=2, weight_init=W1, has_bias=True, bias_init="ones")
    assert net.weight.shape == (3, 2, 1, 3) and net.padding == (0, 0, 0, 0)
    np.testing.assert_allclose(net(X1).asnumpy()[0, 0], [  # observed on MindSpore 2.10 CPU
        0.27892435, 0.30243665, 2.794135, 2.3312316, 3.306863, 3.1360984, 1.6986719, 1.9770461, -0.5518751,
        -0.08029783, -1.3756356, -1.1444209], rtol=1e-5, atol=1e-6)


def test_conv2d_transpose_primitive():
    assert ops.Conv2DTranspose is P.Conv2DTranspose and issubclass(P.Conv2DTranspose, P.Conv2DBackpropInput)
    ct = ops.Conv2DTranspose(out_channel=3, kernel_size=3, pad_mode="pad", pad=(1, 0, 0, 1), stride=2)
    d = Tensor(np.sin(np.arange(27, dtype=np.float32)).reshape(1, 3, 3, 3))
    np.testing.assert_allclose(ct(d, W, (1, 2, 6, 6)).asnumpy()[0, 1], [  # observed on MindSpore 2.10 CPU
        [0.5443101, 0.15124105, 0.14934123, 0.311003, -0.16550079, 0.18483019],
        [-0.09513128, -0.19079311, -0.06969249, -0.13424964, -0.04660663, 0.04572242],
        [-0.4992628, -0.11127466, -0.18913448, -0.305074, 0.12380262, -0.21838981],
        [0.10973364, 0.18365742, 0.0674938, 0.15273874, 0.05360492, -0.0186073],
        [0.44422287, 0.06908104, 0.22514194, 0.29303905, -0.07962663, 0.24757831],
        [-0.468444, -0.13662916, -0.2727058, -0.36329114, 0.02803043, -0.25594497]], rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="dout shape"):  # MindSpore CPU: a RuntimeError from oneDNN
        ct(d, W, (1, 2, 5, 5))


@pytest.mark.parametrize("kwargs,match", [
    (dict(pad_mode="same", padding=1), "needs pad_mode='pad'"),   # MindSpore: ValueError, 'pad' must be zero
    (dict(padding=(1, 1)), "'padding size' must be int and must = 4"),
    (dict(stride=2, output_padding=1), "pad_mode must be 'pad'"),
    (dict(stride=2, pad_mode="pad", output_padding=2), r"range of \[0, max\(stride, dilation\)\)"),
])
def test_conv2d_transpose_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):  # observed on MindSpore 2.10 CPU: ValueError for each
        nn.Conv2dTranspose(3, 2, 3, **kwargs)(X)
    with pytest.raises(ValueError, match="has 3 channels but in_channels=4"):
        nn.Conv2dTranspose(4, 2, 3)(X)


@pytest.mark.parametrize("pad_mode,padding,group", [("same", 0, 1), ("valid", 0, 2), ("pad", (1, 0, 2, 1), 1)])
def test_conv2d_transpose_grad_and_modes(pad_mode, padding, group):
    net = nn.Conv2dTranspose(2, 4, 3, stride=2, pad_mode=pad_mode, padding=padding, group=group, has_bias=True,
                             dtype=ms.float64)
    x = np.random.default_rng(0).standard_normal((1, 2, 3, 4))
    check_grad(net, x)
    check_modes(net, Tensor(x))
    check_modes(ms.grad(lambda a: (net(a) ** 2).sum()), Tensor(x))


def test_conv1d_takes_a_3d_weight_init_as_mindspore():
    w = Tensor(np.arange(12, dtype=np.float32).reshape(3, 2, 2) / 10)
    c = nn.Conv1d(2, 3, 2, pad_mode="valid", weight_init=w)
    assert c.weight.shape == (3, 2, 1, 2)  # observed on MindSpore 2.10 CPU
    np.testing.assert_allclose(c(Tensor(np.ones((1, 2, 4), np.float32))).asnumpy(),
                               [[[0.6] * 3, [2.2] * 3, [3.8000002] * 3]], rtol=1e-6)
    with pytest.raises(ValueError, match="For 'Conv1d'.*weight_init"):  # MindSpore: ValueError, must = 3
        nn.Conv1d(2, 3, 2, weight_init=Tensor(np.ones((3, 2, 1, 2), np.float32)))


X3 = Tensor(np.sin(np.arange(2 * 2 * 5 * 4 * 6, dtype=np.float32)).reshape(2, 2, 5, 4, 6))


def test_conv3d_bias_gradients_and_modes():
    c = nn.Conv3d(2, 4, (2, 3, 1), has_bias=True, weight_init="ones", bias_init=Tensor(np.array([1, 2, 3, 4],
                                                                                              np.float32)))
    assert c.weight.shape == (4, 2, 2, 3, 1) and "format=NCDHW" in repr(c)
    np.testing.assert_allclose(c(X3).asnumpy()[1, 3, 0, 0], [  # observed on MindSpore 2.10 CPU
        8.742949, 10.134733, 5.8862724, -0.09641886, -2.3128815, 1.2746897], rtol=1e-5, atol=1e-6)
    w = Tensor(np.cos(np.arange(4 * 2 * 27, dtype=np.float32)).reshape(4, 2, 3, 3, 3))
    c = nn.Conv3d(2, 4, 3, stride=2, weight_init=w)
    gx, (gw,) = ms.grad(lambda a: (c(a) ** 2).sum(), 0, c.trainable_params())(X3)
    np.testing.assert_allclose(gx.asnumpy()[0, 1, 2, 0], [3.6944535, 1.4297994, -6.7399592, -6.366758, -1.1589656,
                                                          3.4416351], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(gw.asnumpy()[1, 0, 1], [[-2.763097, 0.04758596, 1.2910653],
                                                       [-3.1645746, -0.8803508, 0.99284196],
                                                       [-2.9112973, -0.7108617, 0.8233216]], rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="the 'padding size' must be int and must = 6"):
        nn.Conv3d(2, 4, 3, padding=(1, 1))
    small = nn.Conv3d(2, 2, 2, stride=(2, 1, 1), pad_mode="pad", padding=(1, 0, 1, 0, 0, 1), group=2, has_bias=True,
                      dtype=ms.float64)
    check_grad(small, np.random.default_rng(1).standard_normal((1, 2, 3, 3, 2)))
    check_modes(c, X3)
    check_modes(ms.grad(lambda a: (c(a) ** 2).sum(), 0, c.trainable_params()), X3)
