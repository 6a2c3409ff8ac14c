"""issue 19 nn names used in 3-4 public files: Norm, MaxPool1d, DiceLoss, InstanceNorm2d (not on CPU) and
nn.optim.optimizer.opt_init_args_register, against MindSpore 2.10 CPU (docs/mindspore_observed/nnlayers.md)."""
import numpy as np
import pytest

import mslab as ms
from mslab import nn
from mslab.common.tensor import Parameter, Tensor
from mslab.nn.optim.optimizer import opt_init_args_register
from mslab.testing import check_grad, check_modes

X = Tensor(np.array([[[3.0, -4.0, 1.0], [0.0, 2.0, -2.0]]], np.float32))
X1 = Tensor(np.sin(np.arange(2 * 3 * 7, dtype=np.float32)).reshape(2, 3, 7))


@pytest.mark.parametrize("kwargs,text,shape,values", [  # observed on MindSpore 2.10 CPU
    (dict(), "Norm(axis=(), keep_dims=False)", (), 5.8309517),
    (dict(axis=1), "Norm(axis=1, keep_dims=False)", (1, 3), [[3.0, 4.472136, 2.236068]]),
    (dict(axis=(0, 2), keep_dims=True), "Norm(axis=(0, 2), keep_dims=True)", (1, 2, 1), [[[5.0990195], [2.828427]]]),
    (dict(axis=-1), "Norm(axis=-1, keep_dims=False)", (1, 2), [[5.0990195, 2.828427]]),
])
def test_norm(kwargs, text, shape, values):
    n = nn.Norm(**kwargs)
    assert repr(n) == text and n(X).shape == shape
    np.testing.assert_allclose(n(X).asnumpy(), values, rtol=1e-6)
    check_modes(n, X)


def test_norm_gradient():
    g = ms.grad(lambda a: nn.Norm(axis=2)(a).sum())(X)
    np.testing.assert_allclose(g.asnumpy(), [[[0.5883484, -0.78446454, 0.19611613],  # MindSpore 2.10 CPU
                                              [0.0, 0.70710677, -0.70710677]]], rtol=1e-6)
    check_grad(nn.Norm(axis=(0, 2)), X.asnumpy())


@pytest.mark.parametrize("kwargs,text,shape,row", [  # observed on MindSpore 2.10 CPU
    (dict(kernel_size=3, stride=2), "MaxPool1d(kernel_size=(1, 3), stride=(1, 2), pad_mode=VALID)", (2, 3, 3),
     [-0.42818266, 0.96379536, 0.96379536]),
    (dict(kernel_size=2, stride=2, pad_mode="same"), "MaxPool1d(kernel_size=(1, 2), stride=(1, 2), pad_mode=SAME)",
     (2, 3, 4), [-0.42818266, 0.29636857, 0.96379536, -0.15862267]),
    (dict(kernel_size=3, stride=1, pad_mode="same"), "MaxPool1d(kernel_size=(1, 3), stride=(1, 1), pad_mode=SAME)",
     (2, 3, 7), [-0.42818266, -0.42818266, 0.29636857, 0.96379536, 0.96379536, 0.96379536, 0.7451132]),
])
def test_max_pool1d(kwargs, text, shape, row):
    m = nn.MaxPool1d(**kwargs)
    assert repr(m) == text and m(X1).shape == shape
    np.testing.assert_allclose(m(X1).asnumpy()[1, 2], row, rtol=1e-6)
    check_modes(m, X1)


def test_max_pool1d_unbatched_gradient_and_errors():
    assert nn.MaxPool1d(2, 2)(Tensor(np.arange(6, dtype=np.float32).reshape(1, 6))).asnumpy().tolist() == [[1, 3, 5]]
    g = ms.grad(lambda a: (nn.MaxPool1d(3, 2)(a) ** 2).sum())(X1)
    np.testing.assert_allclose(g.asnumpy()[0, 0], [0, 0, 3.6371896, 0, 0, 0, -0.558831], rtol=1e-6)  # MindSpore
    with pytest.raises(ValueError, match="can not be set to non-default value when pad_mode is not 'pad'"):
        nn.MaxPool1d(2, 2, padding=1)
    with pytest.raises(ValueError, match="not implemented in mslab"):
        nn.MaxPool1d(2, 2, pad_mode="pad")


P_ = Tensor(np.array([[0.1, 0.9], [0.7, 0.2]], np.float32))
L_ = Tensor(np.array([[0.0, 1.0], [1.0, 0.0]], np.float32))


def test_dice_loss():
    d = nn.DiceLoss(smooth=1e-5)  # observed on MindSpore 2.10 CPU
    np.testing.assert_allclose(float(d(P_, L_)), 0.044779003, rtol=1e-5)
    np.testing.assert_allclose(float(nn.DiceLoss()(P_, P_)), 3.695488e-06, rtol=1e-3)
    np.testing.assert_allclose(ms.grad(lambda a: d(a, L_))(P_).asnumpy(),
                               [[0.05702795, -0.08376163], [-0.19781753, 0.11405589]], rtol=1e-5)
    with pytest.raises(ValueError, match=r"the 'logits_shape' should be = label_shape: \(2, 3\), but got \(2, 2\)"):
        d(P_, Tensor(np.ones((2, 3), np.float32)))
    check_grad(lambda a: nn.DiceLoss()(a, L_), P_.asnumpy())
    check_modes(d, P_, L_)


def test_instance_norm2d_builds_but_cannot_run_on_cpu():
    inn = nn.InstanceNorm2d(2)
    assert [p.name for p in inn.get_parameters()] == ["mean", "variance", "gamma", "beta"]
    with pytest.raises(RuntimeError, match=r"Unsupported op \[InstanceNorm\] on CPU"):  # MindSpore 2.10 CPU
        inn(Tensor(np.ones((2, 2, 2, 3), np.float32)))


class MyOpt(nn.Optimizer):
    @opt_init_args_register
    def __init__(self, params, learning_rate=0.1, momentum=0.9, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        self.momentum = momentum

    def construct(self, grads):
        return grads


def test_opt_init_args_register():
    w = Parameter(Tensor(np.ones(2, np.float32)), name="w")
    o = MyOpt([w], learning_rate=Tensor(np.array(0.5, np.float32)))  # observed on MindSpore 2.10 CPU
    assert o.init_params == {"params": [w]} and o.init_learning_rate == 0.5
    assert o.init_args == {"momentum": 0.9, "weight_decay": 0.0}
    o = MyOpt([w], momentum=0.5)
    assert o.init_params["params"][0].name == "w" and o.init_learning_rate == 0.1
    assert o.init_args == {"momentum": 0.5, "weight_decay": 0.0} and o.momentum == 0.5


def test_lstm_cell():
    cell = nn.LSTMCell(3, 2)
    assert [(p.name, p.shape) for p in cell.get_parameters()] == [  # observed on MindSpore 2.10 CPU
        ("weight_ih", (8, 3)), ("weight_hh", (8, 2)), ("bias_ih", (8,)), ("bias_hh", (8,))]
    for i, p in enumerate(cell.get_parameters()):
        p.set_data(Tensor(np.cos(np.arange(np.prod(p.shape), dtype=np.float32) + i).reshape(p.shape) / 2))
    x = Tensor(np.sin(np.arange(6, dtype=np.float32)).reshape(2, 3))
    h = Tensor(np.array([[0.1, -0.2], [0.3, 0.0]], np.float32))
    c = Tensor(np.array([[0.5, 0.5], [-1.0, 0.2]], np.float32))
    hy, cy = cell(x, (h, c))  # observed on MindSpore 2.10 CPU
    np.testing.assert_allclose(hy.asnumpy(), [[0.26635164, 0.03781585], [-0.08293365, 0.12639911]], rtol=1e-5)
    np.testing.assert_allclose(cy.asnumpy(), [[0.55757827, 0.20688927], [-0.29865554, 0.32476228]], rtol=1e-5)
    (gx, gh), gw = ms.grad(lambda a, hh, cc: (cell(a, (hh, cc))[0] * cell(a, (hh, cc))[1]).sum(), (0, 1),
                           cell.trainable_params())(x, h, c)
    np.testing.assert_allclose(gx.asnumpy(), [[0.10727962, 0.08793206, -0.01225983],
                                              [-0.04590981, -0.04969018, -0.00778563]], rtol=1e-5)
    np.testing.assert_allclose(gh.asnumpy(), [[0.05105141, 0.00213092], [0.01232034, 0.03925287]], rtol=1e-5)
    np.testing.assert_allclose(gw[0].asnumpy()[:2], [[-0.00186879, 0.09141136, 0.10064833],
                                                     [0.00442669, -0.02750462, -0.03414831]], rtol=1e-5)
    assert [p.name for p in nn.LSTMCell(3, 2, has_bias=False).get_parameters()] == ["weight_ih", "weight_hh"]
    with pytest.raises(TypeError, match="the length of 'hx' must be '2', but got '1'"):
        cell(x, (h,))
    check_modes(lambda a, hh, cc: cell(a, (hh, cc)), x, h, c)


def test_unfold_builds_but_cannot_run_on_cpu():
    u = nn.Unfold(ksizes=[1, 2, 2, 1], strides=[1, 2, 2, 1], rates=[1, 1, 1, 1])
    with pytest.raises(RuntimeError, match=r"Unsupported op \[ExtractImagePatches\] on CPU"):  # MindSpore 2.10 CPU
        u(Tensor(np.ones((1, 2, 4, 4), np.float32)))
    with pytest.raises(ValueError, match=r"the format of 'ksizes' must be \[1, ksize_row, ksize_col, 1\]"):
        nn.Unfold(ksizes=[2, 2], strides=[1, 2, 2, 1], rates=[1, 1, 1, 1])


def _gru(**kwargs):
    g = nn.GRU(3, 2, **kwargs)
    for i, p in enumerate(g.get_parameters()):
        p.set_data(Tensor(np.cos(np.arange(np.prod(p.shape), dtype=np.float32) * 0.7 + i).reshape(p.shape) / 2))
    return g


XS = Tensor(np.sin(np.arange(2 * 4 * 3, dtype=np.float32)).reshape(2, 4, 3))


def test_gru_one_layer():
    g = _gru()
    assert [(p.name, p.shape) for p in g.get_parameters()] == [  # observed on MindSpore 2.10 CPU
        ("weight_ih_l0", (6, 3)), ("weight_hh_l0", (6, 2)), ("bias_ih_l0", (6,)), ("bias_hh_l0", (6,))]
    out, hn = g(XS)
    assert out.shape == (2, 4, 2) and hn.shape == (1, 4, 2)
    last = [[-0.31871104, 0.5360849], [0.61528015, 0.00304678], [-0.19220361, 0.5802059], [0.48930433, -0.01227165]]
    np.testing.assert_allclose(out.asnumpy()[1], last, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(hn.asnumpy()[0], last, rtol=1e-5, atol=1e-6)
    gx = ms.grad(lambda a: (g(a)[0] ** 2).sum() + g(a)[1].sum())(XS)
    np.testing.assert_allclose(gx.asnumpy()[0], [[-0.1551002, -0.00050696, 0.1543247],
                                                 [-0.19635502, -0.28541, -0.24023207],
                                                 [-0.20239069, -0.05042566, 0.12525533],
                                                 [-0.20463958, -0.3229143, -0.2893173]], rtol=1e-5, atol=1e-6)
    _, hn = g(XS, Tensor(np.array([[[0.3, -0.3]] * 4], np.float32)))
    np.testing.assert_allclose(hn.asnumpy()[0], [[-0.2486079, 0.47126037], [0.63934803, -0.03989067],
                                                 [-0.11708704, 0.52723604], [0.5141988, -0.07008901]], rtol=1e-5)
    assert [p.name for p in nn.GRU(3, 2, has_bias=False).get_parameters()] == ["weight_ih_l0", "weight_hh_l0"]
    check_modes(g, XS)


def test_gru_two_layers_bidirectional_batch_first():
    g = _gru(num_layers=2, bidirectional=True, batch_first=True)
    assert [p.name for p in g.get_parameters()][:4] == ["weight_ih_l0", "weight_ih_l0_reverse", "weight_ih_l1",
                                                        "weight_ih_l1_reverse"]
    out, hn = g(XS)
    assert out.shape == (2, 4, 4) and hn.shape == (4, 2, 2)  # observed on MindSpore 2.10 CPU
    np.testing.assert_allclose(out.asnumpy()[1], [[0.0333286, 0.21870348, 0.04314634, 0.20584905],
                                                  [0.20537385, 0.33073875, 0.1650453, 0.09889384],
                                                  [0.20954762, 0.42565724, 0.06489216, 0.11888105],
                                                  [0.33587232, 0.456325, 0.15728539, -0.01614513]],
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(hn.asnumpy()[:, 1], [[-0.14222634, -0.1309953], [0.08166785, 0.58797246],
                                                    [0.33587232, 0.456325], [0.04314634, 0.20584905]], rtol=1e-5)
    gx = ms.grad(lambda a: (g(a)[0] ** 2).sum() + g(a)[1].sum())(XS)
    np.testing.assert_allclose(gx.asnumpy()[0, 0], [-0.05963169, 0.03005666, 0.10560898], rtol=1e-5, atol=1e-6)
    g64 = _gru(num_layers=2, bidirectional=True, batch_first=True, dtype=ms.float64)
    check_grad(lambda a: g64(a), XS.asnumpy())


def test_tril():
    x = Tensor(np.arange(1, 13, dtype=np.float32).reshape(3, 4))
    t = nn.Tril()  # observed on MindSpore 2.10 CPU
    assert t(x).asnumpy().tolist() == [[1, 0, 0, 0], [5, 6, 0, 0], [9, 10, 11, 0]]
    assert t(x, 1).asnumpy().tolist() == [[1, 2, 0, 0], [5, 6, 7, 0], [9, 10, 11, 12]]
    assert t(x, -1).asnumpy().tolist() == [[0, 0, 0, 0], [5, 0, 0, 0], [9, 10, 0, 0]]
    r = t(Tensor(np.arange(8, dtype=np.int32).reshape(2, 2, 2)))
    assert r.dtype == ms.int32 and r.asnumpy().tolist() == [[[0, 0], [2, 3]], [[4, 0], [6, 7]]]
    g = ms.grad(lambda a: (t(a) * a).sum())(x)
    assert g.asnumpy().tolist() == [[2, 0, 0, 0], [10, 12, 0, 0], [18, 20, 22, 0]]
    check_modes(t, x)


def test_moments():
    y = Tensor(np.array([[1.0, 2.0, 4.0], [3.0, 5.0, 10.0]], np.float32))
    mean, var = nn.Moments(axis=1)(y)  # observed on MindSpore 2.10 CPU
    np.testing.assert_allclose(mean.asnumpy(), [2.33333325, 6.0], rtol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), [1.5555557, 8.666667], rtol=1e-6)
    mean, var = nn.Moments(axis=(0, 1), keep_dims=True)(y)
    assert mean.shape == (1, 1) and abs(float(var.asnumpy()[0, 0]) - 8.47222233) < 1e-5
    mean, var = nn.Moments()(y)
    assert mean.shape == () and abs(float(mean) - 4.16666651) < 1e-6
    mean, var = nn.Moments(axis=0)(Tensor(np.array([[1.0, 2.0], [3.0, 5.0]], np.float16)))
    assert var.dtype == ms.float16 and var.asnumpy().tolist() == [1.0, 2.25] and mean.asnumpy().tolist() == [2, 3.5]
    g = ms.grad(lambda a: nn.Moments(axis=1)(a)[1].sum())(y)  # the mean is held constant (stop_gradient)
    np.testing.assert_allclose(g.asnumpy(), [[-0.88888884, -0.22222218, 1.1111112],
                                             [-2.0, -0.6666667, 2.6666667]], rtol=1e-5)
    with pytest.raises(TypeError, match=r"should be one of \[mindspore.float16, mindspore.float32\], but got "
                                        r"'mindspore.int32'"):
        nn.Moments(axis=1)(Tensor(np.ones((2, 2), np.int32)))
    check_modes(nn.Moments(axis=1), y)


def test_module_paths_of_learning_rates():
    from mslab.nn.dynamic_lr import piecewise_constant_lr
    from mslab.nn.learning_rate_schedule import LearningRateSchedule, WarmUpLR

    assert piecewise_constant_lr is nn.piecewise_constant_lr and WarmUpLR is nn.WarmUpLR
    assert LearningRateSchedule is nn.learning_rate_schedule.LearningRateSchedule


XP = Tensor(np.sin(np.arange(2 * 3 * 5 * 7, dtype=np.float32)).reshape(2, 3, 5, 7))


@pytest.mark.parametrize("size,shape,plane", [  # y[1, 2], observed on MindSpore 2.10 CPU
    (1, (2, 3, 1, 1), [[0.02063703]]),
    ((2, 3), (2, 3, 2, 3), [[0.41085744, 0.20095362, -0.57810986], [0.4613684, -0.51122284, -0.03588086]]),
    (3, (2, 3, 3, 3), [[0.27028188, 0.4245115, -0.62360007], [0.5784741, -0.20577548, -0.40720844],
                       [0.34604833, -0.6437532, 0.1897434]]),
    ((None, 2), (2, 3, 5, 2), [[0.2561957, -0.19732663], [0.45527625, -0.43202436], [0.43027186, -0.45408165],
                               [0.19348963, -0.25264198], [-0.13852733, 0.0731469]]),
    ((4, 4), (2, 3, 4, 4), [[-0.05812074, 0.6429672, -0.18423817, -0.8025747],
                            [0.49475414, 0.5449426, -0.54805917, -0.4889066],
                            [0.80411327, 0.17869966, -0.64212793, 0.06539913],
                            [0.7176915, -0.27549845, -0.42014423, 0.58751565]]),
])
def test_adaptive_avg_pool2d(size, shape, plane):
    p = nn.AdaptiveAvgPool2d(size)
    y = p(XP)
    assert repr(p) == "AdaptiveAvgPool2d()" and y.shape == shape
    np.testing.assert_allclose(y.asnumpy()[1, 2], plane, rtol=1e-5, atol=1e-7)
    check_modes(p, XP)


def test_adaptive_avg_pool2d_gradient_and_ranks():
    p = nn.AdaptiveAvgPool2d((2, 3))
    assert p(Tensor(np.arange(35, dtype=np.float32).reshape(1, 5, 7))).shape == (1, 2, 3)
    np.testing.assert_array_equal(nn.AdaptiveAvgPool2d((5, 7))(XP).asnumpy(), XP.asnumpy())
    g = ms.grad(lambda a: (p(a) ** 2).sum())(XP)  # observed on MindSpore 2.10 CPU
    np.testing.assert_allclose(g.asnumpy()[0, 0, 2], [0.12632197, 0.12632197, -0.06043476, -0.18675673, -0.15764226,
                                                      0.02911446, 0.02911446], rtol=1e-5, atol=1e-7)
    check_grad(p, XP.asnumpy()[:1, :1])
    with pytest.raises(ValueError, match=r"the dim of x must be in \[3,4\], but got 1"):
        p(Tensor(np.ones(4, np.float32)))


XB = Tensor(np.sin(np.arange(2 * 3 * 2 * 2, dtype=np.float32)).reshape(2, 3, 2, 2))


def test_sync_batch_norm_in_one_process():
    s = nn.SyncBatchNorm(3, momentum=0.5)
    assert [p.name for p in s.get_parameters()] == ["mean", "variance", "gamma", "beta"]
    s.set_train()
    y = s(XB)  # observed on MindSpore 2.10 CPU
    np.testing.assert_allclose(y.asnumpy()[1, 2], [[1.0772302, 0.9768799], [-0.13528834, -1.2367522]], rtol=1e-5)
    np.testing.assert_allclose(s.moving_mean.asnumpy(), [0.21352361, -0.1992854, 0.04699967], rtol=1e-5)
    np.testing.assert_allclose(s.moving_variance.asnumpy(), [0.6403203, 0.6660528, 0.8302538], rtol=1e-5)
    s.set_train(False)
    np.testing.assert_allclose(s(XB).asnumpy()[0, 1], [[-0.6831257, -0.93078554], [-0.09818339, 1.04919]], rtol=1e-5)
    t = nn.SyncBatchNorm(3)
    t.set_train()
    np.testing.assert_allclose(t(Tensor(np.cos(np.arange(12, dtype=np.float32)).reshape(4, 3))).asnumpy()[0],
                               [1.0200908, 0.83811444, -1.3741914], rtol=1e-5)
    with pytest.raises(ValueError, match="rank 2 or 4"):  # MindSpore: ValueError, must have 2 dims or 4 dims
        t(Tensor(np.ones((2, 3, 4), np.float32)))


def test_conv2d_bn_act():
    c = nn.Conv2dBnAct(3, 2, 1, has_bn=True, activation="relu", weight_init="ones")
    assert [p.name for p in c.get_parameters()] == ["conv.weight", "batchnorm.moving_mean",  # MindSpore 2.10
                                                    "batchnorm.moving_variance", "batchnorm.gamma", "batchnorm.beta"]
    assert repr(c).startswith("Conv2dBnAct(\n  (conv): Conv2d(input_channels=3, output_channels=2")
    assert "(activation): ReLU()" in repr(c) and "momentum=0.997" in repr(c)
    c.set_train()
    np.testing.assert_allclose(c(XB).asnumpy()[1, 0], [[0.0, 1.0438867], [0.65363455, 0.0]], rtol=1e-5)
    c.set_train(False)
    np.testing.assert_allclose(c(XB).asnumpy()[1, 1], [[0.08822945, 0.2954859], [0.23073575, 0.0]], rtol=1e-5)
    assert isinstance(nn.Conv2dBnAct(3, 2, 1, activation="leakyrelu", alpha=0.1).activation, nn.LeakyReLU)
