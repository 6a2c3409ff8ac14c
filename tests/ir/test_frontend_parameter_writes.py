"""``self.w = v``, ``self.w += v`` and ``a = self.w; a += v`` in GRAPH mode write into the Parameter (Assign).

Observed on MindSpore 2.10 CPU: an attribute holding a Parameter stays that Parameter and takes the new
value (GRAPH_MODE compiles an Assign; PYNATIVE's ``Cell.__setattr__`` calls ``set_data``), and in
GRAPH_MODE only, ``x op= v`` on a variable holding a Parameter writes the result into it too.
"""
import numpy as np
import pytest

import mslab as ms
from mslab import Parameter, Tensor, nn
from mslab.common import dtype as mstype


class WriteInNestedIf(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = Parameter(Tensor(5, mstype.int32), name="a")
        self.b = Parameter(Tensor(4, mstype.int32), name="b")

    def construct(self, x):
        if self.a > self.b:
            x += 10
            if x > self.a:
                self.b += 1
                x += self.a
        return x


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_augmented_attribute_assignment_writes_the_parameter(mode):
    ms.set_context(mode=mode)
    net = WriteInNestedIf()
    assert int(net(Tensor(2, mstype.int32))) == 17
    assert isinstance(net.b, Parameter) and int(net.b.asnumpy()) == 5
    assert int(net(Tensor(2, mstype.int32))) == 2  # b is 5 now: a > b is False (MindSpore: 17, then 2)


class WriteThroughAVariable(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(5, mstype.int32), name="p")
        self.q = Parameter(Tensor(5, mstype.int32), name="q")

    def construct(self, x):
        a = self.p
        a += x  # GRAPH mode: writes p
        b = self.q
        b = b + x  # a new value: q unchanged
        return a, b


@pytest.mark.parametrize("mode, p_after", [(ms.GRAPH_MODE, 7), (ms.PYNATIVE_MODE, 5)])
def test_augmented_assignment_to_a_variable_holding_a_parameter(mode, p_after):
    ms.set_context(mode=mode)
    net = WriteThroughAVariable()
    a, b = net(Tensor(2, mstype.int32))
    assert (int(a), int(b)) == (7, 7)
    assert (int(net.p.asnumpy()), int(net.q.asnumpy())) == (p_after, 5)


class ScaleParameter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(np.array([3.0], np.float32)), name="p")

    def construct(self, x):
        out = self.p
        out *= x
        return out


@pytest.mark.parametrize("mode, p_after", [(ms.GRAPH_MODE, 6.0), (ms.PYNATIVE_MODE, 3.0)])
def test_gradient_through_a_parameter_write_sees_the_value_before_it(mode, p_after):
    ms.set_context(mode=mode)
    net = ScaleParameter()
    grad = ms.grad(net, grad_position=0)(Tensor(np.array([2.0], np.float32)))
    np.testing.assert_allclose(grad.asnumpy(), [3.0])  # d(p * x)/dx with p = 3, the value before the write
    np.testing.assert_allclose(net.p.asnumpy(), [p_after])
