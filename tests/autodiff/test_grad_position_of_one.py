"""``grad(f, (0,))`` returns one Tensor, as MindSpore 2.10 does, not a tuple of one (issue 28).

Observed on MindSpore 2.10 CPU, both modes (docs/mindspore_observed/wrongvals.md): grad and value_and_grad with a
one-position tuple give a Tensor, also with weights, has_aux and return_ids; GradOperation(get_all=True) of a
one-input function still gives a tuple of one."""
import numpy as np
import pytest

import mslab as ms
from mslab import ops
from mslab.common.tensor import Parameter, Tensor

A = np.array([1.0, 2.0], np.float32)
B = np.array([3.0, 4.0], np.float32)


def product(a, b):
    return (a * b).sum()


def run(mode, fn, *args):
    ms.set_context(mode=mode)
    try:
        return fn(*args)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_one_position_tuple_gives_a_tensor(mode):
    a, b = Tensor(A), Tensor(B)
    g = run(mode, ms.grad(product, (0,)), a, b)
    assert isinstance(g, Tensor) and g.asnumpy().tolist() == [3.0, 4.0]
    g = run(mode, ops.grad(product, (1,)), a, b)
    assert isinstance(g, Tensor) and g.asnumpy().tolist() == [1.0, 2.0]
    value, g = run(mode, ms.value_and_grad(product, (0,)), a, b)
    assert float(value.asnumpy()) == 11.0 and isinstance(g, Tensor)
    both = run(mode, ms.grad(product, (0, 1)), a, b)
    assert isinstance(both, tuple) and len(both) == 2


def test_one_position_tuple_with_weights_aux_and_ids():
    a, b = Tensor(A), Tensor(B)
    w = Parameter(Tensor(np.array([2.0, 2.0], np.float32)), name="w")

    def weighted(x, y):
        return (x * y * w).sum()

    def with_aux(x, y):
        return (x * y).sum(), x

    gi, gw = ms.grad(weighted, (0,), weights=[w])(a, b)
    assert isinstance(gi, Tensor) and gi.asnumpy().tolist() == [6.0, 8.0]
    assert isinstance(gw, tuple) and gw[0].asnumpy().tolist() == [3.0, 8.0]
    gi, gw = ms.grad(weighted, (0,), weights=w)(a, b)
    assert isinstance(gi, Tensor) and isinstance(gw, Tensor)
    g, aux = ms.grad(with_aux, (0,), has_aux=True)(a, b)
    assert isinstance(g, Tensor) and aux[0].asnumpy().tolist() == [1.0, 2.0]
    position, g = ms.grad(weighted, (0,), return_ids=True)(a, b)
    assert position == 0 and g.asnumpy().tolist() == [6.0, 8.0]
    only = ops.GradOperation(get_all=True)(lambda x: (x * x).sum())(a)
    assert isinstance(only, tuple) and len(only) == 1
