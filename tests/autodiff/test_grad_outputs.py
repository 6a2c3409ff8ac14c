"""What gradients come back as: integer inputs get integer gradients, ``return_ids`` and get_grad,
the functional ``grad``, and no gradient through ``Parameter.data``.

Observed on MindSpore 2.10 CPU (docs/mindspore_observed/behave.md).
"""
import numpy as np
import pytest

import mslab as ms
from mslab import Parameter, Tensor, nn, ops


class _IntNet(nn.Cell):
    def construct(self, x, y, z):
        return y * (z + 3 * (x + y))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_integer_inputs_get_integer_gradients(mode):
    ms.set_context(mode=mode)
    try:
        args = [Tensor(np.array(v, np.int32)) for v in (1, 2, 3)]
        g = ops.GradOperation(get_all=True)(_IntNet())(*args)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert [(int(t.asnumpy()), str(t.dtype)) for t in g] == [(6, "Int32"), (18, "Int32"), (2, "Int32")]  # MS 2.10


def test_return_ids_and_get_grad():
    w = Parameter(Tensor(np.array([2.0], np.float32)), name="w")
    v = Parameter(Tensor(np.array([5.0], np.float32)), name="v")

    def f(a, b):
        return (a * w * b + v).sum()

    a, b = Tensor(np.array([3.0], np.float32)), Tensor(np.array([4.0], np.float32))

    def plain(x):
        return tuple(plain(i) for i in x) if isinstance(x, tuple) else x if isinstance(x, (int, str)) else \
            x.asnumpy().tolist()

    # observed on MindSpore 2.10 CPU
    assert plain(ms.grad(f, 0, return_ids=True)(a, b)) == (0, [8.0])
    assert plain(ms.grad(f, (0, 1), return_ids=True)(a, b)) == ((0, [8.0]), (1, [6.0]))
    assert plain(ms.grad(f, None, weights=[w, v], return_ids=True)(a, b)) == (("w", [12.0]), ("v", [1.0]))
    out = ms.grad(f, (0, 1), weights=[w, v], return_ids=True)(a, b)
    assert plain(out) == (((0, [8.0]), (1, [6.0])), (("w", [12.0]), ("v", [1.0])))
    assert ms.get_grad(out, 1).asnumpy().tolist() == [6.0] and ops.get_grad(out, v).asnumpy().tolist() == [1.0]
    with pytest.raises(RuntimeError, match="Can not find the gradient for position or Parameter 5"):
        ms.get_grad(out, 5)
    assert plain(ms.grad(f, None, weights=w, return_ids=True)(a, b)) == ("w", [12.0])
    assert plain(ms.grad(f, 0, weights=w)(a, b)) == ([8.0], [12.0])  # one Parameter: its gradient alone
    assert ops.functional.grad is ms.grad and ops.functional.get_grad is ms.get_grad


def test_functional_grad():
    assert float(ops.functional.grad(lambda a: a * a)(Tensor(np.float32(3.0)))) == 6.0  # MindSpore 2.10


class _DataNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([2.0], np.float32)), name="w")

    def construct(self, x):
        return (self.w.data * x).sum()


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_no_gradient_through_parameter_data(mode):
    ms.set_context(mode=mode)
    try:
        net = _DataNet()
        x = Tensor(np.array([3.0], np.float32))
        assert float(net(x)) == 6.0
        (g,) = ms.grad(net, None, net.trainable_params())(x)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert g.asnumpy().tolist() == [0.0]  # observed on MindSpore 2.10 CPU, both modes
