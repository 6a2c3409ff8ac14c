"""The graph front end carries out of a branch or loop only the variables still read after it (liveness).

MindSpore 2.10 compiles a tensor ``if``/``while`` that assigns a variable used only inside it: ``_`` in
``for _ in range(3)`` inside the ``if``, a counter ``j`` reset at the top of each outer iteration. The
numbers below were printed by MindSpore 2.10 CPU, identical in GRAPH_MODE and PYNATIVE_MODE.
"""
import ast
import textwrap

import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, nn
from mslab.common import dtype as mstype
from mslab.ir import source_facts as facts


class LoopLocals(nn.Cell):
    def construct(self, x, n):
        out = x
        if x.sum() > 0:
            for _ in range(3):  # `_` is read nowhere: it stays inside the branch
                out = out * 2
        i = 0
        while i < n:
            j = 0  # reset before each inner loop: not carried by the outer loop
            while j < 2:
                out = out + 1
                j = j + 1
            i = i + 1
        return out


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
@pytest.mark.parametrize("x, n, expected", [([1.0, 2.0], 2, [12.0, 20.0]), ([-1.0, -2.0], 1, [1.0, 0.0])])
def test_variables_used_only_inside_a_loop_or_branch_need_no_value_before_it(mode, x, n, expected):
    ms.set_context(mode=mode)
    out = LoopLocals()(Tensor(np.array(x, np.float32)), Tensor(n, mstype.int32))
    np.testing.assert_array_equal(out.asnumpy(), np.array(expected, np.float32))


def _live_after_first_statement(source):
    stmts = ast.parse(textwrap.dedent(source)).body
    return facts.live_after_each(stmts, set())[0]


def test_liveness_names_what_is_read_later_before_being_assigned():
    # `y` is read after the `if`; `t` is assigned again before anyone reads it
    assert _live_after_first_statement("""
        if c:
            y = 1
            t = 2
        t = 3
        print(y + t)
    """) == {"y", "print"}
    # the loop counter `i` is read by the loop's own condition: live at its head, so carried
    head = facts.loop_head_live(ast.parse("while i < n:\n    j = 0\n    i = i + j").body[0], {"i"})
    assert head == {"i", "n"}
