"""The code blocks of seeds 003 (building training and evaluation networks) and 004 (TrainOneStepCell
internals), with ``mindspore`` replaced by ``mslab``. Only the data is made up (small numpy batches in
place of datasets); where a seed block uses a name it never imports, the import is added above it.
"""
from types import SimpleNamespace

import numpy as np
import pytest

import mslab
from mslab import ParameterTuple, Tensor
from mslab.testing import in_mode

BOTH = [mslab.PYNATIVE_MODE, mslab.GRAPH_MODE]

# ---- seed 003 [1]: the forward network ----------------------------------------------------------------
import mslab.nn as nn  # noqa: E402
from mslab.common.initializer import Normal  # noqa: E402


class LinearNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(1, 1, Normal(0.02), Normal(0.02))

    def construct(self, x):
        return self.fc(x)


# ---- seed 003 [4]: the data (a list of batches instead of a GeneratorDataset) -------------------------
def get_data(num, w=2.0, b=3.0):
    for _ in range(num):
        x = np.random.uniform(-10.0, 10.0)
        noise = np.random.normal(0, 1)
        y = x * w + b + noise
        yield np.array([x]).astype(np.float32), np.array([y]).astype(np.float32)


class _Batches:
    """Made-up data: what ``GeneratorDataset(...).batch(batch_size)`` would yield, as dicts of Tensors."""

    def __init__(self, rows, batch_size):
        self.batches = []
        for i in range(0, len(rows), batch_size):
            chunk = rows[i:i + batch_size]
            self.batches.append({"data": Tensor(np.stack([r[0] for r in chunk])),
                                 "label": Tensor(np.stack([r[1] for r in chunk]))})

    def create_dict_iterator(self):
        return iter(self.batches)


def create_dataset(num_data, batch_size=16):
    return _Batches(list(get_data(num_data)), batch_size)


@pytest.mark.parametrize("mode", BOTH)
def test_seed003_linear_net_with_train_one_step_cell(mode, capsys):
    np.random.seed(1)
    mslab.set_seed(1)
    with in_mode(mode):
        # [2]
        net = LinearNet()
        crit = nn.MSELoss()
        net_with_criterion = nn.WithLossCell(net, crit)
        opt = nn.Momentum(net.trainable_params(), learning_rate=0.005, momentum=0.9)
        train_net = nn.TrainOneStepCell(net_with_criterion, opt)
        train_net.set_train()
        train_dataset = create_dataset(num_data=160)
        # [5]
        epochs = 2
        losses = []
        for epoch in range(epochs):  # noqa: B007
            for d in train_dataset.create_dict_iterator():
                result = train_net(d["data"], d["label"])
                print(result)
                losses.append(float(result.asnumpy()))
        # [8]-[12]: evaluation with metrics
        eval_net = nn.WithEvalCell(net, crit)
        eval_net.set_train(False)
        mae = nn.MAE()
        loss = nn.Loss()
        eval_dataset = create_dataset(num_data=160)
        mae.clear()
        loss.clear()
        for d in eval_dataset.create_dict_iterator():
            outputs = eval_net(d["data"], d["label"])
            mae.update(outputs[1], outputs[2])
            loss.update(outputs[0])
        mae_result = mae.eval()
        loss_result = loss.eval()
        print("mae: ", mae_result)
        print("loss: ", loss_result)
    assert len(losses) == 20 and len(capsys.readouterr().out.splitlines()) == 22
    assert np.mean(losses[-5:]) < np.mean(losses[:5]) / 5
    assert mae_result < 5.0 and loss_result < 30.0  # the seed printed 1.86 and 4.75 on its random data
    w = net.fc.weight.asnumpy()[0, 0]
    assert 1.0 < w < 3.0


# ---- seed 003 [3] / seed 004: TrainOneStepCell re-implemented ---------------------------------------
import mslab.ops as ops  # noqa: E402
from mslab.communication import get_group_size  # noqa: E402
from mslab.context import ParallelMode, get_auto_parallel_context  # noqa: E402, F401
from mslab.ops import functional as F  # noqa: E402  (the seed uses F without importing it)


def auto_parallel_context():
    """The seed calls MindSpore's private ``auto_parallel_context()`` without importing it; this is it."""
    return SimpleNamespace(
        get_parallel_mode=lambda: get_auto_parallel_context("parallel_mode"),
        get_gradients_mean=lambda: get_auto_parallel_context("gradients_mean"),
        get_device_num_is_set=lambda: True,
        get_device_num=lambda: get_auto_parallel_context("device_num"))


def get_device_num():
    """Get the device num."""
    parallel_mode = auto_parallel_context().get_parallel_mode()
    if parallel_mode == "stand_alone":
        device_num = 1
        return device_num
    if auto_parallel_context().get_device_num_is_set() is False:
        device_num = get_group_size()
    else:
        device_num = auto_parallel_context().get_device_num()
    return device_num


class TrainOneStepCell(nn.Cell):
    def __init__(self, network, optimizer, sens=1.0):
        super(TrainOneStepCell, self).__init__(auto_prefix=False)
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = self.optimizer.parameters
        self.grad = ops.GradOperation(get_by_list=True, sens_param=True)
        self.sens = sens
        self.reducer_flag = False
        self.grad_reducer = ops.identity
        self.parallel_mode = auto_parallel_context().get_parallel_mode()
        self.reducer_flag = self.parallel_mode in (ParallelMode.DATA_PARALLEL, ParallelMode.HYBRID_PARALLEL)
        if self.reducer_flag:
            self.mean = auto_parallel_context().get_gradients_mean()
            self.degree = get_device_num()
            self.grad_reducer = nn.DistributedGradReducer(self.weights, self.mean, self.degree)

    def construct(self, *inputs):
        loss = self.network(*inputs)
        sens = F.fill(loss.dtype, loss.shape, self.sens)
        grads = self.grad(self.network, self.weights)(*inputs, sens)
        grads = self.grad_reducer(grads)
        loss = F.depend(loss, self.optimizer(grads))
        return loss


def fixed_linear_net():
    net = LinearNet()
    net.fc.weight.set_data(Tensor(np.array([[0.01]], np.float32)))
    net.fc.bias.set_data(Tensor(np.array([0.02], np.float32)))
    return net


BATCHES = [(Tensor(np.linspace(-3, 3, 8, dtype=np.float32).reshape(8, 1) + i),
            Tensor((np.linspace(-3, 3, 8, dtype=np.float32).reshape(8, 1) + i) * 2 + 3)) for i in range(3)]


def train_with(cell_class, mode, data_parallel=False):
    with in_mode(mode):
        if data_parallel:
            mslab.context.set_auto_parallel_context(parallel_mode=ParallelMode.DATA_PARALLEL, gradients_mean=True)
        try:
            net = fixed_linear_net()
            opt = nn.Momentum(net.trainable_params(), learning_rate=0.005, momentum=0.9)
            train_net = cell_class(nn.WithLossCell(net, nn.MSELoss()), opt)
        finally:
            mslab.context.reset_auto_parallel_context()
        train_net.set_train()
        losses = [train_net(x, y).asnumpy() for x, y in BATCHES]
    return losses, [net.fc.weight.asnumpy(), net.fc.bias.asnumpy()]


@pytest.mark.parametrize("mode", BOTH)
@pytest.mark.parametrize("data_parallel", [False, True])
def test_seed_train_one_step_cell_reimplementation_matches_nn(mode, data_parallel):
    ours = train_with(TrainOneStepCell, mode, data_parallel)
    ref = train_with(nn.TrainOneStepCell, mode)
    for a, b in zip(ours[0] + ours[1], ref[0] + ref[1]):
        np.testing.assert_allclose(a, b, rtol=1e-6)


# ---- seed 003 [6]: Bert-style gradient clipping with MultitypeFuncGraph / HyperMap / partial -------------
from mslab.common import dtype as mstype  # noqa: E402  (the seed uses mstype without importing it)

GRADIENT_CLIP_TYPE = 1
GRADIENT_CLIP_VALUE = 1.0

clip_grad = ops.MultitypeFuncGraph("clip_grad")


@clip_grad.register("Number", "Number", "Tensor")
def _clip_grad(clip_type, clip_value, grad):
    if clip_type not in (0, 1):
        return grad
    dt = ops.dtype(grad)
    if clip_type == 0:
        new_grad = ops.clip_by_value(grad, ops.cast(ops.tuple_to_array((-clip_value,)), dt),
                                     ops.cast(ops.tuple_to_array((clip_value,)), dt))
    else:
        new_grad = nn.ClipByNorm()(grad, ops.cast(ops.tuple_to_array((clip_value,)), dt))
    return new_grad


class BertTrainOneStepCell(nn.TrainOneStepCell):
    def __init__(self, network, optimizer, sens=1.0, enable_clip_grad=True):
        super(BertTrainOneStepCell, self).__init__(network, optimizer, sens)
        self.cast = ops.Cast()
        self.hyper_map = ops.HyperMap()
        self.enable_clip_grad = enable_clip_grad

    def construct(self, *inputs):
        weights = self.weights
        loss = self.network(*inputs)
        grads = self.grad(self.network, weights)(*inputs, self.cast(ops.tuple_to_array((self.sens,)), mstype.float32))
        if self.enable_clip_grad:
            grads = self.hyper_map(ops.partial(clip_grad, GRADIENT_CLIP_TYPE, GRADIENT_CLIP_VALUE), grads)
        grads = self.grad_reducer(grads)
        self.optimizer(grads)
        return loss


def clipped_sgd_reference(x, y):
    """One SGD step (lr 0.1) of LinearNet + MSE with each gradient's L2 norm clipped to 1."""
    w, b = 0.01, 0.02
    err = (x * w + b) - y
    gw, gb = np.array([[2 * np.mean(err * x)]]), np.array([2 * np.mean(err)])
    clip = [g * min(1.0, 1.0 / np.sqrt((g ** 2).sum())) for g in (gw, gb)]
    return w - 0.1 * clip[0], b - 0.1 * clip[1]


@pytest.mark.parametrize("mode", BOTH)
def test_seed003_bert_gradient_clipping(mode):
    x, y = BATCHES[0]
    with in_mode(mode):
        net = fixed_linear_net()
        opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
        train = BertTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
        loss = train(x, y)
    want_w, want_b = clipped_sgd_reference(x.asnumpy(), y.asnumpy())
    np.testing.assert_allclose(net.fc.weight.asnumpy(), want_w, rtol=1e-5)
    np.testing.assert_allclose(net.fc.bias.asnumpy(), want_b, rtol=1e-5)
    assert loss.shape == ()


def test_seed003_clip_by_value_branch():
    grads = (Tensor(np.array([-3.0, 0.5, 2.0], np.float32)),)
    out = ops.HyperMap()(ops.partial(clip_grad, 0, 1.0), grads)
    assert out[0].asnumpy().tolist() == [-1.0, 0.5, 1.0]
    assert ops.HyperMap()(ops.partial(clip_grad, 2, 1.0), grads)[0] is grads[0]


# ---- seed 003 [7]: Wide&Deep, two losses, two optimizers (FTRL and Adam) -------------------------------
class IthOutputCell(nn.Cell):
    """
    IthOutputCell
    """
    def __init__(self, network, output_index):
        super(IthOutputCell, self).__init__()
        self.network = network
        self.output_index = output_index

    def construct(self, *inputs):
        """
        IthOutputCell construct
        """
        predict = self.network(*inputs)[self.output_index]
        return predict


DistributedGradReducer = nn.DistributedGradReducer


class TrainStepWrap(nn.Cell):
    def __init__(self, network, config, sens=1000.0):
        super(TrainStepWrap, self).__init__()
        self.network = network
        self.network.set_train()
        self.trainable_params = network.trainable_params()
        weights_w = []
        weights_d = []
        for params in self.trainable_params:
            if 'wide' in params.name:
                weights_w.append(params)
            else:
                weights_d.append(params)
        self.weights_w = ParameterTuple(weights_w)
        self.weights_d = ParameterTuple(weights_d)
        self.optimizer_w = nn.FTRL(learning_rate=config.ftrl_lr,
                                   params=self.weights_w,
                                   l1=5e-4,
                                   l2=5e-4,
                                   initial_accum=0.1,
                                   loss_scale=sens)
        self.optimizer_d = nn.Adam(self.weights_d,
                                   learning_rate=config.adam_lr,
                                   eps=1e-6,
                                   loss_scale=sens)
        self.hyper_map = ops.HyperMap()
        self.grad_w = ops.GradOperation(get_by_list=True, sens_param=True)
        self.grad_d = ops.GradOperation(get_by_list=True, sens_param=True)
        self.sens = sens
        self.loss_net_w = IthOutputCell(network, output_index=0)
        self.loss_net_d = IthOutputCell(network, output_index=1)
        self.loss_net_w.set_grad()
        self.loss_net_w.set_grad()
        self.reducer_flag = False
        self.grad_reducer_w = None
        self.grad_reducer_d = None
        parallel_mode = get_auto_parallel_context("parallel_mode")
        if parallel_mode in (ParallelMode.DATA_PARALLEL,
                             ParallelMode.HYBRID_PARALLEL):
            self.reducer_flag = True
        if self.reducer_flag:
            mean = get_auto_parallel_context("gradients_mean")
            degree = get_auto_parallel_context("device_num")
            self.grad_reducer_w = DistributedGradReducer(
                self.optimizer_w.parameters, mean, degree)
            self.grad_reducer_d = DistributedGradReducer(
                self.optimizer_d.parameters, mean, degree)

    def construct(self, *inputs):
        """
        TrainStepWrap construct
        """
        weights_w = self.weights_w
        weights_d = self.weights_d
        loss_w, loss_d = self.network(*inputs)
        sens_w = ops.Fill()(ops.DType()(loss_w), ops.Shape()(loss_w), self.sens)
        sens_d = ops.Fill()(ops.DType()(loss_d), ops.Shape()(loss_d), self.sens)
        grads_w = self.grad_w(self.loss_net_w, weights_w)(*inputs, sens_w)
        grads_d = self.grad_d(self.loss_net_d, weights_d)(*inputs, sens_d)
        if self.reducer_flag:
            # apply grad reducer on grads
            grads_w = self.grad_reducer_w(grads_w)
            grads_d = self.grad_reducer_d(grads_d)
        return ops.depend(loss_w, self.optimizer_w(grads_w)), ops.depend(
            loss_d, self.optimizer_d(grads_d))


class WideDeep(nn.Cell):
    """Made-up Wide&Deep: a linear 'wide' part and a small 'deep' MLP, each with its own loss."""

    def __init__(self):
        super().__init__()
        r = np.random.default_rng(0)
        self.wide = nn.Dense(4, 1, Tensor(r.standard_normal((1, 4)).astype(np.float32) * 0.1), "zeros")
        self.deep1 = nn.Dense(4, 8, Tensor(r.standard_normal((8, 4)).astype(np.float32) * 0.3), "zeros")
        self.deep2 = nn.Dense(8, 1, Tensor(r.standard_normal((1, 8)).astype(np.float32) * 0.3), "zeros")
        self.relu = nn.ReLU()
        self.loss = nn.MSELoss()

    def construct(self, x, y):
        wide = self.wide(x)
        deep = self.deep2(self.relu(self.deep1(x)))
        return self.loss(wide + deep, y), self.loss(wide + deep, y) + 0.01 * self.loss(deep, y)


WD_X = Tensor(np.random.default_rng(1).standard_normal((16, 4)).astype(np.float32))
WD_Y = Tensor((WD_X.asnumpy() @ np.array([[0.5], [-1.0], [0.3], [0.8]], np.float32)).astype(np.float32))


def run_wide_deep(mode):
    with in_mode(mode):
        net = WideDeep()
        train = TrainStepWrap(net, SimpleNamespace(ftrl_lr=0.05, adam_lr=0.01))
        losses = [tuple(float(t.asnumpy()) for t in train(WD_X, WD_Y)) for _ in range(8)]
    return train, losses, [p.asnumpy() for p in net.trainable_params()]


def test_seed003_wide_and_deep_two_optimizers():
    train, losses, params = run_wide_deep(mslab.PYNATIVE_MODE)
    # (the names carry every prefix the shared network was given: network., loss_net_w.network., ...)
    assert [p.name.split(".", p.name.count(".") - 1)[-1] for p in train.weights_w] == ["wide.weight", "wide.bias"]
    assert isinstance(train.optimizer_w, nn.FTRL) and isinstance(train.optimizer_d, nn.Adam)
    assert losses[-1][0] < losses[0][0] and losses[-1][1] < losses[0][1]
    _, losses_g, params_g = run_wide_deep(mslab.GRAPH_MODE)
    assert losses_g == losses
    for a, b in zip(params, params_g):
        np.testing.assert_array_equal(a, b)


def test_seed003_wide_and_deep_graph_has_both_optimizers():
    net = WideDeep()
    train = TrainStepWrap(net, SimpleNamespace(ftrl_lr=0.05, adam_lr=0.01))
    g = mslab.trace(train, WD_X, WD_Y)
    written = {n.inputs[0].name for n in g.nodes if n.op == "Assign"}
    assert {"linear.network.wide.weight", "moment1.network.deep1.weight", "optimizer_d.beta1_power"} <= written


# ---- seed 003 [13]-[15]: custom eval cell, weight sharing ---------------------------------------------
class CustomWithEvalCell(nn.Cell):
    def __init__(self, network):
        super(CustomWithEvalCell, self).__init__(auto_prefix=False)
        self._network = network

    def construct(self, data, label1, label2):
        outputs = self._network(data)
        return outputs, label1, label2


def test_seed003_custom_eval_cell_and_set_indexes():
    net = fixed_linear_net()
    eval_net = CustomWithEvalCell(net)
    eval_net.set_train(False)
    x, y = BATCHES[0]
    outputs = eval_net(x, y, y * 0)
    mae = nn.MAE().set_indexes([0, 2])
    mae.update(*outputs)
    assert mae.eval() == pytest.approx(np.abs(net(x).asnumpy()).sum() / 8, rel=1e-6)


def test_seed003_weight_sharing():
    # [14]
    net = LinearNet()
    crit = nn.MSELoss()
    net_with_criterion = nn.WithLossCell(net, crit)
    opt = nn.Adam(params=net.trainable_params())
    train_net = nn.TrainOneStepCell(net_with_criterion, opt)
    train_net.set_train()
    eval_net = nn.WithEvalCell(net, crit)
    eval_net.set_train(False)
    # [15]
    net2 = LinearNet()
    eval_net2 = nn.WithEvalCell(net2, crit)
    eval_net2.set_train(False)
    x, y = BATCHES[1]
    before2 = eval_net2(x, y)[0].asnumpy()
    for _ in range(3):
        train_net(x, y)
    loss, outputs, _ = eval_net(x, y)
    np.testing.assert_allclose(loss.asnumpy(), net_with_criterion(x, y).asnumpy())
    np.testing.assert_array_equal(outputs.asnumpy(), net(x).asnumpy())
    np.testing.assert_array_equal(eval_net2(x, y)[0].asnumpy(), before2)  # no shared weights: unchanged
    # loading train_net's weights into net2 makes them agree
    mslab.load_param_into_net(net2, {p.name: p for p in net.get_parameters()})
    np.testing.assert_allclose(eval_net2(x, y)[0].asnumpy(), loss.asnumpy())


# ---- seed 004: the user-defined WithLossCell from TrainOneStepCell's docstring --------------------------
class MyWithLossCell(nn.Cell):
    def __init__(self, backbone, loss_fn):
        super(MyWithLossCell, self).__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, x, y, label):
        out = self._backbone(x, y)
        return self._loss_fn(out, label)

    @property
    def backbone_network(self):
        return self._backbone


class TwoInputNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 3, Tensor(np.full((3, 2), 0.1, np.float32)), "zeros")

    def construct(self, x, y):
        return self.fc(x + y)


@pytest.mark.parametrize("mode", BOTH)
def test_seed004_user_defined_with_loss_cell(mode):
    with in_mode(mode):
        net = TwoInputNet()
        loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        optim = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
        loss_net = MyWithLossCell(net, loss_fn)
        train_net = nn.TrainOneStepCell(loss_net, optim)
        x = Tensor(np.array([[1.0, 0.0], [0.0, 1.0]], np.float32))
        label = Tensor(np.array([0, 2], np.int32))
        losses = [float(train_net(x, x, label).asnumpy()) for _ in range(3)]
    assert losses[0] == pytest.approx(np.log(3), rel=1e-5) and losses[2] < losses[0]
