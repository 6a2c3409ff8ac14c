"""A function that calls itself, stopping on a tensor's value, compiles to a graph that calls itself.

Numbers printed by MindSpore 2.10 CPU (GRAPH_MODE and PYNATIVE_MODE agree). A recursion with no path that
stops is refused while compiling, as MindSpore does (``RuntimeError: There isn't any branch that can be
evaluated. Please check the code if it has the infinite recursion or loop.``).
"""
import pytest

import mslab as ms
from mslab import Tensor, jit, nn
from mslab.autodiff.recursion import CallGraph
from mslab.common import dtype as mstype

ONE = Tensor([1], mstype.int32)
ZERO = Tensor([0], mstype.int32)


def count_down(x):
    if x > 0:
        return count_down(x - 1) + 1
    return ONE


def steps(x):
    y = ZERO
    if x < 0:
        y = ONE
    elif x < 3:
        y = x * steps(x - 1)
    elif x < 5:
        y = x * steps(x - 2)
    else:
        y = steps(x - 4)
    z = y + 1
    return z


def endless(x):
    if x > 0:
        return endless(x - 1)
    return endless(x + 1)


class Recursions(nn.Cell):
    def construct(self, x):
        return count_down(x), steps(x)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
@pytest.mark.parametrize("x, expected", [(3, (4, 7)), (5, (6, 3))])
def test_recursion_with_a_tensor_stop(mode, x, expected):
    ms.set_context(mode=mode)
    a, b = Recursions()(Tensor([x], mstype.int32))
    assert (int(a.asnumpy()[0]), int(b.asnumpy()[0])) == expected
    assert int(jit(steps)(Tensor([7], mstype.int32)).asnumpy()[0]) == 8


def _nodes(graph):
    for n in graph.nodes:
        yield n
        for _, sub in n.prim.subgraphs:
            yield from _nodes(sub)


def test_the_recursive_call_is_a_node_of_the_graph_itself():
    ms.set_context(mode=ms.GRAPH_MODE)
    calls = [n for n in _nodes(ms.trace(Recursions(), Tensor([3], mstype.int32))) if isinstance(n.prim, CallGraph)]
    outermost = [n for n in calls if n.prim.subgraphs]
    assert len(outermost) == 2  # count_down and steps, each compiled once as a graph of its own
    for n in calls:  # every call, inside its own graph too, runs that graph
        assert n.prim.fn.graph in [o.prim.subgraphs[0][1] for o in outermost]


def test_a_recursion_that_never_stops_is_refused_while_compiling():
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(RuntimeError, match="There isn't any branch that can be evaluated.*infinite recursion or loop"):
        jit(endless)(Tensor([5], mstype.int32))
