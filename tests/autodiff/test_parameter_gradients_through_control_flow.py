"""A Parameter read inside an ``if`` or ``while`` on a tensor gets its gradient through the If/While node.

A branch or a loop body reads a Parameter where it lives (it is no input of the control-flow node), so the
node names the Parameters its subgraphs read and its bprop returns their gradients; before, GRAPH mode gave
them silently as zeros (MindSpore's own test_cont_grad.py: zeros where MindSpore gives 8). Every number
below was printed by MindSpore 2.10 CPU, the same in GRAPH and PYNATIVE mode, for
``GradOperation(get_all=True, get_by_list=True)`` at x = [0.5, -1.5], i = 0 and the loop bound n.
"""
import numpy as np
import pytest

import mslab as ms
from mslab import Parameter, Tensor, nn, ops

f32 = np.float32


class WhileNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, 2.0], f32)), name="w")

    def construct(self, i, n, x):
        out = x
        while i < n:
            out = out * self.w + x
            i = i + 1
        return out + self.w


class IfNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, 2.0], f32)), name="w")

    def construct(self, i, n, x):
        if i < n:
            out = x * self.w * self.w
        else:
            out = x - self.w
        return out


class IfInWhileNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, 2.0], f32)), name="w")
        self.v = Parameter(Tensor(np.array([3.0, -1.0], f32)), name="v")

    def construct(self, i, n, x):
        out = x
        while i < n:
            if i % 2 == 0:
                out = out * self.w
            else:
                out = out + self.v * x
            i = i + 1
        return out


class WhileInIfNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, 2.0], f32)), name="w")

    def construct(self, i, n, x):
        out = x
        if i < n:
            while i < n:
                out = out * self.w
                i = i + 1
        return out


# (network, n, d/dx, [d/dw per Parameter]): MindSpore 2.10's output
CASES = [
    (WhileNet, 0, [1.0, 1.0], [[1.0, 1.0]]),
    (WhileNet, 3, [4.0, 15.0], [[4.0, -24.5]]),
    (IfNet, 0, [1.0, 1.0], [[-1.0, -1.0]]),
    (IfNet, 3, [1.0, 4.0], [[1.0, -6.0]]),
    (IfInWhileNet, 0, [1.0, 1.0], [[0.0, 0.0], [0.0, 0.0]]),
    (IfInWhileNet, 3, [4.0, 2.0], [[2.5, -4.5], [0.5, -3.0]]),
    (WhileInIfNet, 0, [1.0, 1.0], [[0.0, 0.0]]),
    (WhileInIfNet, 3, [1.0, 8.0], [[1.5, -18.0]]),
]


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
@pytest.mark.parametrize("cls, n, dx, dws", CASES, ids=[f"{c[0].__name__}-n{c[1]}" for c in CASES])
def test_parameter_gradients_match_mindspore(mode, cls, n, dx, dws):
    ms.set_context(mode=mode)
    net = cls()
    grad = ops.GradOperation(get_all=True, get_by_list=True)(net, net.trainable_params())
    gi, gw = grad(Tensor(0, ms.int32), Tensor(n, ms.int32), Tensor(np.array([0.5, -1.5], f32)))
    np.testing.assert_allclose(gi[2].asnumpy(), dx, rtol=1e-6)
    assert len(gw) == len(dws)
    for g, want in zip(gw, dws):
        np.testing.assert_allclose(g.asnumpy(), want, rtol=1e-6)


def test_the_loop_names_the_parameters_its_body_reads():
    """The While node lists both Parameters (Primitive.parameters), v through the If nested in its body."""
    net = IfInWhileNet()
    graph = ms.trace(net, Tensor(0, ms.int32), Tensor(3, ms.int32), Tensor(np.ones(2, f32)))
    (loop,) = [n for n in graph.nodes if n.prim.name == "While"]
    assert [p.name for p in loop.prim.parameters] == ["w", "v"]
    (branch,) = [n for n in loop.prim.body_graph.nodes if n.prim.name == "If"]
    assert [p.name for p in branch.prim.parameters] == ["w", "v"]
