"""Control-flow workloads (issue #10): a ``while`` on a tensor around 50 training steps, and an ``if`` inside
a training step. mslab runs each in GRAPH mode (one compiled While / If node) and PYNATIVE mode (Python
control flow); PyTorch eager gets the same network, data and optimizer.

* ``while``: an 8-32-1 MLP trained with SGD (lr 0.01) for 50 steps inside ``while i < 50`` on a tensor
  counter: one call runs all 50 steps.
* ``if``: seed 001's step: value_and_grad of the loss, then ``if all_finite(grads): opt(grads)``.
"""
import numpy as np

import mslab as ms
from mslab import Tensor, nn
from mslab.amp import all_finite

BATCH, IN, HIDDEN = 32, 8, 32


def data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(BATCH, IN)).astype(np.float32)
    y = (x.sum(axis=1, keepdims=True) * 0.5).astype(np.float32)
    return x, y


def mlp():
    ms.set_seed(0)
    return nn.SequentialCell([nn.Dense(IN, HIDDEN), nn.ReLU(), nn.Dense(HIDDEN, 1)])


class LoopTrain(nn.Cell):
    """50 training steps in one call, counted by a tensor: a While node in GRAPH mode."""

    def __init__(self):
        super().__init__()
        net = mlp()
        self.step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.01))

    def construct(self, x, y, steps):
        i = steps * 0
        loss = x.sum() * 0
        while i < steps:
            loss = self.step(x, y)
            i = i + 1
        return loss


class GuardedStep(nn.Cell):
    """Seed 001's step as a Cell: skip the optimizer when a gradient is not finite (an If node in GRAPH mode)."""

    def __init__(self):
        super().__init__()
        self.net = mlp()
        self.loss_fn = nn.MSELoss()
        self.opt = nn.SGD(self.net.trainable_params(), 0.01)
        self.grad_fn = ms.value_and_grad(self.forward, None, weights=self.opt.parameters)

    def forward(self, x, y):
        return self.loss_fn(self.net(x), y)

    def construct(self, x, y):
        loss, grads = self.grad_fn(x, y)
        if all_finite(grads):
            self.opt(grads)
        return loss


def mslab_step(which, mode):
    """``(step, before)`` for mslab in ``mode`` ("graph" or "pynative")."""
    mode_id = ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE
    ms.set_context(mode=mode_id)
    x, y = (Tensor(a) for a in data())
    if which == "while":
        cell, args = LoopTrain(), (x, y, Tensor(np.array(50, np.int32)))
    else:
        cell, args = GuardedStep(), (x, y)

    def step():
        return cell(*args)

    return step, lambda: ms.set_context(mode=mode_id)


def torch_step(which):
    import torch

    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(IN, HIDDEN), torch.nn.ReLU(), torch.nn.Linear(HIDDEN, 1))
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    loss_fn = torch.nn.MSELoss()
    x, y = (torch.from_numpy(a) for a in data())

    def one():
        opt.zero_grad()
        loss = loss_fn(net(x), y)
        loss.backward()
        if all(torch.isfinite(p.grad).all() for p in net.parameters()):
            opt.step()
        return loss

    if which == "if":
        return one

    def loop():
        i = torch.tensor(0)
        while i < 50:
            loss = one()
            i = i + 1
        return loss

    return loop
