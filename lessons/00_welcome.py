# %% [markdown]
# # 00 · Welcome to mslab
#
# **mslab** is a small deep-learning engine, written on numpy, that speaks
# [MindSpore](https://www.mindspore.cn)'s API. It exists so that you can *see* what MindSpore
# does when it trains a network: the graph it records, the backward graph it derives, and each
# stage of one training step, on real numbers.
#
# Everything you write here runs with `mindspore` in place of `mslab`, within what mslab covers:
#
# | MindSpore | mslab |
# |---|---|
# | `import mindspore as ms` | `import mslab as ms` |
# | `from mindspore import nn, ops` | `from mslab import nn, ops` |
# | `import mindspore.dataset as ds` | `import mslab.dataset as ds` |
#
# A few things exist only in mslab, because they are there to show you what MindSpore does inside:
# drawing and printing graphs (`ms.trace`, `mslab.viz`, `ms.record`), the notebook widgets
# (`mslab.widgets`), the shipped digits (`ds.digits_path()`) and the transfer counters. Every line
# that uses one ends with the comment `# mslab only`; drop those lines and the rest runs on MindSpore.
#
# Run the cells from top to bottom with **Shift+Enter**. This tour trains a real network on real
# handwritten digits in a few seconds; the next lessons open it up piece by piece.

# %%
import mslab as ms
from mslab import nn

ms.set_seed(1)   # the same weights and the same data order every time you run the lesson
print("mode:", "PYNATIVE" if ms.get_context("mode") == ms.PYNATIVE_MODE else "GRAPH")

# %% [markdown]
# ## Seven steps, three frameworks
#
# MindSpore, PyTorch and TensorFlow train a network in the same seven steps:
#
# 1. build a dataset,
# 2. define the forward network,
# 3. define the loss,
# 4. define the optimizer,
# 5. run the forward pass and get the loss,
# 6. run the backward pass to get gradients,
# 7. let the optimizer update the weights.
#
# Steps 1–4 look almost the same in all three. Steps 5–7 are where they differ, because each
# one does automatic differentiation its own way:
#
# | | MindSpore | PyTorch | TensorFlow |
# |---|---|---|---|
# | steps 5–7 | `model.train(...)`, or a `TrainOneStepCell` called once per batch | `loss.backward()` then `optimizer.step()` | `tf.GradientTape` then `apply_gradients` |
# | how gradients are found | from the **graph's structure** (GRAPH mode) | by recording each op while it runs (`grad_fn`) | by recording each op on a tape |
#
# Lessons 02 to 04 explain that difference. The panel below puts the three side by side for each
# step (if PyTorch is installed, its **Run** button also checks that mslab and PyTorch compute the
# same loss, gradients and update on the same weights). First, though, let's train something.

# %%
# NBVAL_IGNORE_OUTPUT
from mslab.widgets import ComparePanel  # mslab only

ComparePanel()

# %% [markdown]
# ## Step 1: a dataset
#
# mslab ships 1,797 real handwritten digits (8×8 pixels, from the UCI collection) in MNIST's file
# format, so `MnistDataset` reads them just as MindSpore reads MNIST. The pipeline below follows
# the one in MindSpore's LeNet tutorial: resize to 32×32, rescale, normalise, channels first,
# shuffle, batch.

# %%
import mslab.dataset as ds
from mslab.dataset import transforms, vision


def create_dataset(usage="train", batch_size=32):
    data = ds.MnistDataset(ds.digits_path(), usage=usage)  # mslab only
    data = data.map(operations=transforms.TypeCast(ms.int32), input_columns="label")
    data = data.map(operations=[vision.Resize((32, 32)),
                                vision.Rescale(1.0 / 255.0, 0.0),
                                vision.Rescale(1 / 0.3081, -0.1307 / 0.3081),
                                vision.HWC2CHW()],
                    input_columns="image")
    if usage == "train":
        data = data.shuffle(buffer_size=1000)
    return data.batch(batch_size, drop_remainder=True)


ds_train = create_dataset("train")
ds_test = create_dataset("test")
print("batches per epoch:", ds_train.get_dataset_size(), "| test batches:", ds_test.get_dataset_size())
batch = next(ds_train.create_dict_iterator())
print("image batch:", batch["image"].shape, batch["image"].dtype, "| label batch:", batch["label"].shape)

# %%
import matplotlib.pyplot as plt

images, labels = batch["image"].asnumpy(), batch["label"].asnumpy()
fig, axes = plt.subplots(1, 8, figsize=(8, 1.4))
for ax, img, lab in zip(axes, images, labels):
    ax.imshow(img[0], cmap="gray_r")
    ax.set_title(int(lab))
    ax.axis("off")
plt.show()


# %% [markdown]
# ## Steps 2–4: network, loss, optimizer
#
# A network is a `Cell`: declare its layers in `__init__`, say how data flows in `construct`.
# This is LeNet-5, the classic small convolutional network.

# %%
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


network = LeNet5()
net_loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
net_opt = nn.Momentum(network.trainable_params(), learning_rate=0.01, momentum=0.9)
print(network)

# %% [markdown]
# ## Steps 5–7: `Model.train`
#
# `Model` joins the pieces: it wraps the network and loss in `WithLossCell`, wraps that and the
# optimizer in `TrainOneStepCell`, and calls it once per batch. We train in GRAPH mode, where
# MindSpore (and mslab) compiles the whole training step into one graph.
#
# `LossMonitor` prints the loss now and then; `LossPlot` draws it live as training runs.
# Two epochs take a few seconds. (Losses after many float32 steps can differ in the last digits
# between machines, so the test suite does not compare this cell's output: that is what the
# `# NBVAL_IGNORE_OUTPUT` line means.)

# %%
# NBVAL_IGNORE_OUTPUT
from IPython.display import display

from mslab.widgets import LossPlot  # mslab only

ms.set_context(mode=ms.GRAPH_MODE)
model = ms.Model(network, net_loss, net_opt, metrics={"accuracy"})
plot = LossPlot(title="LeNet-5 on the shipped digits")   # drawn by the browser as the points arrive
display(plot)
model.train(2, ds_train, callbacks=[ms.LossMonitor(23), plot])

# %%
# NBVAL_IGNORE_OUTPUT
result = model.eval(ds_test)
print(f"test accuracy after two epochs: {result['accuracy']:.0%}")

# %% [markdown]
# Well above guessing (10%) after only 92 small steps from random weights. A few predictions:

# %%
# NBVAL_IGNORE_OUTPUT
test_batch = next(ds_test.create_tuple_iterator())
logits = model.predict(test_batch[0])
print("predicted:", logits.asnumpy().argmax(axis=1)[:16])
print("true:     ", test_batch[1].asnumpy()[:16])

# %% [markdown]
# ## A first look inside
#
# In GRAPH mode, calling a Cell first *traces* its `construct` into a graph. `ms.trace` shows that
# graph as text, one line per operation: its name (`%3`), the operator, its inputs, the result's
# type, and a comment saying which Cell (`conv1`, `fc1`, ...) and which source line made it.

# %%
x = batch["image"]
print(ms.trace(network, x))  # mslab only

# %% [markdown]
# `mslab.viz` draws the same graph. Operations are grouped by the Cell that made them: a Cell with
# several operations (each `Dense` is a `MatMul` then a `BiasAdd`) is drawn as one 3-D box. Edges
# carry tensor shapes. (Pictures are drawn by Graphviz, whose fonts differ between machines, so the
# tests do not compare their exact bytes.)

# %%
# NBVAL_IGNORE_OUTPUT
import mslab.viz as viz  # mslab only

viz.forward_graph(network, x)

# %% [markdown]
# `GraphView` is the interactive version: pan and zoom, click a node to inspect it, expand a Cell's
# box to see the operations inside.

# %%
# NBVAL_IGNORE_OUTPUT
from mslab.widgets import GraphView  # mslab only

GraphView(ms.trace(network, x))  # mslab only

# %% [markdown]
# ## Where to next
#
# - **01 · Tensors, Cells and parameter names**: the building blocks, and how parameters get names.
# - **02 · PYNATIVE versus GRAPH mode**: running eagerly versus compiling, and the rules graph mode brings.
# - **03 · Autodiff and backward graphs**: `GradOperation`, `sens`, and the backward graph derived from the forward one.
# - **04 · TrainOneStepCell, step by step**: watch one training step happen, stage by stage, on real numbers.
# - **07 · Evaluation networks and metrics**: `WithEvalCell`, metrics, shared weights, and what `set_train` changes.
# - **08 · Data pipelines and data sinking**: datasets beside PyTorch's `DataLoader`, and sinking data to a device.
# - **09 · From PyTorch and TensorFlow**: one LeNet written three ways, and where MindSpore differs.
