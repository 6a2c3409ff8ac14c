"""The gradient with respect to an integer tensor flows through the cast that promotes it (not zeros).

MindSpore 2.10 CPU, GRAPH_MODE and PYNATIVE_MODE alike: for an int32 ``x = [7]`` and a float32 ``p = [5.]``,
``grad(x * p)`` is ``Int32 [5]`` (the float gradient cast back to the input's dtype), as is
``grad(cast(x, float32) * p)``; ``grad(x * 2)`` is ``[2]``.
"""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, ops
from mslab.common import dtype as mstype

P = Tensor(np.full((1,), 5, np.float32))


def times_float(x):
    return x * P


def cast_then_times(x):
    return ops.cast(x, mstype.float32) * P


def times_int(x):
    return x * 2


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
@pytest.mark.parametrize("fn, expected", [(times_float, 5), (cast_then_times, 5), (times_int, 2)])
def test_gradient_with_respect_to_an_int_input(mode, fn, expected):
    ms.set_context(mode=mode)
    g = ms.grad(fn)(Tensor([7], mstype.int32))
    assert g.dtype == mstype.int32
    np.testing.assert_array_equal(g.asnumpy(), [expected])
