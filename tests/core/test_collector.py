"""core.collector: a top-level call pauses Python's cycle collector and turns it back on afterwards."""
import gc

import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, nn, ops
from mslab.core.collector import collector_paused


class Probe(nn.Cell):
    """Records whether the collector ran automatically while construct ran."""

    def construct(self, x):
        self.seen = gc.isenabled()
        return x * 2


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_a_cell_call_pauses_the_collector_and_restores_it(mode):
    ms.set_context(mode=mode)
    try:
        net = Probe()
        net(Tensor(np.ones(3, np.float32)))
        assert net.seen is False and gc.isenabled()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_a_gradient_call_pauses_it_and_an_error_restores_it():
    seen = []

    def f(x):
        seen.append(gc.isenabled())
        return ops.reduce_sum(x * x, ())

    ops.GradOperation()(f)(Tensor(np.ones(3, np.float32)))
    assert seen == [False] and gc.isenabled()

    def bad(x):
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        ops.GradOperation()(bad)(Tensor(np.ones(3, np.float32)))
    assert gc.isenabled()


def test_nested_pauses_and_a_collector_someone_else_turned_off_are_left_alone():
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # not ours to turn on
    finally:
        gc.enable()
