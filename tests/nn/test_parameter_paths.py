"""``parameters_and_names`` names each Parameter by where the walk found it, as MindSpore 2.10 does.

The lists below were printed by MindSpore 2.10 (CPU) for the same networks (lesson 01's LinearNet): the walk
names a Parameter by its Cell's path and the attribute it sits in (a ParameterTuple's items by their own name),
while ``p.name``, which checkpoints save, does not change.
"""
import numpy as np

import mslab as ms
from mslab import Tensor, nn
from mslab.common.initializer import Normal


class LinearNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(1, 1, Normal(0.02), Normal(0.02))

    def construct(self, x):
        return self.fc(x)


def _train_net():
    net = LinearNet()
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.005, momentum=0.9)
    return loss_net, opt, nn.TrainOneStepCell(loss_net, opt)


def test_train_one_step_cell_names_the_optimizer_state_by_its_path_as_mindspore():
    _, _, train = _train_net()
    assert [n for n, _ in train.parameters_and_names()] == [
        "fc.weight", "fc.bias", "optimizer.global_step", "optimizer.learning_rate", "optimizer.momentum",
        "optimizer.moments.fc.weight", "optimizer.moments.fc.bias"]
    assert [p.name for _, p in train.parameters_and_names()] == [
        "fc.weight", "fc.bias", "global_step", "learning_rate", "momentum", "moments.fc.weight", "moments.fc.bias"]


def test_with_loss_cell_and_the_optimizer_walk_as_mindspore():
    loss_net, opt, _ = _train_net()
    assert [n for n, _ in loss_net.parameters_and_names()] == ["_backbone.fc.weight", "_backbone.fc.bias"]
    assert [n for n, _ in opt.parameters_and_names(name_prefix="optimizer")] == [
        "optimizer.global_step", "optimizer.learning_rate", "optimizer.fc.weight", "optimizer.fc.bias",
        "optimizer.momentum", "optimizer.moments.fc.weight", "optimizer.moments.fc.bias"]


def test_an_own_parameter_is_named_by_its_attribute_not_its_name():
    class Outer(nn.Cell):
        def __init__(self):
            super().__init__(auto_prefix=False)
            self.inner = LinearNet()
            self.s = ms.Parameter(Tensor(1.0), name="zz")

        def construct(self, x):
            return self.inner(x)

    assert [(n, p.name) for n, p in Outer().parameters_and_names()] == [
        ("s", "zz"), ("inner.fc.weight", "fc.weight"), ("inner.fc.bias", "fc.bias")]


def test_a_checkpoint_of_the_training_step_keeps_the_parameters_names(tmp_path):
    _, _, train = _train_net()
    x = Tensor(np.array([[1.0], [2.0], [3.0]], np.float32))
    train(x, 2 * x + 3)
    ms.save_checkpoint(train, str(tmp_path / "t.ckpt"))
    assert list(ms.load_checkpoint(str(tmp_path / "t.ckpt"))) == [  # MindSpore 2.10 writes these keys
        "fc.weight", "fc.bias", "global_step", "learning_rate", "momentum", "moments.fc.weight", "moments.fc.bias"]
    _, _, fresh = _train_net()
    ms.load_param_into_net(fresh, ms.load_checkpoint(str(tmp_path / "t.ckpt")))
    for (_, a), (_, b) in zip(train.parameters_and_names(), fresh.parameters_and_names()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
