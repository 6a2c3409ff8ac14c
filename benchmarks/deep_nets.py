"""Round-two workloads (issue #16): a VGG-style CNN, LeNet5 at batch 128 and a 200-layer MLP.

Written once for MindSpore's API (mslab, or MindSpore itself) and once for PyTorch, like ``nets.py``:

* ``cnn``: 3x32x32 images, batch 32; 3x3 convolutions with 64 and 128 channels ("same" padding, no bias),
  each followed by BatchNorm and ReLU; a residual add around the second convolution; 2x2 max pooling
  three times; Dense(128*4*4, 10). SoftmaxCrossEntropyWithLogits(sparse, mean), Momentum(0.01, 0.9).
* ``lenet128``: ``nets.py``'s LeNet5 step at batch 128.
* ``mlp200``: 200 Dense(32, 32) + ReLU layers and Dense(32, 1), batch 32, MSELoss, SGD(0.01): one
  small op after another, so it times dispatch more than arithmetic.
"""
import importlib

import nets
import numpy as np

CNN_BATCH, LENET_BIG, MLP_DEPTH, MLP_WIDTH, MLP_BATCH = 32, 128, 200, 32, 32


# ---- MindSpore API (mslab or mindspore) -------------------------------------------------------------------
def ms_cnn(name):
    ms, nn, ops, init = nets.ms_modules(name)

    def block(cin, cout):
        conv = nn.Conv2d(cin, cout, 3, pad_mode="same", has_bias=False, weight_init=init.HeNormal())
        return conv, nn.BatchNorm2d(cout)

    class VGGRes(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1, self.bn1 = block(3, 64)
            self.conv2, self.bn2 = block(64, 64)
            self.conv3, self.bn3 = block(64, 128)
            self.conv4, self.bn4 = block(128, 128)
            self.relu = nn.ReLU()
            self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()
            self.fc = nn.Dense(128 * 4 * 4, 10)

        def construct(self, x):
            x = self.relu(self.bn1(self.conv1(x)))
            x = self.pool(self.relu(self.bn2(self.conv2(x)) + x))  # the residual add
            x = self.pool(self.relu(self.bn3(self.conv3(x))))
            x = self.pool(self.relu(self.bn4(self.conv4(x))))
            return self.fc(self.flatten(x))

    return VGGRes()


def ms_mlp(name):
    ms, nn, ops, init = nets.ms_modules(name)
    layers = []
    for _ in range(MLP_DEPTH):
        layers += [nn.Dense(MLP_WIDTH, MLP_WIDTH), nn.ReLU()]
    return nn.SequentialCell(layers + [nn.Dense(MLP_WIDTH, 1)])


def cnn_data(seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((CNN_BATCH, 3, 32, 32), dtype=np.float32),
            rng.integers(0, 10, CNN_BATCH).astype(np.int32))


def lenet_big_data(seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((LENET_BIG, 1, 32, 32), dtype=np.float32),
            rng.integers(0, 10, LENET_BIG).astype(np.int32))


def mlp_data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((MLP_BATCH, MLP_WIDTH), dtype=np.float32)
    return x, (x.sum(axis=1, keepdims=True) * 0.1).astype(np.float32)


def ms_train_cell(name, which):
    """``(train_cell, inputs)`` of workload ``which`` in mslab or MindSpore."""
    ms, nn, ops, init = nets.ms_modules(name)
    if which == "mlp200":
        net, loss, data = ms_mlp(name), nn.MSELoss(), mlp_data()
        opt = nn.SGD(net.trainable_params(), 0.01)
    else:
        if which == "cnn":
            net, data = ms_cnn(name), cnn_data()
        else:
            net, data = nets.ms_lenet(name), lenet_big_data()
            net.batch_size = LENET_BIG
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    train.set_train()
    return train, tuple(ms.Tensor(a) for a in data)


def ms_step(name, which, mode):
    """A step function of mslab/MindSpore in ``mode`` ("graph" or "pynative"), and the context setter."""
    ms = importlib.import_module(name)
    mode_id = ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE
    ms.set_context(mode=mode_id)
    train, inputs = ms_train_cell(name, which)

    def step():
        return train(*inputs)

    return step, lambda: ms.set_context(mode=mode_id)


# ---- PyTorch ----------------------------------------------------------------------------------------------
def torch_model(which):
    """``(net, loss_fn, opt, x, y)`` of workload ``which`` in PyTorch."""
    import torch
    nn = torch.nn

    if which == "mlp200":
        layers = []
        for _ in range(MLP_DEPTH):
            layers += [nn.Linear(MLP_WIDTH, MLP_WIDTH), nn.ReLU()]
        net = nn.Sequential(*layers, nn.Linear(MLP_WIDTH, 1))
        xa, ya = mlp_data()
        return net, nn.MSELoss(), torch.optim.SGD(net.parameters(), lr=0.01), torch.from_numpy(xa), torch.from_numpy(ya)
    if which == "cnn":
        def block(cin, cout):
            return nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout, momentum=0.1)

        class VGGRes(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv1, self.bn1 = block(3, 64)
                self.conv2, self.bn2 = block(64, 64)
                self.conv3, self.bn3 = block(64, 128)
                self.conv4, self.bn4 = block(128, 128)
                self.pool = nn.MaxPool2d(2, 2)
                self.fc = nn.Linear(128 * 4 * 4, 10)

            def forward(self, x):
                relu = torch.relu
                x = relu(self.bn1(self.conv1(x)))
                x = self.pool(relu(self.bn2(self.conv2(x)) + x))
                x = self.pool(relu(self.bn3(self.conv3(x))))
                x = self.pool(relu(self.bn4(self.conv4(x))))
                return self.fc(x.flatten(1))

        net, (xa, ya) = VGGRes(), cnn_data()
    else:
        net, (xa, ya) = nets.torch_lenet(LENET_BIG), lenet_big_data()
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    return net, nn.CrossEntropyLoss(), opt, torch.from_numpy(xa), torch.from_numpy(ya.astype(np.int64))


def torch_step(which):
    net, loss_fn, opt, x, y = torch_model(which)
    net.train()
    return nets.torch_train_step(net, loss_fn, opt, x, y)
