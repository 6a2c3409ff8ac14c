# %% [markdown]
# # 09 · From PyTorch and TensorFlow
#
# If you know PyTorch or TensorFlow, you already know most of MindSpore: MindSpore's migration
# guide lists the same seven steps for all three (a dataset, a network, a loss, an optimizer, then
# forward, backward and update for every batch). This lesson trains one LeNet written three ways,
# puts the APIs side by side, and then shows, on the engine, the three places where MindSpore
# really differs.

# %%
import os

import numpy as np

import mslab as ms
import mslab.dataset as ds
from mslab import nn
from mslab.dataset import transforms, vision

ms.set_seed(1)


# %% [markdown]
# ## The same LeNet, three ways
#
# First MindSpore (run here with mslab). Steps 1-4 build the pieces; `Model.train` does steps 5-7.
# The data are the digits that ship with mslab (8×8 images in MNIST's file format, read with numpy
# as lesson 00 explains).

# %%
DIGITS = "digits"  # on MindSpore: the folder you copied mslab's four digit files to
DIGITS = ds.digits_path()  # mslab only: where mslab keeps them


def read_idx(path):
    """An IDX file (MNIST's format) as a numpy array (lesson 00)."""
    with open(path, "rb") as f:
        raw = f.read()
    shape = tuple(int(n) for n in np.frombuffer(raw, ">u4", count=raw[3], offset=4))
    return np.frombuffer(raw, np.uint8, offset=4 + 4 * raw[3]).reshape(shape)


def create_dataset(usage="train", batch_size=32):
    prefix = "train" if usage == "train" else "t10k"
    images = read_idx(os.path.join(DIGITS, f"{prefix}-images-idx3-ubyte"))[..., None]
    labels = read_idx(os.path.join(DIGITS, f"{prefix}-labels-idx1-ubyte"))
    data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False)
    data = data.map(operations=transforms.TypeCast(ms.int32), input_columns="label")
    data = data.map(operations=[vision.Resize((32, 32)),
                                vision.Rescale(1.0 / 255.0, 0.0),
                                vision.Rescale(1 / 0.3081, -0.1307 / 0.3081),
                                vision.HWC2CHW()],
                    input_columns="image")
    if usage == "train":
        data = data.shuffle(buffer_size=1000)
    return data.batch(batch_size, drop_remainder=True)


class LeNet5(nn.Cell):
    def __init__(self, num_class=10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, num_class)
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


ds_train = create_dataset("train")                                                     # 1. dataset
network = LeNet5()                                                                     # 2. network
net_loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")            # 3. loss
net_opt = nn.Momentum(network.trainable_params(), learning_rate=0.02, momentum=0.9)   # 4. optimizer
model = ms.Model(network, net_loss, net_opt, metrics={"accuracy": nn.Accuracy()})

# %% [markdown]
# Steps 5-7, five epochs with lesson 00's learning rate of 0.02. (Losses after many float32 steps may
# differ in their last digits between machines, so the tests do not compare this cell's output.)

# %%
# NBVAL_IGNORE_OUTPUT
from IPython.display import display  # mslab only: shows the widget

from mslab.widgets import LossPlot  # mslab only

ms.set_context(mode=ms.GRAPH_MODE)
callbacks = [ms.LossMonitor(46)]
plot = LossPlot(title="LeNet-5 in MindSpore's API")  # mslab only
display(plot)  # mslab only
callbacks.append(plot)  # mslab only
model.train(5, ds_train, callbacks=callbacks)                                        # 5-7. train
print("test accuracy:", round(model.eval(create_dataset("test"))["accuracy"], 2))

# %% [markdown]
# Now PyTorch, on the very same batches (read from the MindSpore pipeline as numpy arrays). The
# model is a `torch.nn.Module` with `forward`; steps 5-7 are yours to write, every batch:
# `zero_grad`, forward, `backward`, `step`. One default differs: MindSpore's `nn.Conv2d` has no bias
# unless you ask (`has_bias=False`), PyTorch's and Keras's convolutions have one; `bias=False` and
# `use_bias=False` below make the three networks the same. The function is defined here and run below only if
# PyTorch is installed (it is optional for mslab).

# %%
def train_with_pytorch(batches, epochs=5):
    import torch  # optional: only this function needs it

    class LeNet5(torch.nn.Module):
        def __init__(self, num_class=10):
            super().__init__()
            self.conv1 = torch.nn.Conv2d(1, 6, 5, bias=False)  # as MindSpore's nn.Conv2d: no bias by default
            self.conv2 = torch.nn.Conv2d(6, 16, 5, bias=False)
            self.fc1 = torch.nn.Linear(16 * 5 * 5, 120)
            self.fc2 = torch.nn.Linear(120, 84)
            self.fc3 = torch.nn.Linear(84, num_class)

        def forward(self, x):
            x = torch.max_pool2d(torch.relu(self.conv1(x)), 2)
            x = torch.max_pool2d(torch.relu(self.conv2(x)), 2)
            x = torch.flatten(x, 1)
            x = torch.relu(self.fc1(x))
            x = torch.relu(self.fc2(x))
            return self.fc3(x)

    net = LeNet5()                                                               # 2. network
    loss_fn = torch.nn.CrossEntropyLoss()                                        # 3. loss
    opt = torch.optim.SGD(net.parameters(), lr=0.02, momentum=0.9)               # 4. optimizer
    for epoch in range(epochs):
        for images, labels in batches:
            opt.zero_grad()                                    # gradients accumulate in .grad: clear them
            loss = loss_fn(net(torch.from_numpy(images)), torch.from_numpy(labels).long())   # 5. forward
            loss.backward()                                                                  # 6. backward
            opt.step()                                                                       # 7. update
        print(f"epoch {epoch + 1}, loss {loss.item():.4f}")
    return net


# %% [markdown]
# And TensorFlow: a Keras model, and a step written with `tf.GradientTape`, which records the
# forward pass so that `tape.gradient` can walk it back. Keras convolutions take channels last
# (NHWC), so the batches are transposed.

# %%
def train_with_tensorflow(batches, epochs=5):
    import os
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")   # TensorFlow's C++ start-up notes stay out of the output,
    os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")  # with the oneDNN one printed before that setting applies
    import tensorflow as tf  # optional: only this function needs it

    model = tf.keras.Sequential([                                                # 2. network
        tf.keras.layers.Conv2D(6, 5, activation="relu", use_bias=False), tf.keras.layers.MaxPool2D(2),
        tf.keras.layers.Conv2D(16, 5, activation="relu", use_bias=False), tf.keras.layers.MaxPool2D(2),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(120, activation="relu"), tf.keras.layers.Dense(84, activation="relu"),
        tf.keras.layers.Dense(10)])
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)   # 3. loss
    opt = tf.keras.optimizers.SGD(learning_rate=0.02, momentum=0.9)             # 4. optimizer

    @tf.function
    def train_step(images, labels):
        with tf.GradientTape() as tape:
            loss = loss_fn(labels, model(images))                               # 5. forward
        grads = tape.gradient(loss, model.trainable_variables)                  # 6. backward
        opt.apply_gradients(zip(grads, model.trainable_variables))              # 7. update
        return loss

    for epoch in range(epochs):
        for images, labels in batches:
            loss = train_step(images.transpose(0, 2, 3, 1), labels)
        print(f"epoch {epoch + 1}, loss {float(loss):.4f}")
    return model


# %% [markdown]
# Run them if they are installed. Whether they are depends on your machine, so the tests do not
# compare this cell's output. Do not expect the three loss curves to match step by step: the same
# architecture starts from different random weights in each framework (each draws them with its own
# default initializers and random generator), so one may leave the 2.30 plateau sooner than
# another. After five epochs all three should be low; the comparison that holds number for number
# is ComparePanel's below, which starts mslab and PyTorch from the same weights.

# %%
# NBVAL_IGNORE_OUTPUT
import importlib.util

batches = [(images, labels) for images, labels in create_dataset("train").create_tuple_iterator(output_numpy=True)]
print(f"{len(batches)} batches of {batches[0][0].shape} images, {batches[0][0].dtype}")
for name, package, train in [("PyTorch", "torch", train_with_pytorch),
                             ("TensorFlow", "tensorflow", train_with_tensorflow)]:
    if importlib.util.find_spec(package) is None:
        print(f"{name} is not installed: its code above is shown, not run.")
    else:
        print(f"{name}:")
        train(batches)

# %% [markdown]
# `ComparePanel` shows the three side by side for each step. Its **Run** button trains the same
# small network for one step in mslab and in PyTorch, from the same weights, and compares loss,
# gradients and updated weights; without PyTorch it says how to install it.

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
from mslab.widgets import ComparePanel

panel = ComparePanel()
result = panel.run()
print("PyTorch installed:", result["available"], "| agree:", result["agree"])
panel

# %% [markdown]
# ## The API, side by side
#
# The migration guide's table for datasets: `GeneratorDataset`'s parameters and `DataLoader`'s.
# MindSpore puts batching mostly in the `batch` method, and shuffling and sharding (for several
# devices) in the dataset itself. Since 2.x `GeneratorDataset` also takes `batch_sampler` and
# `collate_fn`, as `DataLoader` does (both in MindSpore 2.10):
#
# | `GeneratorDataset` | `DataLoader` | meaning |
# |---|---|---|
# | `source` | `dataset` | the dataset object |
# | `column_names` | / | the name of each column |
# | `column_types` | / | the type of each column |
# | `num_samples` | / | how many samples to read |
# | `num_parallel_workers` | `num_workers` | parallel worker processes |
# | `shuffle` | / | shuffle the samples |
# | `sampler` | `sampler` | the index generator |
# | `num_shards` | / | how many shards (distributed training) |
# | `shard_id` | / | which shard this is |
# | / (`batch(batch_size)`) | `batch_size` | batch size |
# | `batch_sampler` | `batch_sampler` | batch index generator |
# | `collate_fn` (with `batch_sampler`), or `batch(per_batch_map=...)` | `collate_fn` | how samples become a batch |
# | / (`batch(drop_remainder=...)`) | `drop_last` | drop the last short batch |
#
# And for the rest of this lesson's code:
#
# | MindSpore | PyTorch | TensorFlow (Keras) |
# |---|---|---|
# | `nn.Cell`, `construct` | `torch.nn.Module`, `forward` | `tf.keras.Model`, `call` |
# | `nn.Dense` | `torch.nn.Linear` | `tf.keras.layers.Dense` |
# | `nn.Conv2d(..., pad_mode="valid")` ¹ | `torch.nn.Conv2d` (padding 0) | `tf.keras.layers.Conv2D` (`padding="valid"`) |
# | `net.trainable_params()` | `net.parameters()` | `model.trainable_variables` |
# | `nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")` | `torch.nn.CrossEntropyLoss()` | `SparseCategoricalCrossentropy(from_logits=True)` |
# | `nn.Momentum(params, lr, momentum)` | `torch.optim.SGD(params, lr, momentum=...)` | `tf.keras.optimizers.SGD(lr, momentum=...)` |
# | `ms.value_and_grad(fn, None, weights)` | `loss.backward()`, then `p.grad` | `tape.gradient(loss, variables)` |
# | `optimizer(grads)` | `optimizer.step()` | `optimizer.apply_gradients(...)` |
# | `Model.train(epochs, dataset)` | a loop you write | `model.fit` |
# | `net.set_train(True/False)` | `net.train()` / `net.eval()` | `training=True/False` per call |
#
# ¹ MindSpore's `nn.Conv2d` has no bias by default (`has_bias=False`) and pads `"same"` by default;
# PyTorch's and Keras's convolutions have a bias by default and do not pad.

# %% [markdown]
# ## Where MindSpore differs
#
# ### 1. Cells own their Parameters
#
# A `Parameter` is created by the Cell that uses it and named after the attribute path that holds it.
# The optimizer does not copy the weights: it holds the very same Parameter objects, and
# `TrainOneStepCell` differentiates exactly those (`optimizer.parameters`).

# %%
print([p.name for p in network.trainable_params()][:4], "...")
print("the optimizer holds the network's own Parameter:", net_opt.parameters[0] is network.conv1.weight)

# %% [markdown]
# ### 2. The optimizer is a Cell, and part of the graph
#
# In PyTorch, `optimizer.step()` is Python code that runs after the backward pass. In MindSpore the
# optimizer is a `Cell`: calling it with the gradients updates the weights, and inside
# `TrainOneStepCell` its update operations are compiled into the same graph as forward and backward.

# %%
from collections import Counter

print("the optimizer is a Cell:", isinstance(net_opt, nn.Cell))
train_net = nn.TrainOneStepCell(nn.WithLossCell(network, net_loss), net_opt)
x, label = next(ds_train.create_tuple_iterator())
graph = ms.trace(train_net, x, label)  # mslab only
print("nodes of one training step, by phase:", dict(Counter(node.phase for node in graph.nodes)))  # mslab only

# %% [markdown]
# ### 3. Gradients are functions, not `.grad` fields
#
# PyTorch's `backward()` stores each gradient in the weight's `.grad` field, where it accumulates
# until `zero_grad()`. MindSpore has no such field: `value_and_grad` turns the forward function into
# a new function that *returns* the gradients, and the optimizer takes them as an argument. Nothing
# is stored, so there is nothing to zero.

# %%
ms.set_context(mode=ms.PYNATIVE_MODE)


def forward_fn(data, label):
    return net_loss(network(data), label)


grad_fn = ms.value_and_grad(forward_fn, None, net_opt.parameters)
loss, grads = grad_fn(x, label)
print("a Parameter has a .grad field:", hasattr(network.conv1.weight, "grad"))
print(f"{len(grads)} gradients returned, one per weight; the first has shape {grads[0].shape}")
before = network.fc3.bias.asnumpy().copy()
net_opt(grads)                                                    # the update, as a plain call
print("fc3.bias moved by the update:", not np.array_equal(before, network.fc3.bias.asnumpy()))

# %% [markdown]
# That pair, `value_and_grad` then `optimizer(grads)`, is MindSpore's functional training step:
# the same three steps as PyTorch's `backward()` and `step()`, written as function calls. Wrap
# them in a function decorated with `@ms.jit` and the whole step compiles into one graph, like
# `TrainOneStepCell` (and like TensorFlow's `@tf.function`).

# %% [markdown]
# ## Exercises
#
# 1. **Predict, then run.** How many numbers does MindSpore's LeNet5 learn
#    (`sum(p.size for p in network.trainable_params())`), and how many more would PyTorch's have
#    with its default `bias=True` in both convolutions?
#
#    <details><summary>Solution</summary>
#
#    61,684: 150 + 2,400 for the convolutions (no bias), 48,120 + 10,164 + 850 for the three `Dense`
#    layers. PyTorch's default conv biases add 6 + 16 = 22, for 61,706.
#    </details>
#
# 2. **Predict, then run.** Call `grad_fn(x, label)` twice and compare the two gradient tuples. What
#    would happen in PyTorch if you called `loss.backward()` twice without `zero_grad()`?
#
#    <details><summary>Solution</summary>
#
#    The two MindSpore calls return equal gradients: nothing is stored between calls. In PyTorch the
#    second `backward()` adds to `.grad`, which then holds twice the gradient, which is why every
#    PyTorch loop calls `zero_grad()`.
#    </details>
