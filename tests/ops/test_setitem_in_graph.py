"""``x[index] = value`` inside a graph: a SetItem node gives the variable a new tensor.

MindSpore 2.10 CPU, GRAPH_MODE, for the Cell below with ``idx = 1``, ``x = arange(8).reshape(2, 2, 2)``,
``v = 7.0``: outputs ``x`` with ``x[1] = 7`` and ``y`` with ``y[0] = 2 * x[0] + 1``; the caller's ``x`` is
unchanged; ``grad`` with respect to ``(x, v)`` is ``[[[3, 3], [3, 3]], [[0, 0], [0, 0]]]`` and ``12.0``.
(In PYNATIVE_MODE MindSpore writes into the caller's tensor.)
"""
import numpy as np

import mslab as ms
from mslab import Tensor, nn
from mslab.common import dtype as mstype
from mslab.ops import index_ops
from mslab.testing import check_grad


class WriteItems(nn.Cell):
    def construct(self, idx, x, v):
        x[idx, :, 0:2] = v
        y = x * 2
        y[0] = y[0] + 1
        return x, y


def _x():
    return Tensor(np.arange(8).reshape(2, 2, 2).astype(np.float32))


def test_item_assignment_in_a_graph_is_a_new_value():
    ms.set_context(mode=ms.GRAPH_MODE)
    x = _x()
    new_x, y = WriteItems()(Tensor(1, mstype.int32), x, Tensor(7.0, mstype.float32))
    np.testing.assert_array_equal(new_x.asnumpy(), [[[0, 1], [2, 3]], [[7, 7], [7, 7]]])
    np.testing.assert_array_equal(y.asnumpy(), [[[1, 3], [5, 7]], [[14, 14], [14, 14]]])
    np.testing.assert_array_equal(x.asnumpy(), np.arange(8).reshape(2, 2, 2))  # the caller's tensor
    dx, dv = ms.grad(WriteItems(), grad_position=(1, 2))(Tensor(1, mstype.int32), _x(), Tensor(7.0, mstype.float32))
    np.testing.assert_array_equal(dx.asnumpy(), [[[3, 3], [3, 3]], [[0, 0], [0, 0]]])
    assert float(dv.asnumpy()) == 12.0


def test_setitem_gradients_match_central_differences():
    rng = np.random.default_rng(0)
    check_grad(lambda a, v: index_ops.setitem(a, (1, slice(None), slice(0, 1)), v) * a,
               rng.standard_normal((2, 2, 2)), rng.standard_normal((2, 1)))
    check_grad(lambda a, v: index_ops.setitem(a, (Tensor([0, 1], mstype.int32),), v),
               rng.standard_normal((3, 2)), rng.standard_normal((2,)))
