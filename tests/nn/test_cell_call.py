"""A Cell owns its call and its state: few frames between ``net(x)`` and ``construct``, and every attribute the
runtime keeps on a Cell declared in ``Cell.__init__``."""
import inspect

import numpy as np
import pytest

import mslab as ms
from mslab import nn
from mslab.core import dtype as mstype

MAX_FRAMES = 4  # functions between the line that calls the Cell and its construct (issue 25)


def _frames_to(marker):
    """How many frames lie between the ``construct`` that calls this and the caller function named ``marker``.

    Found by name and file, as GRAPH mode runs a converted ``construct`` (a new function from the same source).
    """
    stack = inspect.stack()
    here = [f for f in stack if f.filename == __file__]
    names = [f.function for f in stack]
    start = names.index("construct", names.index(here[0].function))
    return names.index(marker, start) - start - 1


class Leaf(nn.Cell):
    def __init__(self, seen, marker):
        super().__init__()
        self.seen, self.marker = seen, marker

    def construct(self, x):
        self.seen.append(_frames_to(self.marker))
        return x * 2


class Outer(nn.Cell):
    """Calls its child from a method named ``outer_call_site``: the frames counted are those of one layer call."""

    def __init__(self, seen):
        super().__init__()
        self.leaf = Leaf(seen, "outer_call_site")

    def construct(self, x):
        return self.outer_call_site(x)

    def outer_call_site(self, x):
        return self.leaf(x)


def call_site(net, x):
    return net(x)


X = ms.Tensor(np.ones((2, 3), np.float32))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_few_frames_between_the_call_and_construct(mode):
    ms.set_context(mode=mode)
    seen = []
    call_site(Leaf(seen, "call_site"), X)  # the outermost call (GRAPH mode: traced, then compiled)
    assert len(seen) == 1 and 0 < seen[0] <= MAX_FRAMES


def test_few_frames_for_a_nested_layer_call():
    seen = []
    Outer(seen)(X)
    assert len(seen) == 1 and 0 < seen[0] <= MAX_FRAMES


def test_hooks_add_no_frame():
    seen = []
    net = Leaf(seen, "call_site")
    net.register_forward_pre_hook(lambda cell, args: None)
    net.register_forward_hook(lambda cell, args, out: None)
    call_site(net, X)
    assert len(seen) == 1 and 0 < seen[0] <= MAX_FRAMES


class CountedStep(nn.TrainOneStepCell):
    """The README's first taste: a training step, whose own guard (all or nothing) adds no frame either."""

    seen = []

    def construct(self, *inputs):
        self.seen.append(_frames_to("step_call_site"))
        return nn.TrainOneStepCell.construct(self, *inputs)


def step_call_site(train, x, y):
    return train(x, y)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_few_frames_for_a_training_step(mode):
    ms.set_context(mode=mode)
    net = nn.Dense(1, 1)
    train = CountedStep(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    x = ms.Tensor(np.linspace(-1, 1, 16, dtype=np.float32).reshape(16, 1))
    CountedStep.seen.clear()
    step_call_site(train, x, 2 * x + 3)
    assert len(CountedStep.seen) == 1 and 0 < CountedStep.seen[0] <= MAX_FRAMES


class Small(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2)
        self.act = nn.ReLU()

    def construct(self, x):
        return self.act(self.fc(x))


class WithJitMethod(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2)

    @ms.jit
    def project(self, x):
        return self.fc(x)

    def construct(self, x):
        return self.project(x)


def test_a_jit_method_is_kept_in_a_declared_attribute():
    net = WithJitMethod()
    before = _attribute_names(net)
    first = net(X)
    assert _attribute_names(net) == before
    assert np.array_equal(net(X).asnumpy(), first.asnumpy())


def _attribute_names(net):
    return {path: set(cell.__dict__) for path, cell in net.cells_and_names()}


def test_the_runtime_sets_no_attribute_a_cell_did_not_declare():
    net = Small()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    before = _attribute_names(train)
    label = ms.Tensor(np.zeros((2, 2), np.float32))
    handle = net.fc.register_forward_hook(lambda cell, args, out: out)
    net.register_forward_pre_hook(lambda cell, args: None, with_kwargs=False)
    net.act.register_forward_hook(lambda cell, args, kwargs, out: None, with_kwargs=True, always_call=True)
    net.to_float(mstype.float16)
    train.set_train()
    train(X, label)  # PYNATIVE step
    with ms.record():
        net(X)
    ms.set_context(mode=ms.GRAPH_MODE)
    train(X, label)  # GRAPH step: traced and compiled
    net(X)
    handle.remove()
    net(X)
    assert _attribute_names(train) == before
