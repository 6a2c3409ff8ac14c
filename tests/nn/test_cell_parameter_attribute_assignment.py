"""``self.weight = t`` inside ``construct`` writes t into the Parameter, as MindSpore does; it never replaces it.

MindSpore turns the assignment into an Assign (GRAPH) or a write of the numbers (PYNATIVE): the attribute
stays the same Parameter, later reads see the new value, and no gradient flows through the write. (mslab
replaced the Parameter with a tensor: a later ``ops.assign(self.weight, ...)`` failed, and gradients flowed
through a value MindSpore treats as a Parameter: MindSpore's test_302_for_after_for gave [0] for [4].)
Numbers printed by MindSpore 2.10 CPU, the same in both modes.
"""
import numpy as np
import pytest

import mslab as ms
from mslab import Parameter, Tensor, nn

f32 = np.float32


class Doubles(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = Parameter(Tensor(np.array([1.0], f32)), name="w")

    def construct(self, x):
        self.weight = x * 2
        return self.weight + 1


class WritesInABranch(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = Parameter(Tensor(np.array([1.0], f32)), name="w")

    def construct(self, x):
        if x.sum() > 0:
            self.weight = x * 3
        return x * self.weight


X = Tensor(np.array([3.0], f32))


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_the_attribute_stays_the_parameter_and_takes_the_value(mode):
    ms.set_context(mode=mode)
    net = Doubles()
    w = net.weight
    assert net(X).asnumpy().tolist() == [7.0]
    assert net.weight is w and isinstance(net.weight, Parameter)
    assert net.weight.asnumpy().tolist() == [6.0]
    assert ms.grad(Doubles())(X).asnumpy().tolist() == [0.0]  # no gradient through the write


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_a_write_in_a_tensor_branch(mode):
    ms.set_context(mode=mode)
    net = WritesInABranch()
    assert net(X).asnumpy().tolist() == [27.0] and net.weight.asnumpy().tolist() == [9.0]
    assert net(-X).asnumpy().tolist() == [-27.0] and net.weight.asnumpy().tolist() == [9.0]
    assert ms.grad(WritesInABranch())(X).asnumpy().tolist() == [9.0]
    assert ms.grad(WritesInABranch())(-X).asnumpy().tolist() == [1.0]


class AssignsANumber(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = Parameter(Tensor(np.array(1.0, f32)), name="w")

    def construct(self, x):
        self.weight = 5
        return self.weight + x


def test_a_number_is_written_in_graph_mode_and_refused_in_pynative():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = AssignsANumber()
    assert net(X).asnumpy().tolist() == [8.0] and net.weight.asnumpy().tolist() == 5.0
    ms.set_context(mode=ms.PYNATIVE_MODE)
    with pytest.raises(TypeError, match="Parameter 'weight' already exists in network, can not assign this type: "
                                        "'<class 'int'>' as a parameter."):
        AssignsANumber()(X)
