"""ops.Print in PYNATIVE mode, and the Ascend-only float status ops refused on CPU.

Every expectation was printed by MindSpore 2.10 on CPU (docs/mindspore_observed/infra.md).
"""
import re

import numpy as np
import pytest

import mslab as ms
from mslab import nn, ops
from mslab.ops import operations as P

pytestmark = pytest.mark.usefixtures("restore_runtime_context")


# ---- Print -------------------------------------------------------------------------------------------
def test_print_in_pynative_shows_tensors_as_mindspore(capsys):
    p = P.Print()
    assert P.Print is ops.Print
    p(ms.Tensor(np.array([[1.5, 2], [3, 4]], np.float32)))
    p(ms.Tensor(np.array([1, 2, 3], np.int32)))
    p(ms.Tensor(np.array(2.5, np.float32)))
    p(ms.Tensor(np.array([True, False])))
    assert p("a", 1, 2.5, (1, 2)) is None
    p(ms.Tensor(np.arange(12, dtype=np.float64).reshape(2, 2, 3)))
    p(ms.Tensor(np.array([0.1, 2.5], np.float32)))
    # observed on MindSpore 2.10 CPU
    assert capsys.readouterr().out == """\
Tensor(shape=[2, 2], dtype=Float32, value=
[[ 1.50000000e+00,  2.00000000e+00],
 [ 3.00000000e+00,  4.00000000e+00]])
Tensor(shape=[3], dtype=Int32, value= [1, 2, 3])
Tensor(shape=[], dtype=Float32, value= 2.5)
Tensor(shape=[2], dtype=Bool, value= [ True, False])
a
1
2.5
(1, 2)
Tensor(shape=[2, 2, 3], dtype=Float64, value=
[[[ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00],
  [ 3.00000000e+00,  4.00000000e+00,  5.00000000e+00]],
 [[ 6.00000000e+00,  7.00000000e+00,  8.00000000e+00],
  [ 9.00000000e+00,  1.00000000e+01,  1.10000000e+01]]])
Tensor(shape=[2], dtype=Float32, value= [ 1.00000001e-01,  2.50000000e+00])
"""


class PrintsTuples(nn.Cell):
    def __init__(self):
        super().__init__()
        self.print = P.Print()

    def construct(self, x, y):
        print(("a", x, 1, (y, 2.5)))
        print([x, y])
        self.print(("z", x * 2))
        return x


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_print_of_a_tuple_in_a_graph_shows_its_items_one_a_line(mode, capsys):
    ms.set_context(mode=mode)
    PrintsTuples()(ms.Tensor(np.array([1.5, -0.0], np.float32)), ms.Tensor(np.array(3, np.int32)))
    out = capsys.readouterr().out
    if mode == ms.GRAPH_MODE:  # observed on MindSpore 2.10 CPU
        assert out == """\
a
Tensor(shape=[2], dtype=Float32, value=[ 1.50000000e+00 -0.00000000e+00])
1
3
2.5
Tensor(shape=[2], dtype=Float32, value=[ 1.50000000e+00 -0.00000000e+00])
3
z
Tensor(shape=[2], dtype=Float32, value=[ 3.00000000e+00 -0.00000000e+00])
"""
    else:  # Python's print shows the tuple's repr; ops.Print too (observed on MindSpore 2.10 CPU)
        assert out == ("('a', Tensor(shape=[2], dtype=Float32, value= [ 1.50000000e+00, -0.00000000e+00]), 1, "
                       "(Tensor(shape=[], dtype=Int32, value= 3), 2.5))\n"
                       "[Tensor(shape=[2], dtype=Float32, value= [ 1.50000000e+00, -0.00000000e+00]), "
                       "Tensor(shape=[], dtype=Int32, value= 3)]\n"
                       "('z', Tensor(shape=[2], dtype=Float32, value= [ 3.00000000e+00, -0.00000000e+00]))\n")


# ---- Ascend-only float-status ops ------------------------------------------------------------------------
class StatusNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.alloc, self.get, self.clear = P.NPUAllocFloatStatus(), P.NPUGetFloatStatus(), P.NPUClearFloatStatus()

    def construct(self, x):
        s = self.clear(self.alloc())
        y = x * 2
        return y, self.get(s)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_float_status_ops_are_unsupported_on_cpu(mode):
    ms.set_context(mode=mode)
    x = ms.Tensor(np.array([1.0, np.inf, 2], np.float32))
    # observed on MindSpore 2.10 CPU: built fine, RuntimeError when run (at compile time in GRAPH mode)
    with pytest.raises(RuntimeError, match=re.escape("Unsupported op [NPUAllocFloatStatus] on CPU")):
        StatusNet()(x)
    for name, args in [("FloatStatus", (x,)), ("NPUAllocFloatStatus", ()),
                       ("NPUClearFloatStatus", (ms.Tensor(np.zeros(8, np.float32)),)),
                       ("NPUGetFloatStatus", (ms.Tensor(np.zeros(8, np.float32)),))]:
        with pytest.raises(RuntimeError, match=re.escape(f"Unsupported op [{name}] on CPU")):
            getattr(P, name)()(*args)
