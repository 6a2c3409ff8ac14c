"""ops.HookBackward (issue 19): the hook sees and may replace the gradient in PYNATIVE mode, and is eliminated in
GRAPH mode, as observed on MindSpore 2.10 CPU (docs/mindspore_observed/opsthree.md)."""
import numpy as np
import pytest

import mslab as ms
from mslab import nn, ops
from mslab.common.tensor import Tensor
from mslab.ops import hook_ops
from mslab.testing import check_grad, check_modes, in_mode

X, Y = np.array([1.0, 2.0], np.float32), np.array([3.0, 4.0], np.float32)


class Net(nn.Cell):
    def __init__(self, hook_fn):
        super().__init__()
        self.hook = ops.HookBackward(hook_fn)

    def construct(self, x, y):
        return self.hook(x * y) * y


def test_hook_replaces_the_gradient_in_pynative_mode():
    seen = []

    def double(grad):
        seen.append(grad)
        return grad[0] * 2
    net = Net(double)
    # observed on MindSpore 2.10 CPU: out [9 32], hook got ([3 4],), grads ([18 32], [9 24])
    assert net(Tensor(X), Tensor(Y)).asnumpy().tolist() == [9.0, 32.0]
    gx, gy = ops.GradOperation(get_all=True)(net)(Tensor(X), Tensor(Y))
    assert isinstance(seen[0], tuple) and seen[0][0].asnumpy().tolist() == [3.0, 4.0]
    assert gx.asnumpy().tolist() == [18.0, 32.0] and gy.asnumpy().tolist() == [9.0, 24.0]
    # a hook returning None leaves the gradient alone (observed: [2 4])
    printer = ops.HookBackward(lambda grad: None)
    assert ops.grad(lambda a: printer(a * a).sum())(Tensor(X)).asnumpy().tolist() == [2.0, 4.0]
    assert repr(printer) == "Prim[HookBackward]<cell_id=>"
    check_grad(lambda a: printer(a * a), X.astype(np.float64))


def test_hook_is_eliminated_in_graph_mode():
    calls = []
    net = Net(lambda grad: calls.append(grad) or grad[0] * 2)
    with in_mode(ms.GRAPH_MODE):
        gx, gy = ops.GradOperation(get_all=True)(net)(Tensor(X), Tensor(Y))
    # observed on MindSpore 2.10 CPU: grads ([9 16], [6 16]) and the hook never runs
    assert gx.asnumpy().tolist() == [9.0, 16.0] and gy.asnumpy().tolist() == [6.0, 16.0] and calls == []
    check_modes(lambda a: ops.HookBackward(lambda g: None)(a * 2.0), Tensor(X))


def test_a_hook_must_return_a_tensor():
    bad = ops.HookBackward(lambda grad: grad)
    # observed on MindSpore 2.10 CPU: "The output type of function: hook_fn should be a tensor but got tuple."
    with pytest.raises(TypeError, match="should be a tensor but got tuple"):
        ops.grad(lambda a: bad(a * a).sum())(Tensor(X))
    with pytest.raises(TypeError, match="Expected a callable hook function, but got int"):  # observed
        ops.HookBackward(3)
    with pytest.raises(NotImplementedError, match="hooks one input only"):
        bad(Tensor(X), Tensor(Y))


def test_every_hook_primitive_is_tested():
    assert set(hook_ops.__all__) == {"HookBackward"}
