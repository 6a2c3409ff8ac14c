"""P.ScatterAdd / Sub / Mul / Div / Max / Min / Update (and ops.scatter_*): rows of a Parameter updated in place, one
update after another (issue 28). Values, errors and gradients observed on MindSpore 2.10 CPU, both modes
(docs/mindspore_observed/wrongvals.md, scat.py)."""
import numpy as np
import pytest

import mslab as ms
from mslab import nn, ops
from mslab.common.tensor import Parameter, Tensor
from mslab.ops import operations as P

IDX = Tensor(np.array([[0, 1], [1, 1]], np.int32))
UPD = np.array([[[1.0] * 3, [3.0] * 3], [[7.0] * 3, [9.0] * 3]], np.float32)
W = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))
# observed on MindSpore 2.10 CPU: x = [[2 2 2] [4 4 4]] after op(x, IDX, UPD); row 1 takes 3, 7 and 9 in turn
AFTER = {"ScatterAdd": [3.0, 23.0], "ScatterSub": [1.0, -15.0], "ScatterMul": [2.0, 756.0],
         "ScatterDiv": [2.0, 0.021164022386074066], "ScatterMax": [2.0, 9.0], "ScatterMin": [1.0, 3.0],
         "ScatterUpdate": [1.0, 9.0]}


def start():
    return Parameter(Tensor(np.array([[2.0] * 3, [4.0] * 3], np.float32)), name="x")


@pytest.mark.parametrize("name", list(AFTER))
def test_scatter_updates_rows_in_place_one_after_another(name):
    x = start()
    out = getattr(P, name)()(x, IDX, Tensor(UPD))
    want = [[AFTER[name][0]] * 3, [AFTER[name][1]] * 3]
    np.testing.assert_allclose(x.asnumpy(), want, rtol=1e-7)
    np.testing.assert_array_equal(out.asnumpy(), x.asnumpy())
    y = start()
    getattr(ops, name.replace("Scatter", "scatter_").lower())(y, IDX, Tensor(UPD))
    np.testing.assert_array_equal(y.asnumpy(), x.asnumpy())


def test_scatter_div_of_integers_truncates_and_bad_rows_are_refused():
    xi = Parameter(Tensor(np.array([7, -7, 9], np.int32)), name="xi")
    P.ScatterDiv()(xi, Tensor(np.array([0, 1], np.int32)), Tensor(np.array([2, 2], np.int32)))
    assert xi.asnumpy().tolist() == [3, -3, 9]   # observed
    z = Parameter(Tensor(np.zeros((2, 3), np.float32)), name="z")
    with pytest.raises(RuntimeError, match=r"For 'ScatterAdd', the value of indices should be in \[0, 2\), but got"):
        P.ScatterAdd()(z, Tensor(np.array([2], np.int32)), Tensor(np.ones((1, 3), np.float32)))
    with pytest.raises(ValueError, match="indices.shape"):
        P.ScatterAdd()(z, Tensor(np.array([1], np.int32)), Tensor(np.ones((2, 3), np.float32)))


class Weighted(nn.Cell):
    def __init__(self, name):
        super().__init__()
        self.x = start()
        self.op = getattr(P, name)()

    def construct(self, u):
        return (self.op(self.x, IDX, u) * W).sum()


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_scatter_gradients_as_mindspore(mode):
    ms.set_context(mode=mode)
    try:
        for name in ("ScatterMax", "ScatterMin", "ScatterUpdate"):
            # observed: each update gets dout at the row it names, also one a later duplicate overwrote
            g = ms.grad(Weighted(name))(Tensor(UPD))
            assert g.asnumpy().tolist() == [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[4.0, 5.0, 6.0], [4.0, 5.0, 6.0]]]
        for name in ("ScatterAdd", "ScatterSub", "ScatterMul", "ScatterDiv"):
            with pytest.raises(RuntimeError, match=f"Illegal primitive: Primitive {name}'s bprop not defined"):
                ms.grad(Weighted(name))(Tensor(UPD))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
