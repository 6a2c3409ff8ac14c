"""The PyTorch twin of ``lenet_digits.py``: time to 90% test accuracy with the same network, optimizer and data.

Same LeNet5, starting from the very same initial weights as the mslab run (``lenet_digits``'s LeNet5 built after
``ms.set_seed(seed)``: MindSpore's initialisers, convolutions without bias as MindSpore's default), so both need
the same number of epochs and the time compares the frameworks, not their initialisers (from PyTorch's own
initialisation the digits reached 90% two epochs sooner than from MindSpore's). ``SGD(lr=0.01, momentum=0.9)``
(MindSpore's Momentum), cross-entropy with mean reduction, and the very same batches: the shipped digits through
mslab's own ``create_dataset`` pipeline, shuffled with the same seed (so both scripts pay the same data cost).
Runs only where PyTorch is installed.

    python benchmarks/lenet_digits_torch.py      # prints a line per epoch
"""
import argparse
import time

import numpy as np
from lenet_digits import LeNet5, create_dataset

import mslab as ms


def torch_lenet():
    import torch
    nn = torch.nn

    class LeNet5(nn.Module):
        def __init__(self, num_class=10):
            super().__init__()
            self.conv1, self.conv2 = nn.Conv2d(1, 6, 5, bias=False), nn.Conv2d(6, 16, 5, bias=False)
            self.fc1, self.fc2, self.fc3 = nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, num_class)
            self.pool = nn.MaxPool2d(2, 2)

        def forward(self, x):
            x = self.pool(torch.relu(self.conv1(x)))
            x = self.pool(torch.relu(self.conv2(x)))
            x = torch.relu(self.fc1(x.flatten(1)))
            return self.fc3(torch.relu(self.fc2(x)))

    return LeNet5()


def batches(data):
    import torch
    for image, label in data.create_tuple_iterator(output_numpy=True):
        yield torch.from_numpy(np.ascontiguousarray(image)), torch.from_numpy(label.astype(np.int64))


def initial_weights(seed):
    """``{name: array}``: LeNet5's initial weights as ``lenet_digits.train_lenet_on_digits`` builds them."""
    ms.set_seed(seed)
    return {p.name: p.asnumpy() for p in LeNet5().get_parameters()}


def train_lenet_on_digits_torch(epochs=10, seed=1, report=None, stop_at=None):
    """One epoch at a time, then test accuracy; returns ``[(epoch, test accuracy, seconds so far)]``
    (``stop_at``: stop once the test accuracy reaches it, as ``lenet_digits.train_lenet_on_digits``)."""
    import torch

    weights = initial_weights(seed)  # also seeds the dataset's shuffle, as the mslab run does
    net = torch_lenet()
    with torch.no_grad():
        for name, p in net.named_parameters():
            p.copy_(torch.from_numpy(weights[name]))
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    loss_fn = torch.nn.CrossEntropyLoss()
    train, test = create_dataset("train"), create_dataset("test")
    history = []
    start = time.perf_counter()
    for epoch in range(1, epochs + 1):
        net.train()
        for x, y in batches(train):
            opt.zero_grad()
            loss_fn(net(x), y).backward()
            opt.step()
        net.eval()
        right = total = 0
        with torch.no_grad():
            for x, y in batches(test):
                right += int((net(x).argmax(1) == y).sum())
                total += len(y)
        history.append((epoch, right / total, time.perf_counter() - start))
        if report:
            report(*history[-1])
        if stop_at is not None and history[-1][1] >= stop_at:
            break
    return history


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--epochs", type=int, default=10)
    a = ap.parse_args()
    print("LeNet5 on the shipped digits, PyTorch eager, batch 32, SGD(0.01, momentum 0.9)")
    history = train_lenet_on_digits_torch(a.epochs, report=lambda e, acc, t: print(
        f"epoch {e:2d}  test accuracy {acc:.3f}  {t:6.2f} s"))
    reached = next(((e, t) for e, acc, t in history if acc >= 0.9), None)
    print(f"90% test accuracy after epoch {reached[0]}, {reached[1]:.1f} s" if reached else
          "90% test accuracy not reached")


if __name__ == "__main__":
    main()
