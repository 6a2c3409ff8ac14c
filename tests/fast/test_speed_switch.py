"""The speed layer's switch (mslab.fast): on by default, off inside ``plain()`` or with ``MSLAB_PLAIN=1``; with it
off a step takes the plain path (every bprop rule every step, one executor line per node), and training gives the
same numbers either way (up to the last bits of the convolutions' summation order)."""
import os
import subprocess
import sys

import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, fast, lab, nn
from mslab.autodiff import grad_operation
from mslab.common.initializer import Normal
from mslab.core import hooks
from mslab.ops.matmul_ops import MatMul
from mslab.runtime.executor import Executor

SPEED_HOOKS = ("autodiff_tape", "backward_replay", "executor_lines", "stride1_convolution")


@pytest.fixture
def layer_on():
    """The test runs with the speed layer on (even in a MSLAB_PLAIN run), and leaves the switch as it found it."""
    was = fast.enabled()
    fast.set_enabled(True)
    yield
    fast.set_enabled(was)


def test_plain_turns_every_hook_off_and_restores_them(layer_on):
    installed = {name: getattr(hooks, name) for name in SPEED_HOOKS}
    assert fast.enabled() and all(v is not None for v in installed.values())
    assert lab.plain is fast.plain
    with fast.plain():
        assert not fast.enabled() and all(getattr(hooks, name) is None for name in SPEED_HOOKS)
        with fast.plain():
            assert not fast.enabled()
        assert not fast.enabled()  # the inner block restores what it found: off
    assert fast.enabled() and {name: getattr(hooks, name) for name in SPEED_HOOKS} == installed
    with pytest.raises(KeyError), fast.plain():
        raise KeyError("restored on the way out of an error too")
    assert fast.enabled()
    fast.set_enabled(False)
    with fast.plain():
        pass
    assert not fast.enabled()


@pytest.mark.parametrize("value, on", [(None, True), ("0", True), ("1", False)])
def test_the_environment_variable_decides_at_import(value, on):
    env = {k: v for k, v in os.environ.items() if k != "MSLAB_PLAIN"}
    if value is not None:
        env["MSLAB_PLAIN"] = value
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = os.pathsep.join([root] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    code = "import mslab; from mslab.core import hooks; print(mslab.fast.enabled(), hooks.backward_replay is None)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == [str(on), str(not on)]


def _dense_train():
    ms.set_seed(1)
    net = nn.Dense(3, 2, Normal(0.1), Normal(0.1))
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    rng = np.random.default_rng(0)
    return train, Tensor(rng.standard_normal((5, 3)).astype(np.float32)), Tensor(rng.standard_normal((5, 2))
                                                                               .astype(np.float32))


def _count_backward(monkeypatch):
    """Counts of ``backprop`` walks and MatMul bprop rule calls."""
    seen = {"backprop": 0, "MatMul.bprop": 0}
    real_backprop, real_rule = grad_operation.backprop, MatMul.bprop

    def backprop(*args):
        seen["backprop"] += 1
        return real_backprop(*args)

    def rule(self, *args, **kwargs):
        seen["MatMul.bprop"] += 1
        return real_rule(self, *args, **kwargs)

    monkeypatch.setattr(grad_operation, "backprop", backprop)
    monkeypatch.setattr(MatMul, "bprop", rule)
    return seen


def test_with_the_layer_off_a_pynative_step_runs_backprop_and_the_rules_every_step(monkeypatch, layer_on):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    seen = _count_backward(monkeypatch)
    with fast.plain():
        train, x, y = _dense_train()
        for step in range(1, 5):
            train(x, y)
            assert seen == {"backprop": step, "MatMul.bprop": step}
    seen.update(backprop=0)
    train, x, y = _dense_train()  # the speed layer on: from the second step the backward is replayed
    for _ in range(4):
        train(x, y)
    assert seen["backprop"] < 4


class LeNetLike(nn.Cell):
    """Stride-1 and stride-2 convolutions, BatchNorm, ReLU and max pooling: every kernel the speed layer changes."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, pad_mode="same", weight_init=Normal(0.3), has_bias=False)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.conv2 = nn.Conv2d(4, 6, 3, stride=2, pad_mode="valid", weight_init=Normal(0.3), has_bias=False)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(6 * 1 * 1, 3, Normal(0.3), Normal(0.1))

    def construct(self, x):
        x = self.pool(self.relu(self.bn(self.conv1(x))))
        return self.fc(self.flatten(self.relu(self.conv2(x))))


def _lenet_train():
    ms.set_seed(5)
    net = LeNetLike()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    rng = np.random.default_rng(2)
    x = Tensor(rng.standard_normal((4, 1, 8, 8)).astype(np.float32))
    y = Tensor(rng.integers(0, 3, 4).astype(np.int32))
    return train, x, y


def test_with_the_layer_off_the_executor_writes_one_line_per_node(layer_on):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    train, x, y = _lenet_train()
    ex = Executor(ms.trace(train, x, y))
    assert ex.n_lines < len(ex.schedule)  # fused pairs: MaxPoolGrad + ReluGrad, BatchNormGrad + BatchNormScaleGrad
    with fast.plain():  # the same executor writes its code again: no fused line runs with the layer off
        assert ex.n_lines == len(ex.schedule)
        calls = [line for line in ex.code.splitlines() if " = k" in line]
        assert [line.split("# ")[1] for line in calls] == [f"{n.out.name} = {n.op}" for *_, n in ex.schedule]
        with_plain = Executor(ms.trace(train, x, y))
        assert with_plain.n_lines == len(with_plain.schedule)
    assert ex.n_lines < len(ex.schedule)


def _train_run(mode, steps=4):
    ms.set_context(mode=mode)
    train, x, y = _lenet_train()
    losses = [train(x, y).asnumpy() for _ in range(steps)]
    return losses, [p.asnumpy().copy() for p in train.trainable_params()]


def test_training_agrees_with_the_layer_on_and_off_and_graph_equals_pynative_in_each(layer_on):
    runs = {}
    for on in (True, False):
        fast.set_enabled(on)
        runs[on] = {mode: _train_run(mode) for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE)}
        (graph_losses, graph_weights), (eager_losses, eager_weights) = runs[on].values()
        for a, b in zip(graph_losses + graph_weights, eager_losses + eager_weights):
            assert a.tobytes() == b.tobytes()  # GRAPH == PYNATIVE bit for bit, in each setting
    for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
        (fast_losses, fast_weights), (plain_losses, plain_weights) = runs[True][mode], runs[False][mode]
        for a, b in zip(fast_losses + fast_weights, plain_losses + plain_weights):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
