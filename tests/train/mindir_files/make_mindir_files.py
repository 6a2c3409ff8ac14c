"""Writes the MindIR files beside it with real MindSpore 2.10 (CPU): run it in a venv with mindspore==2.10.0 (never
in mslab's). The MLP's output for ones((2, 4)) and LeNet5's for lenet_io.npz's x are what MindSpore printed."""
import mindspore as ms
import numpy as np
from mindspore import nn

ms.set_seed(0)


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1, self.relu, self.fc2 = nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 3)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


class LeNet5(nn.Cell):
    def __init__(self, num_class=10, num_channel=1):
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1, self.fc2, self.fc3 = nn.Dense(16 * 5 * 5, 120), nn.Dense(120, 84), nn.Dense(84, num_class)
        self.relu, self.max_pool2d, self.flatten = nn.ReLU(), nn.MaxPool2d(kernel_size=2, stride=2), nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


mlp = MLP()
ms.export(mlp, ms.Tensor(np.ones((2, 4), np.float32)), file_name="mlp", file_format="MINDIR")
print(mlp(ms.Tensor(np.ones((2, 4), np.float32))))
lenet = LeNet5()
x = ms.Tensor(np.random.default_rng(0).normal(size=(2, 1, 32, 32)).astype(np.float32))
ms.export(lenet, x, file_name="lenet", file_format="MINDIR")
np.savez("lenet_io.npz", x=x.asnumpy(), y=lenet(x).asnumpy())
