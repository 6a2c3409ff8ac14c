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
# that uses one ends with the comment `# mslab only`, and a cell made only of such things starts with
# `# mslab only (the whole cell)`; drop those lines and cells and the rest runs on MindSpore 2.10.
# (A test, `tests/project/test_lessons_mindspore_part.py`, checks every lesson for it, and
# `python tests/project/lesson_mindspore_part.py 00` prints this lesson's MindSpore part as a script:
# run on MindSpore 2.10 for CPU, it trained this lesson's LeNet-5 to 98% test accuracy.)
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
# mslab only (the whole cell)
from mslab.widgets import ComparePanel

ComparePanel()

# %% [markdown]
# ## Step 1: a dataset
#
# mslab ships 1,797 real handwritten digits: the UCI "Optical Recognition of Handwritten Digits"
# collection, **8×8 pixels** each (MNIST's are 28×28), 1,497 for training and 300 for testing,
# stored in MNIST's file format (IDX files named like MNIST's). They are *not* MNIST, and MindSpore's
# `MnistDataset` refuses them: it checks for 28×28 images. So we read the four files with numpy
# (an IDX file is a short header, the sizes, then the bytes) and hand the arrays to
# `NumpySlicesDataset`, which works the same on MindSpore. Only where the files are is mslab's: on
# MindSpore, copy the folder `ds.digits_path()` names to `digits/` beside your script.
#
# The pipeline then follows the one in MindSpore's LeNet tutorial: resize to 32×32 (LeNet's input
# size), rescale, normalise, channels first, shuffle, batch.

# %%
import os

import numpy as np

import mslab.dataset as ds
from mslab.dataset import transforms, vision

DIGITS = "digits"  # on MindSpore: the folder you copied mslab's four digit files to
DIGITS = ds.digits_path()  # mslab only: where mslab keeps them


def read_idx(path):
    """An IDX file (MNIST's format) as a numpy array: 2 zero bytes, a type byte, the number of sizes,
    the sizes as big-endian 32-bit ints, then the data (here unsigned bytes)."""
    with open(path, "rb") as f:
        raw = f.read()
    ndim = raw[3]
    shape = tuple(int(n) for n in np.frombuffer(raw, ">u4", count=ndim, offset=4))
    return np.frombuffer(raw, np.uint8, offset=4 + 4 * ndim).reshape(shape)


def create_dataset(usage="train", batch_size=32):
    prefix = "train" if usage == "train" else "t10k"
    images = read_idx(os.path.join(DIGITS, f"{prefix}-images-idx3-ubyte"))[..., None]  # (N, 8, 8, 1): HWC
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


ds_train = create_dataset("train")
ds_test = create_dataset("test")
print("digits:", read_idx(os.path.join(DIGITS, "train-images-idx3-ubyte")).shape)
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
# This is LeNet-5, the classic small convolutional network. The loss and the optimizer are the
# tutorial's, with a learning rate of 0.02 instead of its 0.01: with 0.01 the loss stays near its
# starting value for about 80 steps before it falls, with 0.02 for about half as long (exercise 2
# below tries others).

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
net_opt = nn.Momentum(network.trainable_params(), learning_rate=0.02, momentum=0.9)
print(network)

# %% [markdown]
# ## Steps 5–7: `Model.train`
#
# `Model` joins the pieces: it wraps the network and loss in `WithLossCell`, wraps that and the
# optimizer in `TrainOneStepCell`, and calls it once per batch. We train in GRAPH mode, where
# MindSpore (and mslab) compiles the whole training step into one graph.
#
# `LossMonitor` prints the loss twice an epoch; `LossPlot` draws every step's loss live as training
# runs. Five epochs (5 × 46 steps of 32 digits) take a few seconds. (Losses after many float32 steps
# can differ in the last digits between machines, so the test suite does not compare this cell's
# output: that is what the `# NBVAL_IGNORE_OUTPUT` line means.)

# %%
# NBVAL_IGNORE_OUTPUT
from IPython.display import display  # mslab only: shows the widget

from mslab.widgets import LossPlot  # mslab only

ms.set_context(mode=ms.GRAPH_MODE)
model = ms.Model(network, net_loss, net_opt, metrics={"accuracy"})
callbacks = [ms.LossMonitor(23)]
plot = LossPlot(title="LeNet-5 on the shipped digits")  # mslab only: drawn by the browser as the points arrive
display(plot)  # mslab only
callbacks.append(plot)  # mslab only
model.train(5, ds_train, callbacks=callbacks)

# %% [markdown]
# How to read the curve: for the first steps the loss sits near **2.30**, which is ln 10, the loss of
# a network that gives all ten digits the same probability: random small weights do just that. It
# takes the momentum optimizer most of the first epoch (some 40 to 50 steps) to find a direction
# that helps; then the loss drops quickly, and by the last epoch it is a small fraction of where it
# started. The single steps are
# noisy (each is one batch of 32 digits); the trend is what matters.

# %%
# NBVAL_IGNORE_OUTPUT
result = model.eval(ds_test)
print(result)
print(f"test accuracy after five epochs: {result['accuracy']:.0%}")

# %% [markdown]
# Far above guessing (10%) after 230 small steps from random weights, on test digits the network
# never saw (288 of the 300: the last partial batch is dropped). A few predictions:

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
# mslab only (the whole cell)
import mslab.viz as viz

viz.forward_graph(network, x)

# %% [markdown]
# `GraphView` is the interactive version: pan and zoom, click a node to inspect it, expand a Cell's
# box to see the operations inside.

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
from mslab.widgets import GraphView

GraphView(ms.trace(network, x))

# %% [markdown]
# ## Where to next
#
# - **01 · Tensors, Cells and parameter names**: the building blocks, and how parameters get names.
# - **02 · PYNATIVE versus GRAPH mode**: running eagerly versus compiling, and the rules graph mode brings.
# - **03 · Autodiff and backward graphs**: `GradOperation`, `sens`, and the backward graph derived from the forward one.
# - **04 · TrainOneStepCell, step by step**: watch one training step happen, stage by stage, on real numbers.
# - **05 · Custom training steps**: your own `TrainOneStepCell`, gradient clipping, two optimizers, a GAN's two steps.
# - **06 · Model, callbacks and checkpoints**: what `Model.train` runs, callbacks, saving and loading weights.
# - **07 · Evaluation networks and metrics**: `WithEvalCell`, metrics, shared weights, and what `set_train` changes.
# - **08 · Data pipelines and data sinking**: datasets beside PyTorch's `DataLoader`, and sinking data to a device.
# - **09 · From PyTorch and TensorFlow**: one LeNet written three ways, and where MindSpore differs.
# - **10 · Data parallel training on MPI**: two ranks, each on its shard, and the AllReduce between them.
# - **11 · Inside mslab**: the engine's own source: primitives, the tape, autodiff, the graph and its executor.

# %% [markdown]
# ## Exercises
#
# Predict first, then change the code above and run it again (**Run All** from the changed cell on).
#
# 1. **Predict, then run.** What loss will the very first line of `LossMonitor` show if you train
#    a *fresh* network for one step, and why that number? (Rebuild `network`, `net_opt` and `model`
#    before training again: the network above is trained already.)
#
#    <details><summary>Solution</summary>
#
#    About 2.30 = ln 10. Fresh random weights are small, so the ten outputs are nearly equal and
#    softmax gives each digit a probability near 1/10; the cross-entropy of the right digit is then
#    −ln(1/10) = ln 10 ≈ 2.30. A loss far from 2.30 at the start would mean something is wrong
#    (labels outside 0..9, a missing normalisation).
#    </details>
#
# 2. **Change one thing.** Set `learning_rate=0.2` (ten times larger) and train a fresh network
#    for five epochs. Then try `learning_rate=0.002`. What do the curves look like, and why?
#
#    <details><summary>Solution</summary>
#
#    With 0.2 the steps are too large: the loss jumps about and stays high (in one run it ended near
#    1.7, test accuracy near 36%). With 0.002 the steps are too small: after 230 steps the loss has
#    barely left 2.30 (near 2.27, accuracy near 24%). 0.02 is between the two: fast, yet stable.
#    (Your numbers differ a little: they depend on the order the shuffled batches come in.)
#    </details>
#
# 3. **Change one thing.** Train with `batch_size=64` in `create_dataset`. How many steps does an
#    epoch take now, and what does `LossMonitor(23)` print?
#
#    <details><summary>Solution</summary>
#
#    1,497 digits in batches of 64, the last partial batch dropped: 23 steps an epoch (half of 46),
#    so `LossMonitor(23)` prints once an epoch, at step 23. With half as many updates in five epochs
#    the network learns less (here 93% test accuracy instead of 97%); more epochs make up for it.
#    </details>
