"""Seed 001's functional Trainer, verbatim (``mindspore`` replaced by ``mslab``), in both modes.

Its ``@ms.jit`` ``train_single`` computes the loss and gradients with ``value_and_grad``, then
``if state: self.opt(grads)`` on ``state = all_finite(grads)``: a condition on a tensor's value, compiled
into an If node whose then-branch holds the optimizer's updates. Observed on MindSpore 2.10 CPU: losses
and weights are identical in GRAPH and PYNATIVE mode, and the optimizer step is skipped when
all_finite is False (docs/mindspore_observed/graph_mode.md).
"""
import numpy as np
import pytest

# ---- seed 001: the functional training flow, verbatim ---------------------------------------------------
import mslab as ms
import mslab.dataset as ds
from mslab import nn, ops
from mslab.amp import StaticLossScaler, all_finite


class Trainer:
    """一个有两个loss的训练示例"""
    def __init__(self, net, loss1, loss2, optimizer, train_dataset, loss_scale=1.0, eval_dataset=None, metric=None):
        self.net = net
        self.loss1 = loss1
        self.loss2 = loss2
        self.opt = optimizer
        self.train_dataset = train_dataset
        self.train_data_size = self.train_dataset.get_dataset_size()    # 获取训练集batch数
        self.weights = self.opt.parameters
        # 注意value_and_grad的第一个参数需要是需要做梯度求导的图，一般包含网络和loss。这里可以是一个函数，也可以是Cell
        self.value_and_grad = ms.value_and_grad(self.forward_fn, None, weights=self.weights, has_aux=True)

        # 分布式场景使用
        self.grad_reducer = self.get_grad_reducer()
        self.loss_scale = StaticLossScaler(loss_scale)
        self.run_eval = eval_dataset is not None
        if self.run_eval:
            self.eval_dataset = eval_dataset
            self.metric = metric
            self.best_acc = 0

    def get_grad_reducer(self):
        grad_reducer = ops.identity
        parallel_mode = ms.get_auto_parallel_context("parallel_mode")
        # 判断是否是分布式场景，分布式场景的设置参考上面通用运行环境设置
        reducer_flag = (parallel_mode != ms.ParallelMode.STAND_ALONE)
        if reducer_flag:
            grad_reducer = nn.DistributedGradReducer(self.weights)
        return grad_reducer

    def forward_fn(self, inputs, labels):
        """正向网络构建，注意第一个输出必须是最后需要求梯度的那个输出"""
        logits = self.net(inputs)
        loss1 = self.loss1(logits, labels)
        loss2 = self.loss2(logits, labels)
        loss = loss1 + loss2
        loss = self.loss_scale.scale(loss)
        return loss, loss1, loss2

    @ms.jit    # jit加速，需要满足图模式构建的要求，否则会报错
    def train_single(self, inputs, labels):
        (loss, loss1, loss2), grads = self.value_and_grad(inputs, labels)
        loss = self.loss_scale.unscale(loss)
        grads = self.loss_scale.unscale(grads)
        grads = self.grad_reducer(grads)
        state = all_finite(grads)
        if state:
            self.opt(grads)

        return loss, loss1, loss2

    def train(self, epochs):
        train_dataset = self.train_dataset.create_dict_iterator()
        self.net.set_train(True)
        for epoch in range(epochs):  # noqa: B007 (verbatim; the seed evaluates per epoch here)
            # 训练一个epoch
            for batch, data in enumerate(train_dataset):
                loss, loss1, loss2 = self.train_single(data["image"], data["label"])
                if batch % 100 == 0:
                    print(f"step: [{batch} /{self.train_data_size}] "
                          f"loss: {loss}, loss1: {loss1}, loss2: {loss2}", flush=True)
# ---- end of the seed's code (its evaluation part is not used here) ---------------------------------------


def make_trainer(images, loss_scale=1.0):
    ms.set_seed(1)
    net = nn.Dense(4, 2)
    labels = np.tile(np.array([[1.0, -1.0]], np.float32), (len(images), 1))
    data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False).batch(4)
    return Trainer(net, nn.MSELoss(), nn.L1Loss(), nn.Momentum(net.trainable_params(), 0.1, 0.9), data,
                   loss_scale=loss_scale), net


def run(mode, images, loss_scale=1.0, epochs=1):
    ms.set_context(mode=mode)
    try:
        trainer, net = make_trainer(images, loss_scale)
        losses = []
        for data in trainer.train_dataset.create_dict_iterator(num_epochs=epochs):
            losses.append([float(t.asnumpy()) for t in trainer.train_single(data["image"], data["label"])])
        return np.array(losses), [p.asnumpy().copy() for p in net.trainable_params()], trainer
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


IMAGES = np.random.default_rng(0).normal(size=(12, 4)).astype(np.float32)


def test_trainer_trains_identically_in_both_modes():
    l_graph, w_graph, _ = run(ms.GRAPH_MODE, IMAGES)
    l_py, w_py, _ = run(ms.PYNATIVE_MODE, IMAGES)
    np.testing.assert_array_equal(l_graph, l_py)
    for a, b in zip(w_graph, w_py):
        np.testing.assert_array_equal(a, b)
    assert l_graph[-1, 0] < l_graph[0, 0]  # it learns


def test_trainer_matches_eager_steps():
    """The compiled step is the eager step: the same numbers as running train_single's body without jit."""
    l_jit, w_jit, _ = run(ms.PYNATIVE_MODE, IMAGES)
    trainer, net = make_trainer(IMAGES)
    eager_step = Trainer.train_single.fn
    losses = [[float(t.asnumpy()) for t in eager_step(trainer, d["image"], d["label"])]
              for d in trainer.train_dataset.create_dict_iterator(num_epochs=1)]
    np.testing.assert_allclose(l_jit, np.array(losses), rtol=1e-6)
    for a, b in zip(w_jit, [p.asnumpy() for p in net.trainable_params()]):
        np.testing.assert_allclose(a, b, rtol=1e-6)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_overflow_skips_the_optimizer_step(mode):
    images = IMAGES.copy()
    images[0, 0] = np.inf  # the first batch's gradients are not finite: `if state:` is False
    ms.set_context(mode=mode)
    try:
        trainer, net = make_trainer(images[:4])
        before = [p.asnumpy().copy() for p in net.trainable_params()]
        data = next(trainer.train_dataset.create_dict_iterator())
        trainer.train_single(data["image"], data["label"])
        for a, b in zip(before, net.trainable_params()):
            np.testing.assert_array_equal(a, b.asnumpy())  # skipped: weights untouched
        good = IMAGES[:4]
        trainer.train_single(ms.Tensor(good), data["label"])
        assert any(not np.array_equal(a, b.asnumpy()) for a, b in zip(before, net.trainable_params()))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_the_step_graph_holds_the_optimizer_in_an_if_branch():
    trainer, _ = make_trainer(IMAGES)
    data = next(trainer.train_dataset.create_dict_iterator())
    graph = ms.trace(trainer.train_single, data["image"], data["label"])
    ifs = [n for n in graph.nodes if n.prim.name == "If"]
    assert len(ifs) == 1
    then_ops = [n.prim.name for n in ifs[0].prim.then_graph.nodes]
    assert "ApplyMomentum" in then_ops and not ifs[0].prim.else_graph.nodes
