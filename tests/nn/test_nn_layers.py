"""Layers in mslab.nn: shapes, numbers against numpy, GRAPH == PYNATIVE, gradients (input and weights)."""
import math

import numpy as np
import pytest

import mslab
from mslab import Tensor, context, nn
from mslab.common import dtype as mstype
from mslab.common.initializer import Normal, TruncatedNormal
from mslab.testing import check_grad, check_modes

RNG = np.random.default_rng(0)


def randn(*shape, dtype=np.float32):
    return RNG.standard_normal(shape).astype(dtype)


def with_weights(layer, names=None):
    """``fn(x, *weights)``: ``layer(x)`` with the named Parameters replaced by the given tensors.

    Lets check_grad differentiate with respect to the weights as ordinary inputs.
    """
    names = list(names if names is not None else layer._params)
    initial = [layer._params[n].asnumpy().astype(np.float64) for n in names]

    def fn(x, *ws):
        for n, w in zip(names, ws):
            setattr(layer, n, w)
        return layer(x)
    return fn, initial


def modes(layer, *inputs):
    return check_modes(lambda *xs: layer(*xs), *[Tensor(a) for a in inputs])


# ---- activations ------------------------------------------------------------------------------
ACTIVATIONS = [
    (nn.ReLU(), lambda x: np.maximum(x, 0)),
    (nn.ReLU6(), lambda x: np.clip(x, 0, 6)),
    (nn.LeakyReLU(0.1), lambda x: np.where(x >= 0, x, 0.1 * x)),
    (nn.Sigmoid(), lambda x: 1 / (1 + np.exp(-x))),
    (nn.Tanh(), np.tanh),
    (nn.Softmax(), lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True)),
    (nn.Softmax(axis=0), lambda x: np.exp(x) / np.exp(x).sum(0, keepdims=True)),
    (nn.LogSoftmax(), lambda x: x - np.log(np.exp(x).sum(-1, keepdims=True))),
]


@pytest.mark.parametrize("layer,ref", ACTIVATIONS, ids=lambda v: type(v).__name__ if isinstance(v, nn.Cell) else "")
def test_activation_values_modes_and_grads(layer, ref):
    x = randn(3, 4) * 4
    out = modes(layer, x)[0]
    np.testing.assert_allclose(out, ref(x.astype(np.float64)), rtol=2e-5, atol=1e-6)
    xg = randn(2, 3, dtype=np.float64) + 0.05  # keep away from relu kinks
    xg[np.abs(xg) < 0.05] = 0.3
    check_grad(lambda t: layer(t), xg)


def test_get_activation():
    assert isinstance(nn.get_activation("relu"), nn.ReLU)
    assert isinstance(nn.get_activation("Sigmoid"), nn.Sigmoid)
    assert isinstance(nn.get_activation("logsoftmax"), nn.LogSoftmax)
    assert nn.get_activation(None) is None
    with pytest.raises(KeyError, match="known"):
        nn.get_activation("swishy")


# ---- Dense ---------------------------------------------------------------------------------------
def test_dense_values_shapes_and_params():
    w, b = randn(4, 3), randn(4)
    d = nn.Dense(3, 4, Tensor(w), Tensor(b))
    assert d.weight.shape == (4, 3) and d.bias.shape == (4,)
    assert [n for n, _ in d.parameters_and_names()] == ["weight", "bias"]
    x = randn(5, 3)
    out = modes(d, x)[0]
    np.testing.assert_allclose(out, x @ w.T + b, rtol=1e-5, atol=1e-6)
    x3 = randn(2, 5, 3)
    out3 = modes(d, x3)[0]
    assert out3.shape == (2, 5, 4)
    np.testing.assert_allclose(out3, x3 @ w.T + b, rtol=1e-5, atol=1e-6)
    relu = nn.Dense(3, 4, Tensor(w), Tensor(b), activation="relu")
    np.testing.assert_allclose(modes(relu, x)[0], np.maximum(x @ w.T + b, 0), rtol=1e-5, atol=1e-6)
    nobias = nn.Dense(3, 4, Tensor(w), has_bias=False)
    assert nobias.bias is None and len(list(nobias.get_parameters())) == 1
    np.testing.assert_allclose(modes(nobias, x)[0], x @ w.T, rtol=1e-5, atol=1e-6)


def test_dense_initialisers():
    mslab.set_seed(1)
    d = nn.Dense(40, 30)  # 2.x defaults: HeUniform(sqrt(5)) and Uniform(1/sqrt(in))
    bound = 1 / math.sqrt(40)
    assert np.abs(d.weight.asnumpy()).max() <= bound + 1e-7
    assert np.abs(d.bias.asnumpy()).max() <= bound + 1e-7
    assert np.abs(d.bias.asnumpy()).max() > 0
    d = nn.Dense(40, 30, TruncatedNormal(0.02), TruncatedNormal(0.02))  # the seed's LeNet
    assert abs(d.weight.asnumpy().std() - 0.02) < 2e-3 and d.bias.asnumpy().std() < 0.04
    d = nn.Dense(3, 2, "zeros", "ones")
    np.testing.assert_array_equal(d.bias.asnumpy(), [1, 1])
    d = nn.Dense(1, 1, Normal(0.02), Normal(0.02), dtype=mstype.float64)
    assert d.weight.dtype == mstype.float64
    with pytest.raises(ValueError, match="weight_init shape"):
        nn.Dense(3, 2, Tensor(np.ones((3, 2), np.float32)))
    with pytest.raises(ValueError, match="in_channels"):
        nn.Dense(0, 2)


def test_dense_wrong_input_width():
    d = nn.Dense(3, 2)
    with pytest.raises(ValueError, match="in_channels=3"):
        d(Tensor(randn(2, 4)))


def test_dense_gradients_wrt_input_and_weights():
    d = nn.Dense(3, 2, Tensor(randn(2, 3, dtype=np.float64)), Tensor(randn(2, dtype=np.float64)),
                 activation="tanh")
    fn, (w, b) = with_weights(d, ["weight", "bias"])
    check_grad(fn, randn(4, 3, dtype=np.float64), w, b)
    d3 = nn.Dense(3, 2, Tensor(randn(2, 3, dtype=np.float64)), Tensor(randn(2, dtype=np.float64)))
    fn, (w, b) = with_weights(d3)
    check_grad(fn, randn(2, 2, 3, dtype=np.float64), w, b)


# ---- Flatten, Dropout ------------------------------------------------------------------------------
def test_flatten():
    x = randn(2, 3, 4, 5)
    assert modes(nn.Flatten(), x)[0].shape == (2, 60)
    assert modes(nn.Flatten(2), x)[0].shape == (2, 3, 20)
    assert modes(nn.Flatten(0, 1), x)[0].shape == (6, 4, 5)
    np.testing.assert_array_equal(modes(nn.Flatten(), x)[0], x.reshape(2, -1))
    check_grad(lambda t: nn.Flatten()(t), randn(2, 2, 3, dtype=np.float64))


def test_dropout_identity_in_eval():
    x = randn(4, 5)
    for drop in (nn.Dropout(), nn.Dropout(keep_prob=0.8), nn.Dropout(p=0.3)):
        assert drop.training is False
        np.testing.assert_array_equal(modes(drop, x)[0], x)
    drop = nn.Dropout(keep_prob=1.0).set_train()
    np.testing.assert_array_equal(modes(drop, x)[0], x)
    assert repr(nn.Dropout(p=0.3)) == "Dropout(p=0.3)"
    assert repr(nn.Dropout(keep_prob=0.8)) == "Dropout(keep_prob=0.8)"


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_dropout_training(mode):
    context.set_context(mode=mode)
    drop = nn.Dropout(p=0.25).set_train()
    x = np.ones((200, 50), np.float32)
    out = drop(Tensor(x)).asnumpy()
    kept = out != 0
    assert 0.7 < kept.mean() < 0.8
    np.testing.assert_allclose(out[kept], 1 / 0.75, rtol=1e-6)
    out2 = drop(Tensor(x)).asnumpy()
    assert np.any((out2 != 0) != kept)  # a fresh mask every call, also in GRAPH mode


def test_dropout_bad_arguments():
    with pytest.raises(ValueError):
        nn.Dropout(p=1.0)
    with pytest.raises(ValueError):
        nn.Dropout(keep_prob=0.0)
    with pytest.raises(ValueError):
        nn.Dropout(keep_prob=0.5, p=0.5)


# ---- Conv2d ------------------------------------------------------------------------------------------
def conv_ref(x, w, stride=1, pad=(0, 0, 0, 0), dilation=1):
    x = np.pad(x, ((0, 0), (0, 0), (pad[0], pad[1]), (pad[2], pad[3])))
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    ekh, ekw = (kh - 1) * dilation + 1, (kw - 1) * dilation + 1
    oh, ow = (h - ekh) // stride + 1, (wd - ekw) // stride + 1
    out = np.zeros((n, o, oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i * stride:i * stride + ekh:dilation, j * stride:j * stride + ekw:dilation]
            out[:, :, i, j] = np.tensordot(patch, w, axes=([1, 2, 3], [1, 2, 3]))
    return out


def test_conv2d_shapes_and_values():
    x = randn(2, 3, 7, 7)
    w = randn(4, 3, 3, 3)
    valid = nn.Conv2d(3, 4, 3, pad_mode="valid", weight_init=Tensor(w))
    assert valid.weight.shape == (4, 3, 3, 3) and valid.bias is None
    out = modes(valid, x)[0]
    assert out.shape == (2, 4, 5, 5)
    np.testing.assert_allclose(out, conv_ref(x, w), rtol=1e-4, atol=1e-5)
    same = nn.Conv2d(3, 4, 3, weight_init=Tensor(w))  # pad_mode='same' is the default
    np.testing.assert_allclose(modes(same, x)[0], conv_ref(x, w, pad=(1, 1, 1, 1)), rtol=1e-4, atol=1e-5)
    strided = nn.Conv2d(3, 4, 3, stride=2, pad_mode="same", weight_init=Tensor(w))
    assert modes(strided, x)[0].shape == (2, 4, 4, 4)
    padded = nn.Conv2d(3, 4, 3, pad_mode="pad", padding=2, weight_init=Tensor(w))
    np.testing.assert_allclose(modes(padded, x)[0], conv_ref(x, w, pad=(2, 2, 2, 2)), rtol=1e-4, atol=1e-5)
    dilated = nn.Conv2d(3, 4, 3, pad_mode="valid", dilation=2, weight_init=Tensor(w))
    np.testing.assert_allclose(modes(dilated, x)[0], conv_ref(x, w, dilation=2), rtol=1e-4, atol=1e-5)
    b = randn(4)
    biased = nn.Conv2d(3, 4, 3, pad_mode="valid", has_bias=True, weight_init=Tensor(w), bias_init=Tensor(b))
    np.testing.assert_allclose(modes(biased, x)[0], conv_ref(x, w) + b[:, None, None], rtol=1e-4, atol=1e-5)


def test_conv2d_lenet_seed_style_and_errors():
    conv = nn.Conv2d(1, 6, kernel_size=5, stride=1, padding=0, weight_init=TruncatedNormal(0.02), has_bias=False,
                     pad_mode="valid")
    assert modes(conv, randn(2, 1, 32, 32))[0].shape == (2, 6, 28, 28)
    assert [n for n, _ in conv.parameters_and_names()] == ["weight"]
    assert repr(conv).startswith("Conv2d(input_channels=1, output_channels=6, kernel_size=(5, 5), stride=(1, 1), "
                                 "pad_mode=valid, padding=0, dilation=(1, 1), group=1, has_bias=False")
    mslab.set_seed(0)
    default = nn.Conv2d(2, 3, 3, has_bias=True)
    bound = 1 / math.sqrt(2 * 9)
    assert np.abs(default.weight.asnumpy()).max() <= bound + 1e-7
    assert np.abs(default.bias.asnumpy()).max() <= bound + 1e-7
    with pytest.raises(ValueError, match="pad_mode='pad'"):
        nn.Conv2d(1, 2, 3, padding=1)
    with pytest.raises(ValueError, match="pad_mode"):
        nn.Conv2d(1, 2, 3, pad_mode="full")
    with pytest.raises(ValueError, match="weight_init shape"):
        nn.Conv2d(1, 2, 3, weight_init=Tensor(np.ones((2, 1, 5, 5), np.float32)))


def test_conv2d_gradients_wrt_input_and_weights():
    conv = nn.Conv2d(2, 2, 3, stride=1, pad_mode="same", has_bias=True,
                     weight_init=Tensor(randn(2, 2, 3, 3, dtype=np.float64)),
                     bias_init=Tensor(randn(2, dtype=np.float64)))
    fn, (w, b) = with_weights(conv, ["weight", "bias"])
    check_grad(fn, randn(1, 2, 4, 4, dtype=np.float64), w, b)
    strided = nn.Conv2d(1, 2, 2, stride=2, pad_mode="valid", weight_init=Tensor(randn(2, 1, 2, 2, dtype=np.float64)))
    fn, (w,) = with_weights(strided)
    check_grad(fn, randn(1, 1, 5, 5, dtype=np.float64), w)


# ---- pooling -------------------------------------------------------------------------------------------
def pool_ref(x, k, s, reduce):
    n, c, h, w = x.shape
    oh, ow = (h - k) // s + 1, (w - k) // s + 1
    out = np.zeros((n, c, oh, ow), x.dtype)
    for i in range(oh):
        for j in range(ow):
            out[:, :, i, j] = reduce(x[:, :, i * s:i * s + k, j * s:j * s + k], axis=(2, 3))
    return out


def test_pooling_shapes_values_and_repr():
    x = randn(2, 3, 6, 6)
    mp = nn.MaxPool2d(kernel_size=2, stride=2)
    np.testing.assert_array_equal(modes(mp, x)[0], pool_ref(x, 2, 2, np.max))
    ap = nn.AvgPool2d(kernel_size=3, stride=1)
    np.testing.assert_allclose(modes(ap, x)[0], pool_ref(x, 3, 1, np.mean), rtol=1e-5, atol=1e-6)
    assert modes(nn.MaxPool2d(), x)[0].shape == x.shape  # MindSpore's defaults: kernel 1, stride 1
    assert modes(nn.MaxPool2d(3, 2, pad_mode="same"), x)[0].shape == (2, 3, 3, 3)
    assert modes(nn.AvgPool2d(2, 2, pad_mode="SAME"), randn(1, 1, 5, 5))[0].shape == (1, 1, 3, 3)
    assert repr(mp) == "MaxPool2d(kernel_size=2, stride=2, pad_mode=VALID)"
    with pytest.raises(ValueError, match=r"\(N, C, H, W\)"):
        mp(Tensor(randn(3, 6, 6)))


def test_pooling_gradients():
    x = RNG.permutation(2 * 2 * 4 * 4).reshape(2, 2, 4, 4).astype(np.float64) / 7  # distinct: no max ties
    check_grad(lambda t: nn.MaxPool2d(2, 2)(t), x)
    check_grad(lambda t: nn.AvgPool2d(2, 1)(t), randn(1, 2, 3, 3, dtype=np.float64))


# ---- BatchNorm -------------------------------------------------------------------------------------------
def test_batchnorm_moving_variance_is_unbiased_as_observed():
    bn = nn.BatchNorm1d(2)
    bn.set_train(True)
    bn(Tensor(np.array([[1.0, 2.0], [3.0, 6.0], [5.0, 10.0]], np.float32)))
    # observed on MindSpore 2.10 CPU (PYNATIVE): moving_mean [0.3 0.6], moving_variance [1.3 2.5]
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), [0.3, 0.6], rtol=1e-6)
    np.testing.assert_allclose(bn.moving_variance.asnumpy(), [1.3, 2.5], rtol=1e-6)


def bn_ref(x, gamma, beta, mean, var, eps=1e-5):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) * gamma.reshape(shape) + beta.reshape(shape)


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
@pytest.mark.parametrize("cls,shape", [(nn.BatchNorm2d, (4, 3, 2, 2)), (nn.BatchNorm1d, (6, 3)),
                                       (nn.BatchNorm1d, (4, 3, 5))])
def test_batchnorm_train_and_eval(mode, cls, shape):
    context.set_context(mode=mode)
    bn = cls(3, gamma_init=Tensor(np.array([1.0, 2.0, 0.5], np.float32)),
             beta_init=Tensor(np.array([0.0, 1.0, -1.0], np.float32)))
    gamma, beta = bn.gamma.asnumpy(), bn.beta.asnumpy()
    axes = (0,) + tuple(range(2, len(shape)))
    x = randn(*shape) * 2 + 1
    # eval (the default): moving statistics 0 and 1
    out = bn(Tensor(x)).asnumpy()
    np.testing.assert_allclose(out, bn_ref(x, gamma, beta, np.zeros(3), np.ones(3)), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), np.zeros(3))
    # train: batch statistics, moving averages updated in place
    bn.set_train()
    mean, var, uvar = x.mean(axis=axes), x.var(axis=axes), x.var(axis=axes, ddof=1)
    out = bn(Tensor(x)).asnumpy()
    np.testing.assert_allclose(out, bn_ref(x, gamma, beta, mean, var), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), 0.1 * mean, rtol=1e-5, atol=1e-6)
    # the moving variance takes the unbiased batch variance (MindSpore)
    np.testing.assert_allclose(bn.moving_variance.asnumpy(), 0.9 + 0.1 * uvar, rtol=1e-5, atol=1e-6)
    x2 = randn(*shape)
    bn(Tensor(x2))  # the second call reads the updated moving statistics
    mm = 0.9 * 0.1 * mean + 0.1 * x2.mean(axis=axes)
    mv = 0.9 * (0.9 + 0.1 * uvar) + 0.1 * x2.var(axis=axes, ddof=1)
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), mm, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(bn.moving_variance.asnumpy(), mv, rtol=1e-5, atol=1e-6)
    # eval again: the moving statistics, no update
    bn.set_train(False)
    out = bn(Tensor(x)).asnumpy()
    np.testing.assert_allclose(out, bn_ref(x, gamma, beta, mm, mv), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), mm, rtol=1e-5, atol=1e-6)


def test_batchnorm_modes_agree_and_params():
    bn = nn.BatchNorm2d(3, momentum=0.5)
    # observed on MindSpore 2.10 CPU: ['mean', 'variance', 'gamma', 'beta'] standalone
    assert [(p.name, p.requires_grad) for p in bn.get_parameters()] == [
        ("mean", False), ("variance", False), ("gamma", True), ("beta", True)]
    x = randn(2, 3, 2, 2)
    modes(bn, x)
    bn.set_train()
    modes(bn, x)  # outputs agree (the moving stats are updated twice, once per mode)
    net = nn.SequentialCell([nn.Conv2d(1, 3, 3), nn.BatchNorm2d(3)])
    assert [p.name for p in net.get_parameters()] == ["0.weight", "1.moving_mean", "1.moving_variance",
                                                      "1.gamma", "1.beta"]
    fixed = nn.BatchNorm1d(3, use_batch_statistics=False).set_train()
    np.testing.assert_allclose(fixed(Tensor(x[:, :, 0, 0])).asnumpy(), x[:, :, 0, 0] / np.sqrt(1 + 1e-5), rtol=1e-6)
    with pytest.raises(ValueError, match="3 channels"):
        bn(Tensor(randn(2, 4, 2, 2)))
    assert repr(nn.BatchNorm1d(2)).startswith("BatchNorm1d(num_features=2, eps=1e-05, momentum=0.9, gamma=Parameter ("
                                              "name=gamma")


@pytest.mark.parametrize("training", [True, False])
def test_batchnorm_gradients(training):
    bn = nn.BatchNorm2d(2, gamma_init=Tensor(np.array([1.5, 0.5])), beta_init=Tensor(np.array([0.1, -0.2])),
                        moving_mean_init=Tensor(np.array([0.3, -0.1])), moving_var_init=Tensor(np.array([2.0, 0.5])))
    bn.set_train(training)
    fn, (g, b) = with_weights(bn, ["gamma", "beta"])
    check_grad(fn, randn(3, 2, 2, 2, dtype=np.float64), g, b, rtol=1e-4, atol=1e-6)
    bn1 = nn.BatchNorm1d(3, gamma_init=Tensor(np.array([1.0, 2.0, 0.5])), beta_init=Tensor(np.zeros(3)))
    bn1.set_train(training)
    fn, (g, b) = with_weights(bn1, ["gamma", "beta"])
    check_grad(fn, randn(4, 3, dtype=np.float64), g, b, rtol=1e-4, atol=1e-6)


def test_layer_import_paths():
    from mslab.nn import layer
    from mslab.nn.layer import Conv2d, Dense

    assert Dense is nn.Dense and Conv2d is nn.Conv2d and layer.BatchNorm2d is nn.BatchNorm2d


# ---- ClipByNorm ----------------------------------------------------------------------------------------
def test_clip_by_norm():
    clip = nn.ClipByNorm()
    x = randn(3, 4)
    norm = np.sqrt((x.astype(np.float64) ** 2).sum())
    c = np.array([1.0], np.float32)
    out = check_modes(lambda a, b: clip(a, b), Tensor(x), Tensor(c))[0]
    np.testing.assert_allclose(out, x * 1.0 / max(norm, 1.0), rtol=1e-5)
    np.testing.assert_allclose(np.sqrt((out.astype(np.float64) ** 2).sum()), 1.0, rtol=1e-5)
    big = Tensor(np.array([100.0], np.float32))
    np.testing.assert_allclose(clip(Tensor(x), big).asnumpy(), x, rtol=1e-5)  # already short enough
    np.testing.assert_array_equal(clip(Tensor(np.zeros((2, 2), np.float32)), Tensor(c)).asnumpy(), np.zeros((2, 2)))
    rows = nn.ClipByNorm(axis=1)(Tensor(x), Tensor(c)).asnumpy()
    np.testing.assert_allclose(rows, x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1.0), rtol=1e-5)
    check_grad(lambda a: nn.ClipByNorm()(a, 0.5), randn(2, 3, dtype=np.float64))


def test_dense_holds_its_primitives_as_mindspore():
    # observed on MindSpore 2.10 CPU: nn.Dense(3, 4).matmul is a MatMul with transpose_b=True, .bias_add a BiasAdd
    d = nn.Dense(3, 4)
    assert type(d.matmul).__name__ == "MatMul" and d.matmul.transpose_b is True
    assert type(d.bias_add).__name__ == "BiasAdd"
