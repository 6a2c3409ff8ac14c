"""A Cell's own ``bprop`` replaces autodiff inside it, in both modes (numbers observed on MindSpore 2.10 CPU)."""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, nn


class Net(nn.Cell):
    def construct(self, x):
        return x * 3

    def bprop(self, x, out, dout):
        return (dout * 100,)


class Two(nn.Cell):
    def construct(self, x, y):
        return x * y

    def bprop(self, x, y, out, dout):
        return dout * 2, dout * y * 10


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Two()
        self.w = ms.Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")

    def construct(self, x, y):
        return self.inner(x * self.w, y).sum()


X = Tensor(np.array([1.0, 2.0], np.float32))
Y = Tensor(np.array([3.0, 4.0], np.float32))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_cell_bprop_replaces_autodiff(mode):
    ms.set_context(mode=mode)
    try:
        assert ms.grad(Net())(X).asnumpy().tolist() == [100, 100]  # autodiff alone would give 3
        gx, gy = ms.grad(Two(), grad_position=(0, 1))(X, Y)
        assert gx.asnumpy().tolist() == [2, 2] and gy.asnumpy().tolist() == [30, 40]
        o = Outer()
        (gx, gy), (gw,) = ms.grad(o, grad_position=(0, 1), weights=o.trainable_params())(X, Y)
        # observed on MindSpore 2.10: ([4, 6], [30, 40]) and ([2, 4],): the Cell's rule, chained by autodiff
        assert gx.asnumpy().tolist() == [4, 6] and gy.asnumpy().tolist() == [30, 40]
        assert gw.asnumpy().tolist() == [2, 4]
        assert Net()(X).asnumpy().tolist() == [3, 6]  # the forward is construct's
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_the_graph_shows_one_node_for_the_cell():
    graph = ms.trace(ms.grad(Net()), X)
    names = [n.prim.name for n in graph.nodes]
    assert "Net.bprop" in names and "Mul" in names  # the forward node, and dout * 100 from its rule


def test_a_subclass_keeps_its_parents_bprop():
    class Scaled(Net):
        pass

    assert ms.grad(Scaled())(X).asnumpy().tolist() == [100, 100]
