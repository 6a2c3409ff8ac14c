"""Compiled graphs neither pile up nor go stale (issue #12).

A graph depends on the Cells it was traced through (their training flags and attributes): a change to
one Cell recompiles only graphs that ran through it; graphs for training and for evaluation live side
by side; each cache keeps at most ``graph_cache_size`` graphs, dropping the least recently used.
"""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, nn
from mslab.runtime import compiled
from mslab.runtime.cell_call import compiled_graphs


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE, graph_cache_size=16)


@pytest.fixture
def traces(monkeypatch):
    count = [0]
    real = compiled.trace

    def counting(*args, **kwargs):
        count[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(compiled, "trace", counting)
    return count


def x(n=4):
    return Tensor(np.ones((n, 3), np.float32))


def test_training_and_evaluation_graphs_live_side_by_side(traces):
    ms.set_seed(0)
    net = nn.SequentialCell([nn.Dense(3, 4), nn.Dropout(p=0.5), nn.Dense(4, 2)])
    for _ in range(250):
        net.set_train(True)
        net(x())
        net.set_train(False)
        net(x())
    assert traces[0] == 2 and len(compiled_graphs(net)) == 2


def test_a_new_cell_leaves_other_graphs_alone(traces):
    net = nn.Dense(3, 2)
    net(x())
    for _ in range(20):
        nn.Dense(3, 2)  # building other Cells writes their attributes: not this graph's business
        net(x())
    assert traces[0] == 1


def test_an_attribute_write_recompiles_only_graphs_that_read_it(traces):
    class Scaled(nn.Cell):
        def __init__(self):
            super().__init__()
            self.scale = 2.0

        def construct(self, x):
            return x * self.scale

    a, b = Scaled(), Scaled()
    assert a(x()).asnumpy()[0, 0] == 2.0 and b(x()).asnumpy()[0, 0] == 2.0
    a.scale = 3.0
    assert a(x()).asnumpy()[0, 0] == 3.0  # never a stale graph
    assert b(x()).asnumpy()[0, 0] == 2.0
    assert traces[0] == 3  # a twice, b once
    assert len(compiled_graphs(a)) == 1  # the outdated graph was dropped, not kept


def test_many_batch_sizes_stay_bounded():
    ms.set_context(graph_cache_size=4)
    assert ms.get_context("graph_cache_size") == 4
    net = nn.Dense(3, 2)
    for n in range(1, 30):
        net(x(n))
    assert len(compiled_graphs(net)) == 4
    shapes = sorted(g.inputs[0].shape[0] for g in compiled_graphs(net))
    assert shapes == [26, 27, 28, 29]  # the least recently used went first


def test_fit_with_validation_does_not_compile_a_graph_per_epoch(traces):
    import mslab.dataset as ds

    ms.set_seed(1)
    data = np.random.default_rng(0).normal(size=(32, 3)).astype(np.float32)
    label = data.sum(axis=1, keepdims=True).astype(np.float32)
    train = ds.NumpySlicesDataset({"x": data, "y": label}, shuffle=False).batch(8)
    valid = ds.NumpySlicesDataset({"x": data, "y": label}, shuffle=False).batch(8)
    net = nn.Dense(3, 1)
    model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01), metrics={"loss"})
    model.fit(6, train, valid_dataset=valid)
    first = traces[0]
    model.fit(6, train, valid_dataset=valid)
    assert traces[0] == first  # the second run reuses every graph
