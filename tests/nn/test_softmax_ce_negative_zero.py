"""SoftmaxCrossEntropyWithLogits of all-zero labels is -0.0 and prints as ``-0.``, as in MindSpore 2.10 (issue 28).

Observed on MindSpore 2.10 CPU, both modes (docs/mindspore_observed/wrongvals.md, seed0.py): seed train.md's
ReLU-ReduceMean-Dense network trained one step with zero labels prints ``[-0. -0. -0. -0.]``, its signbit is set;
the 'mean' reduction of the same loss prints ``0.0``; a Tensor holding -0.0 prints ``-0.`` in both."""
import numpy as np
import pytest

import mslab as ms
from mslab import nn, ops
from mslab.common.tensor import Tensor


class ReLUReduceMeanDense(nn.Cell):
    def __init__(self, kernel, bias, in_channel, num_class):
        super().__init__()
        self.relu = ops.ReLU()
        self.mean = ops.ReduceMean(keep_dims=False)
        self.dense = nn.Dense(in_channel, num_class, kernel, bias)

    def construct(self, x):
        return self.dense(self.mean(self.relu(x), (2, 3)))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_zero_label_loss_is_negative_zero_and_prints_so(mode, capsys):
    ms.set_context(mode=mode)
    try:
        net = ReLUReduceMeanDense(Tensor(np.ones((10, 64), np.float32)), Tensor(np.ones((10,), np.float32)), 64, 10)
        criterion = nn.SoftmaxCrossEntropyWithLogits(sparse=False)
        optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.1)
        train = nn.TrainOneStepCell(nn.WithLossCell(net, criterion), optimizer)
        train.set_train()
        x = Tensor(np.random.default_rng(0).standard_normal((4, 64, 7, 7)).astype(np.float32))
        label = Tensor(np.zeros((4, 10), np.float32))
        loss = train(x, label)
        print("-------loss------", loss)
        mean = nn.SoftmaxCrossEntropyWithLogits(sparse=False, reduction="mean")(net(x), label)
        print(mean)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert capsys.readouterr().out == "-------loss------ [-0. -0. -0. -0.]\n0.0\n"
    assert np.signbit(loss.asnumpy()).all()


def test_negative_zero_tensors_print_as_mindspores(capsys):
    zeros = Tensor(np.zeros(3, np.float32))
    print(Tensor(np.array([-0.0, 0.0, 1.5], np.float32)), Tensor(np.float32(-0.0)), ops.neg(zeros))
    # observed on MindSpore 2.10 CPU: "[-0.   0.   1.5] -0.0 [-0. -0. -0.]"
    assert capsys.readouterr().out == "[-0.   0.   1.5] -0.0 [-0. -0. -0.]\n"
