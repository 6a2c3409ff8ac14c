"""issue 19 nn names: CellList under nn.layer, Identity, OneHot, Range, MatMul, MAELoss, _Loss, PReLU, HSwish,
GroupNorm, against numbers observed on MindSpore 2.10 CPU (docs/mindspore_observed/nnlayers.md)."""
import numpy as np
import pytest

import mslab as ms
import mslab.nn.layer as L
from mslab import nn, ops
from mslab.common.tensor import Tensor
from mslab.nn.layer.activation import _activation
from mslab.nn.loss.loss import _Loss
from mslab.testing import check_grad, check_modes


def T(a, dtype=np.float32):
    return Tensor(np.array(a, dtype))


def test_layer_import_paths():
    assert L.CellList is nn.CellList and L.SequentialCell is nn.SequentialCell
    assert {"prelu", "hswish", "relu"} <= set(_activation.keys())


def test_identity_and_one_hot():
    t = T([1.5, 2.0])
    idn = nn.Identity(3, foo=1)
    assert idn(t) is t and repr(idn) == "Identity()"
    r = nn.OneHot(depth=4)(T([1, 3, 0], np.int32))
    assert r.dtype == ms.float32 and r.asnumpy().tolist() == [[0, 1, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0]]
    r = nn.OneHot(axis=0, depth=3, on_value=5.0, off_value=-1.0, dtype=ms.float16)(T([[0, 2], [1, -1]], np.int32))
    assert r.dtype == ms.float16 and r.shape == (3, 2, 2)  # observed on MindSpore 2.10 CPU
    assert r.asnumpy().tolist() == [[[5, -1], [-1, -1]], [[-1, -1], [5, -1]], [[-1, 5], [-1, -1]]]


@pytest.mark.parametrize("args,values,dtype", [  # observed on MindSpore 2.10 CPU
    ((5,), [0, 1, 2, 3, 4], ms.int32), ((0, 5, 2), [0, 2, 4], ms.int32), ((1.0, 3, 0.5), [1, 1.5, 2, 2.5], ms.float32),
    ((5, 0, -2), [5, 3, 1], ms.int32), ((0.5,), [0.0], ms.float32)])
def test_range(args, values, dtype):
    r = nn.Range(*args)()
    assert r.dtype == dtype and r.asnumpy().tolist() == values
    with pytest.raises(ValueError, match="For 'Range', the 'delta' can not be zero."):
        nn.Range(0, 5, 0)


def test_matmul():
    a = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    b = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) - 5)
    mm = nn.MatMul()  # observed on MindSpore 2.10 CPU
    assert mm(a, b).asnumpy().tolist() == [[5, 8, 11, 14], [-4, 8, 20, 32]]
    assert nn.MatMul(transpose_x1=True)(a, a).asnumpy().tolist() == [[9, 12, 15], [12, 17, 22], [15, 22, 29]]
    big = nn.MatMul(transpose_x2=True)(Tensor(np.ones((2, 1, 2, 3), np.float32)),
                                       Tensor(np.arange(36, dtype=np.float32).reshape(3, 4, 3)))
    assert big.shape == (2, 3, 2, 4)
    v = T([1, 2, 3])
    assert mm(v, T([4, 5, 6])).shape == () and float(mm(v, T([4, 5, 6]))) == 32.0
    assert mm(v, b).asnumpy().tolist() == [2, 8, 14, 20] and mm(a, v).asnumpy().tolist() == [8, 26]
    with pytest.raises(ValueError, match="'x1_col' 3 and 'x2_row' 2"):
        mm(a, a)
    check_modes(nn.MatMul(transpose_x2=True), a, a)


P_, L_ = T([[1, 2, 3], [2, 3, 4]]), T([[0, 2, 5], [1, 1, 1]])


class WeightedLoss(_Loss):
    """A user's loss written against the old base class: get_loss(x, weights) with the reduction."""

    def construct(self, x, y):
        return self.get_loss(ops.abs(x - y), T([1, 2, 3]))


def test_mae_loss_and_old_loss_base():
    # observed on MindSpore 2.10 CPU
    assert float(nn.MAELoss()(P_, L_)) == 1.5 and float(nn.MAELoss("sum")(P_, L_)) == 9.0
    assert nn.MAELoss("none")(P_, L_).asnumpy().tolist() == [[1, 0, 2], [1, 2, 3]]
    assert repr(nn.MAELoss()) == "MAELoss()"
    assert float(WeightedLoss()(P_, L_)) == 3.5 and float(WeightedLoss("sum")(P_, L_)) == 21.0
    assert WeightedLoss("none")(P_, L_).asnumpy().tolist() == [[1, 0, 6], [1, 4, 9]]
    assert issubclass(_Loss, nn.LossBase) and _Loss().reduce and _Loss().average
    with pytest.raises(NotImplementedError):
        _Loss()(P_, L_)
    check_modes(WeightedLoss(), P_, L_)


X = Tensor(np.sin(np.arange(2 * 3 * 2 * 2, dtype=np.float32)).reshape(2, 3, 2, 2))
DOUT = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2))


def test_prelu_values_and_gradients():
    p = nn.PReLU(3, [0.1, 0.2, 0.3])
    assert [(q.name, q.shape, q.requires_grad) for q in p.get_parameters()] == [("a", (3,), True)]
    np.testing.assert_allclose(p(X).asnumpy()[1], [  # observed on MindSpore 2.10 CPU
        [[-0.05365729, 0.42016706], [0.9906074, 0.65028787]], [[-0.05758067, -0.1922795], [-0.15019745, 0.1498772]],
        [[0.9129453, 0.8366556], [-0.00265539, -0.25386614]]], rtol=1e-6, atol=1e-8)
    gx, (gw,) = ms.grad(lambda a: (p(a) * DOUT).sum(), 0, p.trainable_params())(X)
    np.testing.assert_allclose(gx.asnumpy()[1], [[[1.2, 13], [14, 15]], [[3.2, 3.4], [3.6000001, 19]],
                                                 [[20, 21], [6.6000004, 6.9]]], rtol=1e-6)
    np.testing.assert_allclose(gw.asnumpy(), [-6.43887520, -43.9663048, -36.0979004], rtol=1e-6)
    # at x = 0 the gradient is w (observed on MindSpore 2.10 CPU)
    zeros = Tensor(np.zeros((1, 3, 1, 1), np.float32))
    np.testing.assert_allclose(ms.grad(lambda a: p(a).sum())(zeros).asnumpy().ravel(), [0.1, 0.2, 0.3], rtol=1e-6)
    p1 = nn.PReLU()
    assert p1.w.asnumpy().tolist() == [0.25]
    assert p1(T([-2.0, 0.0, 3.0])).asnumpy().tolist() == [-0.5, 0, 3]
    assert p1(T([[-2.0, 1.0], [4.0, -8.0]])).asnumpy().tolist() == [[-0.5, 1], [4, -2]]
    check_grad(lambda a: nn.PReLU(3, [0.1, 0.2, 0.3])(a), np.sin(np.arange(12.0) + 0.5).reshape(2, 3, 2))
    check_modes(p, X)
    check_modes(ms.grad(lambda a: (p(a) * DOUT).sum(), 0, p.trainable_params()), X)


@pytest.mark.parametrize("kwargs,error,match", [  # observed on MindSpore 2.10 CPU: same kinds, same words
    (dict(channel=2, w=[0.1]), ValueError, "the length of 'w' must be equal to the 'channel'"),
    (dict(w=1), TypeError, "the 'w' only supported float, list and tensor, but got int"),
    (dict(channel=0), ValueError, "'channel'"),
])
def test_prelu_errors(kwargs, error, match):
    with pytest.raises(error, match=match):
        nn.PReLU(**kwargs)
    with pytest.raises(ValueError, match="PReLU"):  # MindSpore: ValueError from the CPU kernel
        nn.PReLU(2)(X)


def test_hswish():
    y = nn.HSwish()(T([-4.0, -1.5, 0.0, 1.0, 3.5]))
    np.testing.assert_allclose(y.asnumpy(), [0.0, -0.375, 0.0, 0.6666667, 3.5], rtol=1e-6)  # MindSpore 2.10 CPU
    assert not np.signbit(y.asnumpy()[0])
    check_grad(nn.HSwish(), np.array([-4.0, -1.5, 0.5, 1.0, 3.5]))


def test_group_norm():
    g = nn.GroupNorm(2, 4)
    assert repr(g) == "GroupNorm(num_groups=2, num_channels=4)"
    assert [(q.name, q.shape) for q in g.get_parameters()] == [("gamma", (4,)), ("beta", (4,))]
    x4 = Tensor(np.cos(np.arange(2 * 4 * 3, dtype=np.float32)).reshape(2, 4, 3))
    np.testing.assert_allclose(g(x4).asnumpy()[0], [  # observed on MindSpore 2.10 CPU
        [1.4837863, 0.8274877, -0.5380102], [-1.3572749, -0.87707824, 0.46108922],
        [1.3902974, 1.1005403, -0.16290462], [-1.2384318, -1.1372066, 0.04770515]], rtol=1e-5, atol=1e-6)
    g = nn.GroupNorm(2, 4, eps=0.5, gamma_init=T([1, 2, 3, 4]), beta_init="ones")
    x5 = Tensor(np.cos(np.arange(2 * 4 * 2 * 3, dtype=np.float32)).reshape(2, 4, 2, 3))
    np.testing.assert_allclose(g(x5).asnumpy()[1, 3], [[-0.7606462, 3.0753229, 4.861495],
                                                       [2.9556718, -0.88994175, -3.1397064]], rtol=1e-5)
    gx, (gg, gb) = ms.grad(lambda a: (g(a) ** 3).sum(), 0, g.trainable_params())(x5)
    np.testing.assert_allclose(gx.asnumpy()[1, 3], [[-56.64441, 18.645842, 174.70045],
                                                    [10.939693, -53.004776, 74.81521]], rtol=1e-5)
    np.testing.assert_allclose(gg.asnumpy(), [36.015457, 74.65958, 104.72319, 142.78067], rtol=1e-5)
    np.testing.assert_allclose(gb.asnumpy(), [53.703682, 109.70186, 198.77734, 326.46198], rtol=1e-5)
    assert [q.requires_grad for q in nn.GroupNorm(1, 4, affine=False).get_parameters()] == [False, False]
    check_grad(lambda a: nn.GroupNorm(2, 4, eps=0.5, dtype=ms.float64)(a), np.cos(np.arange(24.0)).reshape(2, 4, 3))
    check_modes(g, x5)
    check_modes(ms.grad(lambda a: (g(a) ** 3).sum(), 0, g.trainable_params()), x5)


def test_group_norm_errors():  # observed on MindSpore 2.10 CPU: these kinds and words
    with pytest.raises(ValueError, match="'num_channels' must be divided by 'num_groups'"):
        nn.GroupNorm(3, 4)
    with pytest.raises(TypeError, match="the type of 'eps' should be 'float', but got type 'int'"):
        nn.GroupNorm(2, 4, 1)
    with pytest.raises(ValueError, match="num_channels=6"):  # MindSpore: ValueError from its shape inference
        nn.GroupNorm(2, 6)(Tensor(np.ones((2, 4, 3), np.float32)))


def test_lamb_builds_but_cannot_step_on_cpu():
    """MindSpore 2.10 CPU: Lamb builds; a step raises RuntimeError "Unsupported op [Lamb] on CPU", writing nothing."""
    w = ms.Parameter(T([1.0, -2.0, 3.0]), name="w")
    gamma = ms.Parameter(T([0.0, 0.0]), name="ln.gamma")
    opt = nn.Lamb([w, gamma], learning_rate=0.5, beta1=0.8, beta2=0.9, eps=1e-4, weight_decay=0.1)
    assert nn.optim.Lamb is nn.Lamb and opt.decay_flags == (True, False)
    assert [p.name for p in opt.get_parameters()] == ["global_step", "learning_rate", "w", "ln.gamma", "lamb_m.w",
                                                      "lamb_m.ln.gamma", "lamb_v.w", "lamb_v.ln.gamma"]
    with pytest.raises(RuntimeError, match=r"Unsupported op \[Lamb\] on CPU"):
        opt((T([0.1, 0.2, -0.3]), T([1.0, -1.0])))
    assert w.asnumpy().tolist() == [1, -2, 3] and opt.global_step.asnumpy().tolist() == [0]
    net = nn.Dense(3, 1)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Lamb(net.trainable_params(), 0.1))
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        try:
            with pytest.raises(RuntimeError, match=r"Unsupported op \[Lamb\] on CPU"):
                step(T([[1.0, 2.0, 3.0]]), T([[1.0]]))
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("kwargs,error,match", [  # observed on MindSpore 2.10 CPU
    (dict(beta1=1.0), ValueError, r"For 'Lamb', the 'beta1' must be in range of \(0.0, 1.0\), but got 1.0"),
    (dict(eps=0.0), ValueError, "For 'Lamb', the 'eps' must be float and must > 0"),
    (dict(beta2=1), TypeError, "For 'Lamb', the type of 'beta2' should be 'float', but got type 'int'."),
])
def test_lamb_errors(kwargs, error, match):
    with pytest.raises(error, match=match):
        nn.Lamb([ms.Parameter(T([1.0]), name="w")], 0.1, **kwargs)
