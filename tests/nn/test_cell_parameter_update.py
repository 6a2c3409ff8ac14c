"""Assigning a Tensor to a Parameter attribute updates the Parameter, as in MindSpore 2.10 (``Cell.__setattr__``
calls ``set_data``; in GRAPH mode the assignment becomes an Assign): ``self.step += 1`` in construct counts.
mindcv's training step counts its EMA updates this way."""
import pytest

import mslab as ms
from mslab import Parameter, Tensor, nn, ops
from mslab.core.context import in_mode


class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.step = Parameter(Tensor(0, ms.int32), name="step")

    def construct(self, x):
        self.step += 1
        if self.step >= 2:
            ops.assign(self.step, 0)
        return x * 2


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_augmented_assignment_updates_the_parameter(mode):
    with in_mode(mode):
        net = Counter()
        step = net.step
        counts = []
        for _ in range(3):
            net(Tensor([1.0]))
            counts.append(int(net.step.asnumpy()))
        assert counts == [1, 0, 1]  # MindSpore 2.10, both modes (observed)
        assert net.step is step and [p.name for p in net.get_parameters()] == ["step"]


class ResetByNumber(nn.Cell):
    def __init__(self):
        super().__init__()
        self.step = Parameter(Tensor(0, ms.int32), name="step")

    def construct(self, x):
        self.step += 1
        if self.step >= 2:
            self.step = 0
        return x * 2


def test_a_number_assigned_to_a_parameter_is_an_assign_in_graph_mode_and_refused_eagerly():
    with in_mode(ms.GRAPH_MODE):  # MindSpore 2.10 compiles it to an assignment (mindcv's GradientAccumulation)
        net = ResetByNumber()
        counts = []
        for _ in range(3):
            net(Tensor([1.0]))
            counts.append(int(net.step.asnumpy()))
        assert counts == [1, 0, 1]
    with pytest.raises(TypeError, match=r"^Parameter 'step' already exists in network, can not assign this type: "
                                        r"'<class 'int'>' as a parameter\.$"):  # MindSpore 2.10's PYNATIVE error
        net = ResetByNumber()
        for _ in range(2):
            net(Tensor([1.0]))
