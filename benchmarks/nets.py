"""The benchmark workloads, written once for MindSpore's API (mslab, or MindSpore itself) and once for PyTorch.

Each ``*_step`` builder returns ``(step, label)``: ``step()`` runs one training step and returns the loss.
The networks are the seeds' own: LinearNet (seed 003: Dense(1, 1), MSELoss, Momentum, batch 16) and
LeNet5 (seed train.md: batch 32 of 1x32x32, SoftmaxCrossEntropyWithLogits(sparse, mean),
Momentum(0.01, 0.9)). PyTorch gets the same shapes, losses and optimizer (SGD with momentum 0.9 is
MindSpore's Momentum: v = 0.9 v + g, w -= lr v).
"""
import importlib

import numpy as np

LINEAR_BATCH = 16
LENET_BATCH = 32


# ---- MindSpore API (mslab or mindspore) -------------------------------------------------------------------
def ms_modules(name):
    """``(ms, nn, ops, initializer module)`` of ``mslab`` or ``mindspore``."""
    ms = importlib.import_module(name)
    nn = importlib.import_module(f"{name}.nn")
    ops = importlib.import_module(f"{name}.ops")
    init = importlib.import_module(f"{name}.common.initializer")
    return ms, nn, ops, init


def ms_linear_net(name):
    ms, nn, ops, init = ms_modules(name)

    class LinearNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(1, 1, init.Normal(0.02), init.Normal(0.02))

        def construct(self, x):
            return self.fc(x)

    return LinearNet()


def ms_lenet(name, num_class=10):
    ms, nn, ops, init = ms_modules(name)

    def conv(in_channels, out_channels, kernel_size):
        return nn.Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=1, padding=0,
                         weight_init=init.TruncatedNormal(0.02), has_bias=False, pad_mode="valid")

    def fc(in_channels, out_channels):
        return nn.Dense(in_channels, out_channels, init.TruncatedNormal(0.02), init.TruncatedNormal(0.02))

    class LeNet5(nn.Cell):
        def __init__(self):
            super().__init__()
            self.batch_size = LENET_BATCH
            self.conv1 = conv(1, 6, 5)
            self.conv2 = conv(6, 16, 5)
            self.fc1 = fc(16 * 5 * 5, 120)
            self.fc2 = fc(120, 84)
            self.fc3 = fc(84, num_class)
            self.relu = nn.ReLU()
            self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
            self.reshape = ops.Reshape()

        def construct(self, x):
            x = self.conv1(x)
            x = self.relu(x)
            x = self.max_pool2d(x)
            x = self.conv2(x)
            x = self.relu(x)
            x = self.max_pool2d(x)
            x = self.reshape(x, (self.batch_size, -1))
            x = self.fc1(x)
            x = self.relu(x)
            x = self.fc2(x)
            x = self.relu(x)
            x = self.fc3(x)
            return x

    return LeNet5()


def linear_data(seed=0):
    rng = np.random.default_rng(seed)
    x = np.linspace(-1, 1, LINEAR_BATCH, dtype=np.float32).reshape(LINEAR_BATCH, 1)
    y = (2 * x + 3 + rng.normal(0, 0.1, x.shape)).astype(np.float32)
    return x, y


def lenet_data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((LENET_BATCH, 1, 32, 32), dtype=np.float32)
    y = rng.integers(0, 10, LENET_BATCH).astype(np.int32)
    return x, y


def ms_linear_train_cell(name):
    ms, nn, ops, init = ms_modules(name)
    net = ms_linear_net(name)
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.005, momentum=0.9)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    train.set_train()
    x, y = linear_data()
    return train, (ms.Tensor(x), ms.Tensor(y))


def ms_lenet_train_cell(name):
    ms, nn, ops, init = ms_modules(name)
    net = ms_lenet(name)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    train.set_train()
    x, y = lenet_data()
    return train, (ms.Tensor(x), ms.Tensor(y))


def ms_step(name, which, mode):
    """A step function of mslab/MindSpore in ``mode`` ("graph" or "pynative"); the context is set per call."""
    ms = importlib.import_module(name)
    mode_id = ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE
    ms.set_context(mode=mode_id)
    train, inputs = (ms_linear_train_cell if which == "linear" else ms_lenet_train_cell)(name)

    def step():
        return train(*inputs)

    return step, lambda: ms.set_context(mode=mode_id)


# ---- PyTorch ----------------------------------------------------------------------------------------------
def torch_lenet(batch):
    """LeNet5 in PyTorch, reshaping to ``batch`` rows as the MindSpore version does."""
    import torch

    class LeNet5(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = torch.nn.Conv2d(1, 6, 5, bias=False)
            self.conv2 = torch.nn.Conv2d(6, 16, 5, bias=False)
            self.fc1 = torch.nn.Linear(400, 120)
            self.fc2 = torch.nn.Linear(120, 84)
            self.fc3 = torch.nn.Linear(84, 10)
            self.relu = torch.nn.ReLU()
            self.pool = torch.nn.MaxPool2d(2, 2)

        def forward(self, x):
            x = self.pool(self.relu(self.conv1(x)))
            x = self.pool(self.relu(self.conv2(x)))
            x = x.reshape(batch, -1)
            x = self.relu(self.fc1(x))
            x = self.relu(self.fc2(x))
            return self.fc3(x)

    return LeNet5()


def torch_step(which):
    import torch

    if which == "linear":
        net = torch.nn.Linear(1, 1)
        loss_fn = torch.nn.MSELoss()
        opt = torch.optim.SGD(net.parameters(), lr=0.005, momentum=0.9)
        x, y = (torch.from_numpy(a) for a in linear_data())
    else:
        net = torch_lenet(LENET_BATCH)
        loss_fn = torch.nn.CrossEntropyLoss()
        opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
        xa, ya = lenet_data()
        x, y = torch.from_numpy(xa), torch.from_numpy(ya.astype(np.int64))
    return torch_train_step(net, loss_fn, opt, x, y)


def torch_train_step(net, loss_fn, opt, x, y):
    """The PyTorch training step every workload shares: zero_grad, forward, loss, backward, optimizer step."""

    def step():
        opt.zero_grad()
        loss = loss_fn(net(x), y)
        loss.backward()
        opt.step()
        return loss

    return step
