"""Layers and losses as MindSpore 2.10 prints and differentiates them (observed on MindSpore 2.10 CPU,
docs/mindspore_observed/fidelity.md §2 and §6, and the checks noted at each test)."""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, nn


def test_bce_with_logits_gradient_at_zero_logits():
    labels = Tensor(np.array([1.0, 0.0], np.float32))
    logits = Tensor(np.array([0.0, 0.0], np.float32))
    loss_fn = nn.BCEWithLogitsLoss()
    # observed on MindSpore 2.10 CPU: loss 0.6931472, grads [-0.25, 0.25]; 'sum' [-0.5, 0.5];
    # reduction='sum' with pos_weight [2, 2]: [-1, 0.5]
    assert float(loss_fn(logits, labels).asnumpy()) == pytest.approx(0.6931472, rel=1e-6)
    np.testing.assert_allclose(ms.grad(lambda z: loss_fn(z, labels))(logits).asnumpy(), [-0.25, 0.25])
    np.testing.assert_allclose(ms.grad(lambda z: loss_fn(z, labels[None]))(logits[None]).asnumpy(), [[-0.25, 0.25]])
    total = nn.BCEWithLogitsLoss(reduction="sum")
    np.testing.assert_allclose(ms.grad(lambda z: total(z, labels))(logits).asnumpy(), [-0.5, 0.5])
    weighted = nn.BCEWithLogitsLoss(reduction="sum", pos_weight=Tensor(np.array([2.0, 2.0], np.float32)))
    np.testing.assert_allclose(ms.grad(lambda z: weighted(z, labels))(logits).asnumpy(), [-1.0, 0.5])


def test_bce_with_logits_gradient_is_sigmoid_minus_label_everywhere():
    x = np.array([-30.0, -2.0, -1e-3, 0.0, 1e-3, 2.0, 30.0], np.float32)
    y = np.array([1.0, 0.0, 1.0, 0.5, 0.0, 1.0, 0.0], np.float32)
    loss_fn = nn.BCEWithLogitsLoss(reduction="sum")
    got = ms.grad(lambda z: loss_fn(z, Tensor(y)))(Tensor(x)).asnumpy()
    np.testing.assert_allclose(got, 1 / (1 + np.exp(-x.astype(np.float64))) - y, rtol=1e-5, atol=1e-7)


def test_reprs_as_mindspore_prints_them():
    # observed on MindSpore 2.10 CPU
    assert repr(nn.Conv2d(1, 6, 5, weight_init="ones")) == (
        "Conv2d(input_channels=1, output_channels=6, kernel_size=(5, 5), stride=(1, 1), pad_mode=same, padding=0, "
        "dilation=(1, 1), group=1, has_bias=False, weight_init=ones, bias_init=None, format=NCHW)")
    assert repr(nn.Conv2d(1, 6, (3, 5), weight_init="normal", bias_init="zeros", has_bias=True)) == (
        "Conv2d(input_channels=1, output_channels=6, kernel_size=(3, 5), stride=(1, 1), pad_mode=same, padding=0, "
        "dilation=(1, 1), group=1, has_bias=True, weight_init=normal, bias_init=zeros, format=NCHW)")
    assert repr(nn.MaxPool2d(kernel_size=2, stride=2)) == "MaxPool2d(kernel_size=2, stride=2, pad_mode=VALID)"
    assert repr(nn.MaxPool2d((2, 3), 1)) == "MaxPool2d(kernel_size=(2, 3), stride=1, pad_mode=VALID)"
    assert repr(nn.AvgPool2d(kernel_size=2, stride=1)) == "AvgPool2d(kernel_size=2, stride=1, pad_mode=VALID)"
    assert repr(nn.Dense(3, 4, activation="relu")) == (
        "Dense(\n  input_channels=3, output_channels=4, has_bias=True, activation=ReLU()\n  (activation): ReLU()\n)")
    assert repr(nn.Dense(3, 4)) == "Dense(input_channels=3, output_channels=4, has_bias=True)"
    assert repr(nn.SoftmaxCrossEntropyWithLogits()) == "SoftmaxCrossEntropyWithLogits()"
    assert repr(nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")) == "SoftmaxCrossEntropyWithLogits()"
    assert [repr(c) for c in (nn.MSELoss(), nn.L1Loss(), nn.BCEWithLogitsLoss(), nn.ReLU(), nn.Flatten())] == [
        "MSELoss()", "L1Loss()", "BCEWithLogitsLoss()", "ReLU()", "Flatten()"]
