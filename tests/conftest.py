"""Every test starts in PYNATIVE mode on device_target "CPU" (MindSpore 2.x's defaults) with the same seed.

Under CI (``CI`` set) hypothesis is derandomised, so a run is repeatable; locally it explores.
The small networks several test folders share are defined here, once, and handed out as fixtures.
"""
import os

import numpy as np
import pytest
from hypothesis import settings

import mslab as ms
from mslab import context, nn
from mslab import runtime as ms_runtime
from mslab.common.initializer import Normal
from mslab.core import context as core_context

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _pynative_mode():
    context.set_context(mode=context.PYNATIVE_MODE, device_target="CPU")
    np.random.seed(0)
    yield
    context.set_context(mode=context.PYNATIVE_MODE, device_target="CPU")


@pytest.fixture
def device():
    """A device target (the simulated "Ascend"): dataset sink mode sinks only there, as in MindSpore."""
    core_context._warned_target = True  # the once-only note about the target is not what a test checks
    context.set_context(device_target="Ascend")
    yield "Ascend"



@pytest.fixture
def restore_runtime_context():
    """After the test: PYNATIVE on "CPU" again and mindspore.runtime's memory settings forgotten (they are set once
    per process, as in MindSpore). Files that change them say ``pytestmark = pytest.mark.usefixtures(...)``."""
    yield
    context.set_context(mode=context.PYNATIVE_MODE, device_target="CPU")
    ms_runtime._memory.clear()


@pytest.fixture
def stand_alone_parallel_context():
    """The auto-parallel context reset before and after the test (stand-alone, one device), then PYNATIVE mode."""
    ms.reset_auto_parallel_context()
    yield
    ms.reset_auto_parallel_context()
    context.set_context(mode=context.PYNATIVE_MODE)

class LinearNet(nn.Cell):
    """y = x W^T + b with one input and one output, W and b drawn from Normal(0.02): seed 003's LinearNet."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(1, 1, Normal(0.02), Normal(0.02))

    def construct(self, x):
        return self.fc(x)


class TwoLayerNet(nn.Cell):
    """Dense(3, 4) -> ReLU -> Dense(4, 2): the smallest network with a hidden layer between two weight layers."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(3, 4)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(4, 2)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


@pytest.fixture
def linear_net():
    """A fresh LinearNet (its class name shows in reprs and error messages)."""
    return LinearNet()


@pytest.fixture
def two_layer_net():
    """A fresh TwoLayerNet, weights from the current seed."""
    return TwoLayerNet()


@pytest.fixture
def make_train_step():
    """A factory of training steps: ``make_train_step(opt="momentum", sens=1.0)`` seeds with set_seed(0), builds a
    TwoLayerNet and returns TrainOneStepCell(WithLossCell(net, MSELoss()), optimizer, sens), the optimizer being
    Momentum(lr 0.1, momentum 0.9), Adam(lr 0.01) or, for any other name, SGD(lr 0.1)."""

    def make(opt="momentum", sens=1.0):
        ms.set_seed(0)
        net = TwoLayerNet()
        if opt == "momentum":
            o = nn.Momentum(net.trainable_params(), 0.1, 0.9)
        elif opt == "adam":
            o = nn.Adam(net.trainable_params(), 0.01)
        else:
            o = nn.SGD(net.trainable_params(), 0.1)
        return nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), o, sens=sens)

    return make
