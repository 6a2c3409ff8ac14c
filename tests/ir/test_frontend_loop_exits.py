"""``return`` inside a loop on tensors compiles (a flag and a break); ``for``/``while ... else`` are refused.

Numbers and messages printed by MindSpore 2.10 CPU (GRAPH_MODE and PYNATIVE_MODE agree on the numbers;
GRAPH_MODE raises ``RuntimeError: The 'while...else...' statement is not supported now.`` even when the
loop's condition is a Python value).
"""
import pytest

import mslab as ms
from mslab import Tensor, jit, nn
from mslab.common import dtype as mstype


class ReturnInWhile(nn.Cell):
    def construct(self, x, y):
        i = Tensor(0, mstype.int32)
        out = Tensor(0, mstype.int32)
        while i < 10:
            out = x * y + out
            if out > 20:
                return out * 2  # an expression: computed after the loop, on the values at the return
            i = i + 1
        return out


class ReturnInFor(nn.Cell):
    def construct(self, x):
        for i in range(5):
            x = x + i
            if x > 6:
                return x
        return x - 100


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_return_inside_a_tensor_loop(mode):
    ms.set_context(mode=mode)
    assert int(ReturnInWhile()(Tensor(1, mstype.int32), Tensor(3, mstype.int32))) == 42
    assert int(ReturnInWhile()(Tensor(1, mstype.int32), Tensor(1, mstype.int32))) == 10
    assert int(ReturnInFor()(Tensor(2, mstype.int32))) == 8
    assert int(ReturnInFor()(Tensor(-20, mstype.int32))) == -110


@jit
def while_else(x):
    while x < 3:
        x = x + 1
    else:
        x = x * 2
    return x


@jit
def for_else(x):
    for _ in range(3):
        x = x + 1
    else:
        x = x * 2
    return x


@pytest.mark.parametrize("fn, kind, line", [(while_else, "while", "while x < 3:"),
                                            (for_else, "for", "for _ in range(3):")])
def test_loop_else_is_refused_as_in_mindspore(fn, kind, line):
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(RuntimeError, match=rf"The '{kind}\.\.\.else\.\.\.' statement is not supported now\.") as e:
        fn(Tensor(0, mstype.int32))
    assert "test_frontend_loop_exits.py:" in str(e.value) and line in str(e.value)


class BreakThenReadTheLoopVariable(nn.Cell):
    def construct(self, x):
        y = x
        i = 0
        for i in range(5):  # noqa: B007 (i is read after the loop: the point of the test)
            y = y + 1
            if y > 3:
                break
        return y * i  # the item of the iteration that broke out (the loop goes on unrolled, its body skipped)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_the_loop_variable_after_a_tensor_break_is_the_one_it_broke_at(mode):
    ms.set_context(mode=mode)  # MindSpore 2.10: 8.0 and -20.0 in both modes
    assert float(BreakThenReadTheLoopVariable()(Tensor(1.0, mstype.float32))) == 8.0
    assert float(BreakThenReadTheLoopVariable()(Tensor(-10.0, mstype.float32))) == -20.0
