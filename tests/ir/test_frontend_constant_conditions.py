"""An ``if`` whose condition is computed from constants alone picks its branch while compiling.

MindSpore 2.10 CPU, GRAPH_MODE, with Tensor attributes ``input1 = [True, True, False]``, ``input2 = [False]``:
``if self.input1.all() == self.input2: return self.input1.any()`` / ``return self.input2`` returns
``Tensor(shape=[], dtype=Bool, value= True)``: the branches differ in shape (``bool[]`` and ``bool[1]``),
which is fine when the condition is known while compiling. With a condition on the inputs, MindSpore joins
the two shapes (each call returns the shape of the branch it took); mslab does not, and says so.
"""
import pytest

import mslab as ms
from mslab import Tensor, nn
from mslab.core.errors import GraphModeError


class ConstantCondition(nn.Cell):
    def __init__(self, input1, input2):
        super().__init__()
        self.input1 = input1
        self.input2 = input2

    def construct(self):
        if self.input1.all() == self.input2:
            return self.input1.any()
        return self.input2


class InputCondition(nn.Cell):
    def construct(self, a, b):
        if a.all() == b:
            return a.any()
        return b


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_a_condition_on_constants_picks_its_branch_while_compiling(mode):
    ms.set_context(mode=mode)
    out = ConstantCondition(Tensor([True, True, False]), Tensor([False]))()
    assert out.shape == () and bool(out.asnumpy())


def test_branches_of_different_shapes_under_a_variable_condition_are_refused_with_the_line():
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(GraphModeError, match=r"bool\[\] in one branch of this `if` and bool\[1\] in another") as e:
        InputCondition()(Tensor([True, True, False]), Tensor([False]))
    assert "test_frontend_constant_conditions.py" in str(e.value) and "if a.all() == b:" in str(e.value)
