"""One training step as MindSpore runs it: one forward pass, BatchNorm's statistics, optimizer state.

Every literal below was observed on MindSpore 2.10 CPU (docs/mindspore_observed/fidelity.md, §1 and §2,
and the optimizer checks noted at each test).
"""
import numpy as np
import pytest

import mslab as ms
from mslab import Parameter, Tensor, context, nn, ops
from mslab.ops import optim_ops

MODES = [context.PYNATIVE_MODE, context.GRAPH_MODE]


@pytest.mark.parametrize("mode", MODES)
def test_one_step_advances_batchnorm_once_with_the_unbiased_variance(mode):
    context.set_context(mode=mode)
    net = nn.SequentialCell([nn.BatchNorm1d(2, momentum=0.5)])
    x = Tensor(np.array([[0, 0], [2, 4]], np.float32))
    y = Tensor(np.zeros((2, 2), np.float32))
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    train.set_train()
    loss = train(x, y)
    b = net[0]
    # observed on MindSpore 2.10 CPU (both modes)
    np.testing.assert_allclose(loss.asnumpy(), 0.9999938, rtol=1e-6)
    np.testing.assert_allclose(b.moving_mean.asnumpy(), [0.5, 1.0])
    np.testing.assert_allclose(b.moving_variance.asnumpy(), [1.5, 4.5])
    np.testing.assert_allclose(b.gamma.asnumpy(), [0.900001, 0.9000002], rtol=1e-6)
    b.set_train(False)
    np.testing.assert_allclose(net(x).asnumpy(), [[-0.36742264, -0.42426372], [1.102268, 1.2727911]], rtol=1e-5)
    assert [p.name for p in train.get_parameters()][:6] == [
        "0.gamma", "0.beta", "0.moving_mean", "0.moving_variance", "global_step", "learning_rate"]


@pytest.mark.parametrize("mode", MODES)
def test_momentum_09_weights_the_old_statistic(mode):
    context.set_context(mode=mode)
    net = nn.SequentialCell([nn.BatchNorm1d(2, momentum=0.9)])
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    train.set_train()
    train(Tensor(np.array([[0, 0], [2, 4]], np.float32)), Tensor(np.zeros((2, 2), np.float32)))
    np.testing.assert_allclose(net[0].moving_mean.asnumpy(), [0.1, 0.2], rtol=1e-6)  # observed on MindSpore 2.10
    np.testing.assert_allclose(net[0].moving_variance.asnumpy(), [1.1, 1.7], rtol=1e-6)


@pytest.mark.parametrize("mode", MODES)
def test_dropout_draws_one_mask_per_step(mode):
    """The loss returned and the gradients come from the same mask: one forward pass."""
    context.set_context(mode=mode)
    ms.set_seed(3)
    dense = nn.Dense(8, 1, weight_init="ones", bias_init="zeros")
    net = nn.SequentialCell([nn.Dropout(p=0.5), dense])
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 1.0))
    train.set_train()
    x = Tensor(np.ones((1, 8), np.float32))
    loss = float(train(x, Tensor(np.zeros((1, 1), np.float32))).asnumpy())
    kept = dense.weight.asnumpy() != 1.0  # only weights whose input survived the mask move
    # out = 2 * (number kept) (inputs scaled by 1/(1-p)); the loss is out ** 2
    assert loss == pytest.approx((2.0 * kept.sum()) ** 2)


def test_batchnorm_moving_variance_of_one_value_per_channel():
    bn = nn.BatchNorm1d(2, momentum=0.5).set_train()
    out = bn(Tensor(np.array([[1.0, 2.0]], np.float32)))
    # observed on MindSpore 2.10 CPU: [[0. 0.]] [0.5 1. ] [nan nan]
    np.testing.assert_array_equal(out.asnumpy(), [[0.0, 0.0]])
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), [0.5, 1.0])
    assert np.isnan(bn.moving_variance.asnumpy()).all()
    bn2 = nn.BatchNorm2d(2, momentum=0.5).set_train()
    bn2(Tensor(np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2)))
    np.testing.assert_allclose(bn2.moving_mean.asnumpy(), [0.75, 2.75])  # observed
    np.testing.assert_allclose(bn2.moving_variance.asnumpy(), [1.3333334, 1.3333334], rtol=1e-6)


def test_batchnorm_parameter_order_and_names():
    # observed on MindSpore 2.10 CPU
    assert [p.name for p in nn.BatchNorm1d(2).get_parameters()] == ["mean", "variance", "gamma", "beta"]
    assert [p.name for p in nn.BatchNorm1d(2).trainable_params()] == ["gamma", "beta"]
    assert [p.name for p in nn.SequentialCell([nn.Dense(2, 2), nn.BatchNorm1d(2)]).get_parameters()] == [
        "0.weight", "0.bias", "1.moving_mean", "1.moving_variance", "1.gamma", "1.beta"]


def test_optimizer_order_get_lr_and_global_step():
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    # observed on MindSpore 2.10 CPU
    assert [p.name for p in opt.get_parameters()] == [
        "global_step", "learning_rate", "weight", "bias", "momentum", "moments.weight", "moments.bias"]
    w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    assert [p.name for p in nn.Adam([w], 0.1).get_parameters()] == [  # observed on MindSpore 2.10 CPU
        "global_step", "learning_rate", "w", "beta1_power", "beta2_power", "moment1.w", "moment2.w"]
    opt.get_lr()
    opt.get_lr()
    assert opt.global_step.asnumpy().tolist() == [0]
    opt2 = nn.Momentum(net.trainable_params(), nn.ExponentialDecayLR(0.1, 0.5, 1), 0.9)
    assert [float(opt2.get_lr().asnumpy()) for _ in range(3)] == pytest.approx([0.1] * 3)
    assert opt2.global_step.asnumpy().tolist() == [0]
    opt(tuple(ops.ones_like(p) for p in net.trainable_params()))
    assert opt.global_step.asnumpy().tolist() == [1]
    np.testing.assert_allclose(net.weight.asnumpy(), [[0.9, 0.9]], rtol=1e-6)


class _FcBn(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 2, weight_init="ones", bias_init="ones")
        self.bn = nn.BatchNorm1d(2)

    def construct(self, x):
        return self.bn(self.fc(x))


def test_group_weight_decay_applies_to_the_whole_group():
    net = _FcBn()
    params = net.trainable_params()
    opt = nn.SGD([{"params": params, "weight_decay": 0.1}], learning_rate=1.0)
    assert opt.decay_flags == (True, True, True, True)  # observed on MindSpore 2.10 CPU
    opt(tuple(ops.zeros_like(p) for p in params))
    np.testing.assert_allclose(net.bn.gamma.asnumpy(), [0.9, 0.9], rtol=1e-6)
    net = _FcBn()
    params = net.trainable_params()
    opt = nn.SGD(params, learning_rate=1.0, weight_decay=0.1)
    assert opt.decay_flags == (True, True, False, False)
    opt(tuple(ops.zeros_like(p) for p in params))
    np.testing.assert_allclose(net.bn.gamma.asnumpy(), [1.0, 1.0])


def test_duplicate_parameters_are_refused():
    w = Parameter(Tensor(np.ones(2, np.float32)), name="w")
    w2 = Parameter(Tensor(np.ones(2, np.float32)), name="w")
    # MindSpore 2.10 CPU: ValueError "... its name 'w' already exists. Please set a unique name for the parameter."
    with pytest.raises(ValueError, match="its name 'w' already exists"):
        nn.SGD([w, w2], 0.1)
    with pytest.raises(ValueError, match="same Parameter is given twice"):
        nn.SGD([w, w], 0.1)
    with pytest.raises(ValueError, match="its name 'w' already exists"):
        nn.SGD([{"params": [w, w2]}], 0.1)
    # MindSpore 2.10 CPU: RuntimeError "For 'Optimizer', the w parameter already exists, ..."
    with pytest.raises(RuntimeError, match="the w parameter already exists"):
        nn.SGD([{"params": [w]}, {"params": [w]}], 0.1)


@pytest.mark.parametrize("mode", MODES)
def test_a_learning_rate_list_that_runs_out_raises(mode):
    context.set_context(mode=mode)
    w = Parameter(Tensor(np.ones(2, np.float32)), name="w")
    opt = nn.SGD([w], learning_rate=[0.1, 0.01])
    g = (Tensor(np.ones(2, np.float32)),)
    opt(g)
    opt(g)
    np.testing.assert_allclose(w.asnumpy(), [0.89, 0.89], rtol=1e-6)  # observed on MindSpore 2.10 CPU
    # MindSpore: RuntimeError: For 'Gather', the 'input_indices' should be in the range [0, 2), but got 2
    with pytest.raises(RuntimeError, match=r"range \[0, 2\), but got 2"):
        opt(g)
    np.testing.assert_allclose(w.asnumpy(), [0.89, 0.89], rtol=1e-6)


@pytest.mark.parametrize("mode", MODES)
def test_a_step_interrupted_between_two_writes_changes_nothing(mode, monkeypatch):
    context.set_context(mode=mode)
    net = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    before = {p.name: p.asnumpy() for p in train.get_parameters()}
    updates = []
    real = optim_ops.ApplyMomentum.compute

    def interrupted(self, *arrays):
        updates.append(1)
        if len(updates) == 2:  # after global_step, the weight and its moment were written
            raise KeyboardInterrupt
        return real(self, *arrays)

    monkeypatch.setattr(optim_ops.ApplyMomentum, "compute", interrupted)
    with pytest.raises(KeyboardInterrupt):
        train(Tensor(np.ones((1, 2), np.float32)), Tensor(np.zeros((1, 2), np.float32)))
    assert len(updates) == 2
    for p in train.get_parameters():
        np.testing.assert_array_equal(p.asnumpy(), before[p.name], err_msg=p.name)


class _HandWrittenStep(nn.Cell):
    """MindSpore's four-line TrainOneStepCell written by hand (seed 004, train.md), calling the network twice."""

    def __init__(self, network, optimizer, set_grad):
        super().__init__(auto_prefix=False)
        self.network = network
        if set_grad:
            network.set_grad()
        self.weights = ms.ParameterTuple(network.trainable_params())
        self.optimizer = optimizer
        self.grad = ops.GradOperation(get_by_list=True, sens_param=True)

    def construct(self, data, label):
        loss = self.network(data, label)
        sens = ops.fill(loss.dtype, loss.shape, 1.0)
        grads = self.grad(self.network, self.weights)(data, label, sens)
        return ops.depend(loss, self.optimizer(grads))


def _hand_written_moving_mean(mode, set_grad):
    context.set_context(mode=mode)
    net = nn.SequentialCell([nn.BatchNorm1d(2, momentum=0.5)])
    step = _HandWrittenStep(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1), set_grad)
    step.set_train()
    step(Tensor(np.array([[0, 0], [2, 4]], np.float32)), Tensor(np.zeros((2, 2), np.float32)))
    return net[0].moving_mean.asnumpy().tolist()


def test_hand_written_step_without_set_grad_runs_the_forward_twice_in_pynative():
    assert _hand_written_moving_mean(context.PYNATIVE_MODE, False) == [0.75, 1.5]  # observed on MindSpore 2.10 CPU


@pytest.mark.xfail(strict=True, reason="not yet: MindSpore merges the two forward calls of a hand-written step "
                                       "(GRAPH: its compiler; PYNATIVE after set_grad: it reuses the recorded "
                                       "forward); mslab's CSE keeps both BatchNorm updates")
@pytest.mark.parametrize("mode, set_grad", [(context.GRAPH_MODE, False), (context.PYNATIVE_MODE, True)])
def test_hand_written_step_runs_one_forward_as_mindspore(mode, set_grad):
    assert _hand_written_moving_mean(mode, set_grad) == [0.5, 1.0]  # observed on MindSpore 2.10 CPU
