"""Cast's gradient is ``cast(dout, x.dtype)`` for an integer x too, as in MindSpore (it was zeros).

Mixed int/float arithmetic casts the int side, so this decides the gradient of every such expression
w.r.t. an int input (MindSpore's test_302_for_after_for: [4]). Numbers printed by MindSpore 2.10 CPU,
the same in GRAPH and PYNATIVE mode.
"""
import numpy as np
import pytest

import mslab as ms
from mslab import Parameter, Tensor, ops


def to_float_times_4(x):
    return ops.cast(x, ms.float32) * 4


def times_3_to_float_times_4(x):
    return ops.cast(x * 3, ms.float32) * 4


def to_float_times_4_7(x):
    return ops.cast(x, ms.float32) * 4.7  # the float gradient 4.7 cast back to int32: 4


W = Parameter(Tensor(np.full((1,), 4, np.float32)), name="w")


def int_times_float_parameter(x):
    return ops.mul(x, W)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
@pytest.mark.parametrize("fn, want", [(to_float_times_4, 4), (times_3_to_float_times_4, 12),
                                      (to_float_times_4_7, 4), (int_times_float_parameter, 4)])
def test_gradient_through_a_cast_of_an_int32_input(mode, fn, want):
    ms.set_context(mode=mode)
    g = ms.grad(fn)(Tensor([1], ms.int32))
    assert g.dtype == ms.int32 and g.asnumpy().tolist() == [want]
