#!/usr/bin/env python
"""Build the lesson notebooks in notebooks/ from the cells written below, then execute them.

The lessons are code: each is a list of markdown and code cells in this file. This script turns
them into .ipynb files (nbformat) and runs each one with ``jupyter nbconvert --execute --inplace``,
so the stored outputs are real and nbval can check them later. Run it through the Makefile::

    make lessons                                      # rebuild and execute every lesson
    .venv/bin/python scripts/build_lessons.py 03 04   # only lessons whose names start with 03 or 04
    .venv/bin/python scripts/build_lessons.py --no-execute

Conventions (see ARCHITECTURE.md, "Notebook rules"):
- every lesson seeds with ``ms.set_seed`` first and imports only mslab's public API;
- a code cell whose output legitimately varies (pictures drawn by Graphviz, training losses after
  many float32 steps, widgets' live state) starts with ``# NBVAL_IGNORE_OUTPUT``;
- file names and line numbers of mslab's own sources in the IR text are masked for nbval by
  tests/nbval_sanitize.cfg, so editing the library does not invalidate the lessons.
"""
# ruff: noqa: E501  (the lessons' markdown tables are long lines by nature)
import argparse
import subprocess
import sys
import time
from pathlib import Path
from textwrap import dedent

import nbformat

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
IGNORE = "# NBVAL_IGNORE_OUTPUT"


def md(text):
    return ("markdown", dedent(text).strip("\n"))


def code(text, ignore=False):
    src = dedent(text).strip("\n")
    return ("code", f"{IGNORE}\n{src}" if ignore else src)


# --------------------------------------------------------------------------------------------------
# 00  Welcome
# --------------------------------------------------------------------------------------------------

LESSON_00 = [
    md("""
    # 00 · Welcome to mslab

    **mslab** is a small deep-learning engine, written on numpy, that speaks
    [MindSpore](https://www.mindspore.cn)'s API. It exists so that you can *see* what MindSpore
    does when it trains a network: the graph it records, the backward graph it derives, and each
    stage of one training step, on real numbers.

    Everything you write here runs with `mindspore` in place of `mslab`, within what mslab covers:

    | MindSpore | mslab |
    |---|---|
    | `import mindspore as ms` | `import mslab as ms` |
    | `from mindspore import nn, ops` | `from mslab import nn, ops` |
    | `import mindspore.dataset as ds` | `import mslab.dataset as ds` |

    Run the cells from top to bottom with **Shift+Enter**. This tour trains a real network on real
    handwritten digits in a few seconds; the next lessons open it up piece by piece.
    """),
    code("""
    import numpy as np
    import mslab as ms
    from mslab import nn, ops

    ms.set_seed(1)   # the same weights and the same data order every time you run the lesson
    print("mode:", "PYNATIVE" if ms.get_context("mode") == ms.PYNATIVE_MODE else "GRAPH")
    """),
    md("""
    ## Seven steps, three frameworks

    MindSpore, PyTorch and TensorFlow train a network in the same seven steps:

    1. build a dataset, 2. define the forward network, 3. define the loss, 4. define the optimizer,
    5. run the forward pass and get the loss, 6. run the backward pass to get gradients,
    7. let the optimizer update the weights.

    Steps 1–4 look almost the same in all three. Steps 5–7 are where they differ, because each
    one does automatic differentiation its own way:

    | | MindSpore | PyTorch | TensorFlow |
    |---|---|---|---|
    | steps 5–7 | `model.train(...)`, or a `TrainOneStepCell` called once per batch | `loss.backward()` then `optimizer.step()` | `tf.GradientTape` then `apply_gradients` |
    | how gradients are found | from the **graph's structure** (GRAPH mode) | by recording each op while it runs (`grad_fn`) | by recording each op on a tape |

    Lessons 02 to 04 explain that difference. The panel below puts the three side by side for each
    step (if PyTorch is installed, its **Run** button also checks that mslab and PyTorch compute the
    same loss, gradients and update on the same weights). First, though, let's train something.
    """),
    code("""
    from mslab.widgets import ComparePanel

    ComparePanel()
    """, ignore=True),
    md("""
    ## Step 1: a dataset

    mslab ships 1,797 real handwritten digits (8×8 pixels, from the UCI collection) in MNIST's file
    format, so `MnistDataset` reads them just as MindSpore reads MNIST. The pipeline below follows
    the one in MindSpore's LeNet tutorial: resize to 32×32, rescale, normalise, channels first,
    shuffle, batch.
    """),
    code("""
    import mslab.dataset as ds
    from mslab.dataset import transforms, vision


    def create_dataset(usage="train", batch_size=32):
        data = ds.MnistDataset(ds.digits_path(), usage=usage)
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
    """),
    code("""
    import matplotlib.pyplot as plt

    images, labels = batch["image"].asnumpy(), batch["label"].asnumpy()
    fig, axes = plt.subplots(1, 8, figsize=(8, 1.4))
    for ax, img, lab in zip(axes, images, labels):
        ax.imshow(img[0], cmap="gray_r")
        ax.set_title(int(lab))
        ax.axis("off")
    plt.show()
    """),
    md("""
    ## Steps 2–4: network, loss, optimizer

    A network is a `Cell`: declare its layers in `__init__`, say how data flows in `construct`.
    This is LeNet-5, the classic small convolutional network.
    """),
    code("""
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
    """),
    md("""
    ## Steps 5–7: `Model.train`

    `Model` joins the pieces: it wraps the network and loss in `WithLossCell`, wraps that and the
    optimizer in `TrainOneStepCell`, and calls it once per batch. We train in GRAPH mode, where
    MindSpore (and mslab) compiles the whole training step into one graph.

    `LossMonitor` prints the loss now and then; `LossPlot` draws it live as training runs.
    Two epochs take a few seconds. (Losses after many float32 steps can differ in the last digits
    between machines, so the test suite does not compare this cell's output: that is what the
    `# NBVAL_IGNORE_OUTPUT` line means.)
    """),
    code("""
    from mslab.widgets import LossPlot

    ms.set_context(mode=ms.GRAPH_MODE)
    model = ms.Model(network, net_loss, net_opt, metrics={"accuracy"})
    plot = LossPlot(title="LeNet-5 on the shipped digits", min_interval=1.0)   # redraw at most once a second
    display(plot)
    model.train(2, ds_train, callbacks=[ms.LossMonitor(23), plot])
    """, ignore=True),
    code("""
    result = model.eval(ds_test)
    print(f"test accuracy after two epochs: {result['accuracy']:.0%}")
    """, ignore=True),
    md("""
    Around 80% after 92 small steps, from random weights. A few predictions:
    """),
    code("""
    test_batch = next(ds_test.create_tuple_iterator())
    logits = model.predict(test_batch[0])
    print("predicted:", logits.asnumpy().argmax(axis=1)[:16])
    print("true:     ", test_batch[1].asnumpy()[:16])
    """, ignore=True),
    md("""
    ## A first look inside

    In GRAPH mode, calling a Cell first *traces* its `construct` into a graph. `ms.trace` shows that
    graph as text, one line per operation: its name (`%3`), the operator, its inputs, the result's
    type, and a comment saying which Cell (`conv1`, `fc1`, ...) and which source line made it.
    """),
    code("""
    x = batch["image"]
    print(ms.trace(network, x))
    """),
    md("""
    `mslab.viz` draws the same graph. Operations are grouped by the Cell that made them: a Cell with
    several operations (each `Dense` is a `MatMul` then a `BiasAdd`) is drawn as one 3-D box. Edges
    carry tensor shapes. (Pictures are drawn by Graphviz, whose fonts differ between machines, so the
    tests do not compare their exact bytes.)
    """),
    code("""
    import mslab.viz as viz

    viz.forward_graph(network, x)
    """, ignore=True),
    md("""
    `GraphView` is the interactive version: pan and zoom, click a node to inspect it, expand a Cell's
    box to see the operations inside.
    """),
    code("""
    from mslab.widgets import GraphView

    GraphView(ms.trace(network, x))
    """, ignore=True),
    md("""
    ## Where to next

    - **01 · Tensors, Cells and parameter names**: the building blocks, and how parameters get names.
    - **02 · PYNATIVE versus GRAPH mode**: running eagerly versus compiling, and the rules graph mode brings.
    - **03 · Autodiff and backward graphs**: `GradOperation`, `sens`, and the backward graph derived from the forward one.
    - **04 · TrainOneStepCell, step by step**: watch one training step happen, stage by stage, on real numbers.
    """),
]

# --------------------------------------------------------------------------------------------------
# 01  Tensors, Cells and parameter names
# --------------------------------------------------------------------------------------------------

LESSON_01 = [
    md("""
    # 01 · Tensors, Cells and parameter names

    Three building blocks carry every MindSpore program:

    - **Tensor**: an n-dimensional array with a dtype (like `torch.Tensor` or `tf.Tensor`);
    - **Parameter**: a Tensor the network learns, with a *name*;
    - **Cell**: a piece of network (like `torch.nn.Module` or `tf.keras.layers.Layer`), with `construct`
      saying what it computes.

    This lesson meets all three, and pays special attention to parameter names: optimizers,
    checkpoints and gradient tables all refer to parameters by name.
    """),
    code("""
    import numpy as np
    import mslab as ms
    from mslab import nn, ops
    from mslab import Tensor, Parameter, ParameterTuple

    ms.set_seed(1)
    """),
    md("""
    ## Tensor

    Make a Tensor from a number, a list or a numpy array. `repr` shows shape, dtype and value;
    `print` shows just the numbers; `.asnumpy()` gives the numpy array back.
    """),
    code("""
    a = Tensor(np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float32))
    b = Tensor([[0.5, 0.5, 0.5], [1.0, 1.0, 1.0]], dtype=ms.float32)
    print(repr(a))
    print(a.shape, a.dtype)
    print(a * b + 1)
    print(type(a.asnumpy()))
    """),
    code("""
    print(repr(Tensor(3.0)))           # a 0-d tensor (a scalar)
    print(Tensor(3).dtype, Tensor(3.0).dtype, Tensor(np.int32(3)).dtype)
    print(a.sum(), a.mean(axis=0), a.reshape(3, 2).shape)
    """),
    md("""
    ## Parameter

    A Parameter is a Tensor that training updates. `requires_grad=True` means gradients are
    computed for it. A Parameter's `name` is how the rest of the framework finds it.
    """),
    code("""
    w = Parameter(Tensor(np.ones((1, 1), np.float32)), name="w")
    print(repr(w))
    w.set_data(Tensor(np.full((1, 1), 2.0, np.float32)))
    print(w.asnumpy())
    frozen = Parameter(Tensor(np.zeros(2, np.float32)), name="frozen", requires_grad=False)
    print(repr(frozen))
    """),
    md("""
    ## Cell: the LinearNet from the MindSpore docs

    Declare sub-cells and parameters in `__init__`; write the computation in `construct`. Calling the
    Cell runs `construct`. `Normal(0.02)` draws the initial weights from a normal distribution with
    standard deviation 0.02 (seeded above, so they are the same every run).
    """),
    code("""
    from mslab.common.initializer import Normal


    class LinearNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(1, 1, Normal(0.02), Normal(0.02))

        def construct(self, x):
            return self.fc(x)


    net = LinearNet()
    print(net)
    x = Tensor(np.array([[1.0], [2.0], [3.0]], np.float32))
    print(net(x))
    """),
    md("""
    ## How parameters get their names

    Assigning a Cell to an attribute (`self.fc = nn.Dense(...)`) registers it as a child, and its
    parameters are prefixed with the attribute path: `fc.weight`, `fc.bias`. Parameters that belong
    to the Cell itself come first, then the children in the order you assigned them.
    """),
    code("""
    for p in net.trainable_params():
        print(repr(p))
    """),
    code("""
    class Block(nn.Cell):
        def __init__(self, width):
            super().__init__()
            self.fc = nn.Dense(width, width)
            self.act = nn.ReLU()

        def construct(self, x):
            return self.act(self.fc(x))


    class Tower(nn.Cell):
        def __init__(self):
            super().__init__()
            self.scale = Parameter(Tensor(np.ones(4, np.float32)))   # takes its attribute name: "scale"
            self.layers = nn.SequentialCell([Block(4), Block(4)])
            self.heads = nn.CellList([nn.Dense(4, 1), nn.Dense(4, 1)])

        def construct(self, x):
            x = self.layers(x * self.scale)
            return self.heads[0](x) + self.heads[1](x)


    tower = Tower()
    for name, p in tower.parameters_and_names():
        print(f"{name:22s} {p.shape}")
    """),
    md("""
    `SequentialCell` and `CellList` name their children `0`, `1`, ... `cells_and_names()` walks the
    whole tree; its first entry is the Cell itself, with the empty name.
    """),
    code("""
    for name, cell in tower.cells_and_names():
        print(repr(name), type(cell).__name__)
    """),
    md("""
    ### A common trap: a plain Python list of layers

    MindSpore's migration guide warns: keep layers in `nn.CellList` or `nn.SequentialCell`, never a
    plain list. A list is not registered, so its parameters are invisible: the optimizer would never
    train them and a checkpoint would never save them.
    """),
    code("""
    class ListNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = [nn.Dense(2, 2), nn.Dense(2, 2)]   # don't: a plain list

        def construct(self, x):
            for layer in self.layers:
                x = layer(x)
            return x


    class CellListNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.CellList([nn.Dense(2, 2), nn.Dense(2, 2)])   # do

        def construct(self, x):
            for layer in self.layers:
                x = layer(x)
            return x


    print("plain list:", [p.name for p in ListNet().trainable_params()])
    print("CellList:  ", [p.name for p in CellListNet().trainable_params()])
    """),
    md("""
    ## Wrappers keep the names

    Training wraps your network twice: `WithLossCell` adds the loss, `TrainOneStepCell` adds the
    gradient and the optimizer. Both are built with `auto_prefix=False`, so the names do not grow
    prefixes: inside the wrapped network the weight is still `fc.weight`. The optimizer keeps its own
    state per parameter, named after it (`moments.fc.weight` for Momentum).
    """),
    code("""
    crit = nn.MSELoss()
    net_with_criterion = nn.WithLossCell(net, crit)
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.005, momentum=0.9)
    train_net = nn.TrainOneStepCell(net_with_criterion, opt)
    train_net.set_train()

    print("WithLossCell:    ", [p.name for p in net_with_criterion.trainable_params()])
    print("optimizer.parameters:", [p.name for p in opt.parameters])
    print("TrainOneStepCell:", [name for name, _ in train_net.parameters_and_names()])
    """),
    md("""
    ## Weight sharing

    A training network and an evaluation network built on the **same** `net` instance share its
    Parameters: the very same objects. Train one, and the other sees the new weights; no checkpoint
    round trip is needed.
    """),
    code("""
    eval_net = nn.WithEvalCell(net, crit)
    eval_net.set_train(False)

    y = 2 * x + 3
    before = net.fc.weight.asnumpy().copy()
    train_net(x, y)   # one training step
    print("same Parameter object:", eval_net.trainable_params()[0] is train_net.trainable_params()[0])
    print("weight changed:       ", not np.array_equal(before, net.fc.weight.asnumpy()))
    loss, outputs, label = eval_net(x, y)
    print("eval sees the update: ", np.allclose(outputs.asnumpy(), net(x).asnumpy()))
    """),
    md("""
    ## `set_train` and the `training` flag

    `set_train(True)` sets `training` on a Cell and every Cell inside it. Layers such as `Dropout`
    and `BatchNorm` behave differently in training and evaluation; this flag is how they know
    (PyTorch's `model.train()` / `model.eval()`).
    """),
    code("""
    drop_net = nn.SequentialCell([nn.Dense(4, 4), nn.Dropout(p=0.5)])
    print([c.training for _, c in drop_net.cells_and_names()])
    drop_net.set_train()
    print([c.training for _, c in drop_net.cells_and_names()])
    """),
    md("""
    ## Cells take Tensors

    A Cell's inputs must be mslab Tensors. A numpy array gets a clear error that says what to do.
    """),
    code("""
    try:
        net(np.ones((2, 1), np.float32))
    except TypeError as e:
        print("TypeError:", e)
    """),
    md("""
    **Next:** lesson 02 shows what happens when you call a Cell: right away (PYNATIVE mode), or
    compiled into a graph first (GRAPH mode).
    """),
]

# --------------------------------------------------------------------------------------------------
# 02  PYNATIVE versus GRAPH mode
# --------------------------------------------------------------------------------------------------

LESSON_02 = [
    md("""
    # 02 · PYNATIVE versus GRAPH mode

    MindSpore runs a network in one of two modes:

    - **PYNATIVE_MODE** (the default in MindSpore 2.x): each operation runs as soon as Python reaches
      it, like PyTorch. Easy to debug: `print` shows real numbers.
    - **GRAPH_MODE**: the first call *compiles* `construct` into a graph, which then runs as a whole,
      like TensorFlow's `@tf.function`. Faster on a device, and the whole graph (even the whole
      training loop) can be sent to the accelerator at once.

    mslab follows both. This lesson shows what compiling means, and the rules it brings.
    """),
    code("""
    import warnings

    import numpy as np
    import mslab as ms
    from mslab import nn, ops, Tensor

    ms.set_seed(1)
    print(ms.GRAPH_MODE, ms.PYNATIVE_MODE, ms.get_context("mode"))
    """),
    md("""
    ## Choosing a mode

    `ms.set_context(mode=...)` picks the mode. `device_target` names the hardware: mslab accepts
    "Ascend", "GPU" and "CPU" and always computes on the CPU with numpy, and says so once. The target
    matters for one thing, data sinking (the end of this lesson): like MindSpore, mslab sinks only on a
    device, which it simulates.
    """),
    code("""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ms.set_context(mode=ms.GRAPH_MODE, device_target="Ascend")
    print([str(w.message) for w in caught])
    ms.set_context(device_target="CPU")
    print(ms.get_context("mode"), ms.get_context("device_target"))
    """),
    md("""
    A MindSpore training script usually sets its environment up from a config file. Here is the
    single-device part of the template from MindSpore's migration guide, unchanged except for the import:
    """),
    code("""
    from types import SimpleNamespace


    def init_env(cfg):
        \"\"\"Initialise the runtime environment.\"\"\"
        ms.set_seed(cfg.seed)
        if cfg.device_target != "None":
            if cfg.device_target not in ["Ascend", "GPU", "CPU"]:
                raise ValueError(f"Invalid device_target: {cfg.device_target}, "
                                 f"should be in ['None', 'Ascend', 'GPU', 'CPU']")
            ms.set_context(device_target=cfg.device_target)
        if cfg.context_mode not in ["graph", "pynative"]:
            raise ValueError(f"Invalid context_mode: {cfg.context_mode}, "
                             f"should be in ['graph', 'pynative']")
        context_mode = ms.GRAPH_MODE if cfg.context_mode == "graph" else ms.PYNATIVE_MODE
        ms.set_context(mode=context_mode)
        cfg.device_target = ms.get_context("device_target")
        if cfg.device_target == "CPU":
            cfg.device_id = 0
            cfg.device_num = 1
            cfg.rank_id = 0
        if hasattr(cfg, "device_id") and isinstance(cfg.device_id, int):
            ms.set_context(device_id=cfg.device_id)
        cfg.device_num = 1
        cfg.rank_id = 0
        print("run standalone!", flush=True)


    config = SimpleNamespace(seed=1, device_target="CPU", context_mode="graph", device_num=1, device_id=0)
    init_env(config)
    print(ms.get_context("mode") == ms.GRAPH_MODE)
    """),
    md("""
    ## The same network, both ways

    Both modes compute the same numbers. mslab checks this for every operator in its test suite;
    here is one small network.
    """),
    code("""
    class MLP(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Dense(3, 4)
            self.relu = nn.ReLU()
            self.fc2 = nn.Dense(4, 2)

        def construct(self, x):
            return self.fc2(self.relu(self.fc1(x)))


    mlp = MLP()
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) / 6)

    ms.set_context(mode=ms.PYNATIVE_MODE)
    eager = mlp(x)
    ms.set_context(mode=ms.GRAPH_MODE)
    compiled = mlp(x)
    print(eager)
    print("identical:", np.array_equal(eager.asnumpy(), compiled.asnumpy()))
    """),
    md("""
    ## What compiling means: `construct` runs once, on symbols

    In GRAPH mode the first call runs `construct` with *symbolic* tensors: they have a shape and a
    dtype but no numbers yet. Each operation adds a node to a graph instead of computing. Then the
    graph runs on your data. Later calls with the same input shapes reuse the graph, so Python code in
    `construct`, such as `print`, does not run again.
    """),
    code("""
    class Chatty(nn.Cell):
        def construct(self, x):
            print("  construct runs, x =", x)
            return x * 2


    chatty = Chatty()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    print("PYNATIVE, call 1:"); chatty(x)
    print("PYNATIVE, call 2:"); chatty(x)

    ms.set_context(mode=ms.GRAPH_MODE)
    chatty = Chatty()
    print("GRAPH, call 1:"); out = chatty(x)
    print("GRAPH, call 2:"); out = chatty(x)
    print("GRAPH, a new shape:"); out = chatty(Tensor(np.ones((5, 3), np.float32)))
    print(out.shape)
    """),
    md("""
    In PYNATIVE mode `print` sees real numbers on every call. In GRAPH mode it sees a symbol, once per
    input shape: the second call ran the compiled graph without entering `construct` at all.

    ## Reading the graph: `ms.trace`

    `ms.trace(cell, *inputs)` returns the graph a call compiles to. Print it for the IR text: one line
    per node, with the node's name, operator, inputs, attributes, output type, and a comment with its
    phase, the Cell it came from and the source line. (MindSpore can dump its graphs as text too;
    mslab's IR follows that idea.)
    """),
    code("""
    graph = ms.trace(mlp, x)
    print(graph)
    """),
    code("""
    import mslab.viz as viz

    viz.forward_graph(mlp, x)
    """, ignore=True),
    md("""
    ## Python control flow on constants unrolls

    Loops and `if`s over Python values, shapes and attributes are fine in GRAPH mode: they run while
    the graph is being traced, and only the operations they reach end up in the graph. The loop below
    becomes three `Add` nodes; the `if` on a shape is decided at compile time.
    """),
    code("""
    class Unrolled(nn.Cell):
        def __init__(self):
            super().__init__()
            self.repeats = 3

        def construct(self, x):
            for _ in range(self.repeats):
                x = x + 1
            if x.shape[0] == 2:
                x = x * 10
            return x


    print(ms.trace(Unrolled(), x))
    """),
    md("""
    ## The graph-mode rules, as real errors

    Some Python cannot be compiled, because it needs numbers that do not exist until the graph runs.
    MindSpore documents these as *constraints on network construction*. mslab stops with an error that
    explains each one. Run the cells and read the messages.

    **Rule 1: no branching on a tensor's value.**
    """),
    code("""
    class BranchOnValue(nn.Cell):
        def construct(self, x):
            if x.sum() > 0:
                return x * 2
            return x


    try:
        BranchOnValue()(x)
    except Exception as e:
        print(f"{type(e).__name__}: {e}")
    """),
    md("""
    The fix the message suggests: compute both sides and choose element-wise with `ops.select`. That
    is one node in the graph, decided when the graph runs.
    """),
    code("""
    class SelectOnValue(nn.Cell):
        def construct(self, x):
            positive = x.sum() > 0
            return ops.select(positive, x * 2, x)


    print(SelectOnValue()(x))       # the sum is positive: x * 2
    print(SelectOnValue()(x - 1))   # the sum is negative: x - 1 unchanged
    """),
    md("""
    **Rule 2: no turning a traced tensor into a Python number** (`float(t)`, `int(t)`, `t.item()`).
    """),
    code("""
    class ToPythonFloat(nn.Cell):
        def construct(self, x):
            return x * float(x.max())


    try:
        ToPythonFloat()(x)
    except Exception as e:
        print(f"{type(e).__name__}: {e}")
    """),
    md("""
    **Rule 3: no numpy inside `construct`.** numpy needs the numbers now; use `ops` instead.
    """),
    code("""
    class NumpyInside(nn.Cell):
        def construct(self, x):
            return np.exp(x)


    try:
        NumpyInside()(x)
    except Exception as e:
        print(f"{type(e).__name__}: {e}")

    class AsNumpyInside(nn.Cell):
        def construct(self, x):
            return Tensor(x.asnumpy() * 2)


    try:
        AsNumpyInside()(x)
    except Exception as e:
        print(f"{type(e).__name__}: {e}")
    """),
    md("""
    **Rule 4: `while` on a tensor's value** is rule 1 again, in a loop.
    """),
    code("""
    class WhileOnValue(nn.Cell):
        def construct(self, x):
            while x.sum() < 100:
                x = x * 2
            return x


    try:
        WhileOnValue()(x)
    except Exception as e:
        print(f"{type(e).__name__}: {e}")

    ms.set_context(mode=ms.PYNATIVE_MODE)
    print("in PYNATIVE mode the same loop just runs:", WhileOnValue()(x).sum())
    ms.set_context(mode=ms.GRAPH_MODE)
    """),
    md("""
    ## `ms.jit`: compile one function

    In PYNATIVE mode you can still compile a single function or method with the `@ms.jit` decorator
    (1.x name: `ms_function`). The migration guide's functional training loop does exactly that for
    its training step. The rules above apply inside it.
    """),
    code("""
    ms.set_context(mode=ms.PYNATIVE_MODE)


    @ms.jit
    def scaled_sum(a, b):
        return (a * 2 + b).sum()


    print(scaled_sum(x, x))
    print(scaled_sum(x, x))   # the second call runs the cached graph
    """),
    md("""
    ## Why compile? Sinking to the device

    On an Ascend chip, a compiled graph can be sent to the device whole and run there without asking
    the host (the CPU running Python) after every operation. MindSpore goes further with **data
    sinking**: `model.train(..., dataset_sink_mode=True, sink_size=n)` sends `n` batches down at once
    and runs `n` steps on the device before returning one result. Callbacks then fire once per sink,
    not once per step.

    Sinking needs a device: on `device_target="CPU"`, MindSpore's default on a CPU install, it
    quietly trains step by step instead, and so does mslab. With `device_target="Ascend"`, as seed
    `train.md` sets it, mslab simulates the device and counts the host↔device transfers, so you can
    see the difference. The data here is the LinearNet regression from MindSpore's docs.
    """),
    code("""
    import mslab.dataset as ds
    from mslab.common.initializer import Normal


    def get_data(num, w=2.0, b=3.0):
        for _ in range(num):
            x = np.random.uniform(-10.0, 10.0)
            noise = np.random.normal(0, 1)
            y = x * w + b + noise
            yield np.array([x]).astype(np.float32), np.array([y]).astype(np.float32)


    def create_dataset(num_data, batch_size=16):
        dataset = ds.GeneratorDataset(list(get_data(num_data)), column_names=["data", "label"])
        return dataset.batch(batch_size)


    class LinearNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(1, 1, Normal(0.02), Normal(0.02))

        def construct(self, x):
            return self.fc(x)


    class StepCounter(ms.Callback):
        \"\"\"Print which step the callback sees, and the loss it is handed.\"\"\"

        def on_train_step_end(self, run_context):
            cb = run_context.original_args()
            loss = float(cb.net_outputs.asnumpy())
            print(f"  callback: epoch {cb.cur_epoch_num}, step {cb.cur_step_num:2d}, loss {loss:9.3f}")


    ms.set_context(mode=ms.GRAPH_MODE, device_target="Ascend")   # sinking happens on a device
    for sink in (False, True):
        ms.set_seed(1)                     # the same data, data order and weights for both runs
        train_data = create_dataset(160)   # 10 batches of 16
        net = LinearNet()
        model = ms.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.005, 0.9))
        print(f"dataset_sink_mode={sink}:")
        if sink:
            model.train(4, train_data, callbacks=[StepCounter()], dataset_sink_mode=True, sink_size=5)
        else:
            model.train(2, train_data, callbacks=[StepCounter()])
        print("  transfers:", model.transfer_counts.as_dict())
    ms.set_context(device_target="CPU")
    """),
    md("""
    Both runs train the same 20 steps on the same batches, and end on the same loss. Without sinking,
    the callback sees every step and the host sends 20 batches and fetches 20 results. With
    `sink_size=5`, an "epoch" becomes 5 steps run on the device in one go: the callback fires once per
    sink, `cur_step_num` jumps by 5, only the last step's loss comes back, and the host and device talk
    8 times instead of 40. Each sink continues through the data where the last one stopped, so 4 sinks
    of 5 cover the 10 batches twice: in MindSpore's words, the total is `epoch * sink_size` batches.

    **Next:** lesson 03 shows the other thing a graph makes possible: deriving the backward pass from
    the forward graph's structure.
    """),
]

# --------------------------------------------------------------------------------------------------
# 03  Autodiff and backward graphs
# --------------------------------------------------------------------------------------------------

LESSON_03 = [
    md("""
    # 03 · Autodiff and backward graphs

    Training needs gradients: how much the loss changes when each weight changes. Frameworks find
    them by *automatic differentiation*. MindSpore's migration guide explains the two ways:

    - **PyTorch** records: as each operation runs, the result remembers the backward function that
      undoes it (`grad_fn`). `loss.backward()` walks that chain in reverse. MindSpore's PYNATIVE mode
      works like this too.
    - **MindSpore in GRAPH mode** derives: it records nothing while running. `GradOperation` takes the
      forward *graph* and, from its structure alone, generates a backward graph: for each forward
      node, the nodes of its gradient rule (its *bprop*). The result does not depend on the data, so
      it is compiled once and run again and again.

    This lesson shows both, on real graphs.
    """),
    code("""
    import numpy as np
    import mslab as ms
    from mslab import nn, ops, Tensor, Parameter, ParameterTuple
    import mslab.viz as viz

    ms.set_seed(1)
    """),
    md("""
    ## `GradOperation`: the example from MindSpore's API docs

    `Net` computes `(x * z) @ y` with a learnable scalar `z`. `GradOperation()` turns a network into a
    function that returns the gradient with respect to its first input. It does not take tensors; it
    takes a network, and gives back a new one.
    """),
    code("""
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.matmul = ops.MatMul()
            self.z = Parameter(Tensor(np.array([1.0], np.float32)), name="z")

        def construct(self, x, y):
            x = x * self.z
            out = self.matmul(x, y)
            return out


    class GradNetWrtX(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.grad_op = ops.GradOperation()

        def construct(self, x, y):
            gradient_function = self.grad_op(self.net)
            return gradient_function(x, y)


    x = Tensor([[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]], dtype=ms.float32)
    y = Tensor([[0.11, 3.3, 1.1], [1.1, 0.2, 1.4], [1.1, 2.2, 0.3]], dtype=ms.float32)

    for mode, name in ((ms.PYNATIVE_MODE, "PYNATIVE"), (ms.GRAPH_MODE, "GRAPH")):
        ms.set_context(mode=mode)
        print(name)
        print(GradNetWrtX(Net())(x, y))
    """),
    md("""
    Both modes agree. Since `out = x @ y` (with `z = 1`), the gradient of `sum(out)` with respect to
    `x[i, k]` is the sum of row `k` of `y`: 0.11 + 3.3 + 1.1 = 4.51, and so on.

    ## What do you want the gradient of? The four variants

    | `GradOperation(...)` | call | returns |
    |---|---|---|
    | `()` | `grad(net)(x, y)` | gradient of the first input |
    | `(get_all=True)` | `grad(net)(x, y)` | a tuple: one gradient per input |
    | `(get_by_list=True)` | `grad(net, weights)(x, y)` | a tuple: one gradient per weight |
    | `(get_all=True, get_by_list=True)` | `grad(net, weights)(x, y)` | `(input gradients, weight gradients)` |

    `weights` is a `ParameterTuple`. Training uses `get_by_list=True`: it needs weight gradients.
    """),
    code("""
    net = Net()
    weights = ParameterTuple(net.trainable_params())

    dx, dy = ops.GradOperation(get_all=True)(net)(x, y)
    print("get_all        -> dx", dx.shape, "dy", dy.shape)
    (dz,) = ops.GradOperation(get_by_list=True)(net, weights)(x, y)
    print("get_by_list    -> dz", dz)
    (dx, dy), (dz,) = ops.GradOperation(get_all=True, get_by_list=True)(net, weights)(x, y)
    print("both           -> dx", dx.shape, "dy", dy.shape, "dz", dz.shape)
    """),
    md("""
    ## `sens`: where the backward pass starts

    A gradient flows backwards from the output. Something has to say how much each output element
    matters at the start: that is the **sensitivity**, `sens`. By default it is all ones (the gradient
    of `sum(out)`). With `sens_param=True` you pass it yourself as one extra, last argument. It plays
    the part of the tensor in PyTorch's `loss.backward(gradient)`.

    Here only the first row of the output matters, with weights 1, 2, 3:
    """),
    code("""
    sens = Tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]], dtype=ms.float32)
    dx = ops.GradOperation(sens_param=True)(net)(x, y, sens)
    print(dx)
    print("by hand, sens @ y.T:")
    print(sens.asnumpy() @ y.asnumpy().T)
    """),
    md("""
    The migration guide's PyTorch example, `x = x * 2; x = x - 1; x.backward(x)`, is the same idea:
    the output itself is passed as the starting gradient. In mslab:
    """),
    code("""
    def f(a):
        a = a * 2
        a = a - 1
        return a


    ones = Tensor(np.ones((2, 2), np.float32))
    out = f(ones)
    print(ops.GradOperation(sens_param=True)(f)(ones, out))   # d/da of sum(out * f(a)) = 2 * out
    """),
    md("""
    ## The functional forms: `ms.grad` and `ms.value_and_grad`

    MindSpore 2.x adds functions that do the same job. `grad_position` picks inputs, `weights` picks
    parameters, and `has_aux=True` lets a function return extra outputs that are *not* differentiated,
    as the migration guide's two-loss `Trainer` does.
    """),
    code("""
    print(ms.grad(net, grad_position=(0, 1))(x, y)[1].shape)

    def forward_fn(x, y):
        out = net(x, y)
        loss = (out ** 2).mean()
        return loss, out.max()          # the loss first; the rest is auxiliary

    value_and_grad = ms.value_and_grad(forward_fn, grad_position=None, weights=weights, has_aux=True)
    (loss, aux), grads = value_and_grad(x, y)
    print("loss", loss, "aux", aux, "dloss/dz", grads[0])
    """),
    md("""
    ## Check it: a central difference

    A gradient is a slope. Nudge `z` by a tiny `h` both ways and compare. (mslab's test suite does
    this for every operator.)
    """),
    code("""
    def loss_at(z_value):
        net.z.set_data(Tensor(np.array([z_value], np.float32)))
        value = forward_fn(x, y)[0].asnumpy()
        net.z.set_data(Tensor(np.array([1.0], np.float32)))
        return float(value)

    h = 1e-2
    numeric = (loss_at(1 + h) - loss_at(1 - h)) / (2 * h)
    print(f"autodiff {float(grads[0].asnumpy()[0]):.3f}   central difference {numeric:.3f}")
    """),
    md("""
    ## The backward graph

    `GradOperation(net)` is itself a function that can be traced. Its graph holds the forward nodes
    and, after them, the backward nodes autodiff generated. Each backward node says which forward node
    it is the gradient of (`grad of %1 MatMul`), and points at the same source line.
    """),
    code("""
    ms.set_context(mode=ms.GRAPH_MODE)
    print(ms.trace(ops.GradOperation()(net), x, y))
    """),
    md("""
    Read it against the maths. The forward is `%0 = x * z`, `%1 = %0 @ y`. The backward starts
    from `OnesLike(%1)` (the default `sens`), then applies MatMul's rule `d%0 = dout @ yᵀ` and Mul's rule
    `dx = d%0 * z`. No numbers were needed to write this down, only the graph.

    The picture shows the backward nodes in their own colour; the forward values they read appear as
    faded stubs.
    """),
    code("""
    viz.backward_graph(net, x, y, weights=None, grad_position=(0,))
    """, ignore=True),
    md("""
    For a network and its loss, the backward graph gives every weight its gradient. Here it is for
    the LinearNet of lesson 01 with an MSE loss: the gradient rules of `ReduceMean`, `Square`, `Sub`,
    `BiasAdd` and `MatMul`, one after the other.
    """),
    code("""
    from mslab.common.initializer import Normal


    class LinearNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(1, 1, Normal(0.02), Normal(0.02))

        def construct(self, x):
            return self.fc(x)


    linear = LinearNet()
    loss_net = nn.WithLossCell(linear, nn.MSELoss())
    data = Tensor(np.array([[1.0], [2.0], [3.0], [4.0]], np.float32))
    label = 2 * data + 3
    picture = viz.backward_graph(loss_net, data, label)
    print(picture.text("backward"))
    """),
    code("""
    picture
    """, ignore=True),
    md("""
    ## The PYNATIVE tape

    In PYNATIVE mode there is no graph to derive from, so mslab does what PyTorch does: while the
    forward runs, each executed operation is appended to a **tape** with its real inputs and output.
    `ms.record()` lets you open one and look. The tape *is* a forward graph, recorded instead of traced,
    so it prints and draws the same way.
    """),
    code("""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    with ms.record() as tape:
        loss = loss_net(data, label)
    print("loss:", loss)
    print(tape.graph)
    """),
    md("""
    Backward in PYNATIVE mode walks this tape in reverse, applying the same bprop rules, on the values
    it recorded. Same rules, same numbers: the only difference is *when* the backward is worked out.

    `TapeView` shows the tape next to the backward graph GRAPH mode derives for the same call:
    """),
    code("""
    from mslab.widgets import TapeView

    TapeView(loss_net, data, label)
    """, ignore=True),
    code("""
    weights = ParameterTuple(linear.trainable_params())
    grad_fn = ops.GradOperation(get_by_list=True)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    eager = grad_fn(loss_net, weights)(data, label)
    ms.set_context(mode=ms.GRAPH_MODE)
    compiled = grad_fn(loss_net, weights)(data, label)
    for p, a, b in zip(weights, eager, compiled):
        a, b = a.asnumpy(), b.asnumpy()
        print(f"{p.name:10s} PYNATIVE {a.ravel()}  GRAPH {b.ravel()}  equal: {np.array_equal(a, b)}")
    """),
    md("""
    **Next:** lesson 04 puts gradients to work: `TrainOneStepCell` computes them and hands them to the
    optimizer, and you can watch one step happen stage by stage.
    """),
]

# --------------------------------------------------------------------------------------------------
# 04  TrainOneStepCell, step by step
# --------------------------------------------------------------------------------------------------

LESSON_04 = [
    md("""
    # 04 · TrainOneStepCell, step by step

    `Model.train` calls one Cell once per batch: `TrainOneStepCell`. It is short, and it is where
    forward, backward and update meet. This lesson reads its source, builds it yourself, draws the one
    graph it compiles to, and then **steps through one real training step**, stage by stage.
    """),
    code("""
    import numpy as np
    import mslab as ms
    from mslab import nn, ops, Tensor, ParameterTuple
    from mslab.common.initializer import Normal
    import mslab.viz as viz

    ms.set_seed(1)
    ms.set_context(mode=ms.GRAPH_MODE)
    """),
    md("""
    ## The network: LinearNet, from MindSpore's docs

    One `Dense(1, 1)` layer learning `y = 2x + 3`, an MSE loss, and Momentum. `WithLossCell` joins the
    network and the loss; `TrainOneStepCell` adds the gradient and the optimizer.
    """),
    code("""
    class LinearNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(1, 1, Normal(0.02), Normal(0.02))

        def construct(self, x):
            return self.fc(x)


    net = LinearNet()
    crit = nn.MSELoss()
    net_with_criterion = nn.WithLossCell(net, crit)
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.005, momentum=0.9)
    train_net = nn.TrainOneStepCell(net_with_criterion, opt)
    train_net.set_train()

    x = Tensor(np.array([[-2.0], [-1.0], [0.5], [1.0], [3.0]], np.float32))
    y = 2 * x + 3
    print("weight", net.fc.weight.asnumpy().ravel(), "bias", net.fc.bias.asnumpy())
    """),
    md("""
    ## Inside `TrainOneStepCell`

    This is its `construct` in MindSpore, four lines:

    ```python
    def construct(self, *inputs):
        loss = self.network(*inputs)                              # 1. forward: the loss
        sens = F.fill(loss.dtype, loss.shape, self.sens)          # 2. sens: where backward starts (1.0)
        grads = self.grad(self.network, self.weights)(*inputs, sens)   # 3. backward: GradOperation(get_by_list=True, sens_param=True)
        grads = self.grad_reducer(grads)                          #    (average across devices; identity on one)
        loss = F.depend(loss, self.optimizer(grads))              # 4. update, then return the loss from BEFORE it
        return loss
    ```

    `F.depend(loss, x)` returns `loss` but makes sure `x` (the update) has happened first. In a graph,
    where nothing runs in "line order", that is how an ordering is stated.

    The network is called twice, for the loss and inside `GradOperation`, yet MindSpore runs **one**
    forward pass per step: GRAPH mode merges the two calls, PYNATIVE mode reuses the forward it has
    just recorded. It matters for layers with side effects: BatchNorm's moving statistics advance once
    per step, Dropout draws one mask. mslab's `nn.TrainOneStepCell` says so in its code: steps 1 to 3
    are one call, `loss, grads = self.grad_with_loss(self.network, self.weights)(*inputs)`, which
    records the forward once, fills `sens` from its loss (`self.fill_sens(loss)`), then runs the
    backward over that recording.

    The custom training loop in MindSpore's `train.md` writes the same Cell by hand. Let's do that too,
    and check that it does exactly what `nn.TrainOneStepCell` does:
    """),
    code("""
    class MyTrainOneStepCell(nn.Cell):
        def __init__(self, network, optimizer, sens=1.0):
            super().__init__(auto_prefix=False)
            self.network = network
            self.weights = ParameterTuple(network.trainable_params())
            self.optimizer = optimizer
            self.grad = ops.GradOperation(get_by_list=True, sens_param=True)
            self.sens = sens

        def construct(self, data, label):
            weights = self.weights
            loss = self.network(data, label)
            sens = ops.Fill()(ops.DType()(loss), ops.Shape()(loss), self.sens)
            grads = self.grad(self.network, weights)(data, label, sens)
            return ops.depend(loss, self.optimizer(grads))


    def make(cell_class):
        ms.set_seed(1)
        n = LinearNet()
        o = nn.Momentum(n.trainable_params(), learning_rate=0.005, momentum=0.9)
        return n, cell_class(nn.WithLossCell(n, nn.MSELoss()), o)


    (net_a, mine), (net_b, theirs) = make(MyTrainOneStepCell), make(nn.TrainOneStepCell)
    for step in range(3):
        la, lb = mine(x, y).asnumpy(), theirs(x, y).asnumpy()
        print(f"step {step}: loss {float(la):.4f} vs {float(lb):.4f}   equal: {np.array_equal(la, lb)}")
    print("same weights after 3 steps:", np.array_equal(net_a.fc.weight.asnumpy(), net_b.fc.weight.asnumpy()))
    """),
    md("""
    The first example in MindSpore's `train.md` ("custom training network") uses `TrainOneStepCell`
    on a Cell of its own, with every weight set to one. Its labels are all zero, so the
    cross-entropy of every sample is zero: the printed loss is 32 zeros.
    """),
    code("""
    from mslab.common.tensor import Tensor
    from mslab.nn import Cell, Dense, SoftmaxCrossEntropyWithLogits, Momentum, TrainOneStepCell, WithLossCell


    class ReLUReduceMeanDense(Cell):
        def __init__(self, kernel, bias, in_channel, num_class):
            super().__init__()
            self.relu = ops.ReLU()
            self.mean = ops.ReduceMean(keep_dims=False)
            self.dense = Dense(in_channel, num_class, kernel, bias)

        def construct(self, x):
            x = self.relu(x)
            x = self.mean(x, (2, 3))
            x = self.dense(x)
            return x


    weight_np = np.ones((1000, 2048)).astype(np.float32)
    weight = Tensor(weight_np.copy())
    bias_np = np.ones((1000,)).astype(np.float32)
    bias = Tensor(bias_np.copy())
    big_net = ReLUReduceMeanDense(weight, bias, 2048, 1000)
    criterion = SoftmaxCrossEntropyWithLogits(sparse=False)
    optimizer = Momentum(learning_rate=0.1, momentum=0.1,
                         params=filter(lambda x: x.requires_grad, big_net.get_parameters()))
    net_with_criterion = WithLossCell(big_net, criterion)
    train_network = TrainOneStepCell(net_with_criterion, optimizer)
    train_network.set_train()
    input_np = np.random.randn(32, 2048, 7, 7).astype(np.float32)
    input = Tensor(input_np.copy())
    label_np_onehot = np.zeros(shape=(32, 1000)).astype(np.float32)
    label = Tensor(label_np_onehot.copy())
    for i in range(1):
        loss = train_network(input, label)
        print("-------loss------", loss)
    """),
    md("""
    ## One step, one graph

    In GRAPH mode the whole `construct` compiles into **one** graph: your forward nodes, the backward
    nodes `GradOperation` generated, and the optimizer's nodes. None of the backward or optimizer nodes
    were written by you. Each line's comment names its phase.
    """),
    code("""
    print(ms.trace(train_net, x, y))
    """),
    md("""
    Notice three things:

    - the forward runs **once**: one forward pass gives both the loss and the gradient;
    - `Fill(float32, (), 1.0)` is `sens`;
    - each `Assign` writes a new value into a Parameter, in place. `Depend` ties them to the returned loss.

    The picture groups nodes by the Cell they came from, coloured by phase:
    """),
    code("""
    viz.training_graph(train_net, x, y)
    """, ignore=True),
    md("""
    ## Step through one training step

    `StepThrough` runs this very graph on the real numbers above, **one stage at a time**: forward,
    sens, backward, grad reduce, optimizer, return. Press **Next stage** and watch: the highlighted
    nodes in the graph are the ones that just ran, the text says what the stage does, and the panel
    below shows the values: the loss, `sens`, each weight's gradient, and each weight before and
    after the update. **Previous** goes back (the weights are restored); **node ›** runs a single node.
    The step is real: after the optimizer stage the network's weights have moved.
    """),
    code("""
    from mslab.widgets import StepThrough

    stepper = StepThrough(train_net, x, y)
    stepper
    """, ignore=True),
    md("""
    Try it in PYNATIVE mode too: `StepThrough(train_net, x, y, mode=ms.PYNATIVE_MODE)` walks the tape
    recorded around one real eager call. The stages are the same: there too the step records its
    forward once and runs the backward over that recording.

    ### The same step as a table

    In case you are reading this without a running kernel, here is what each stage computes for this
    batch. It drives a second `StepThrough` from Python (`next_stage()`, then read `.values`) on a twin
    of the network: same seed, so the same starting weights.
    """),
    code("""
    ms.set_seed(1)
    twin = LinearNet()
    twin_train = nn.TrainOneStepCell(nn.WithLossCell(twin, nn.MSELoss()),
                                     nn.Momentum(twin.trainable_params(), learning_rate=0.005, momentum=0.9))
    walk = StepThrough(twin_train, x, y)
    print(repr(walk))
    for _ in walk.stages:
        walk.next_stage()
        v = walk.values
        print(f"== {v['stage']}: {len(v['stage_nodes'])} nodes")
        for name, op, value in v["stage_nodes"]:
            print(f"   {name:>4} = {op:12s} {value}")
    print(repr(walk))
    """),
    code("""
    def number(summary):
        return summary["numbers"][0]

    print(f"loss {number(walk.values['loss']):.6g}   sens {number(walk.values['sens']):g}")
    print(f"{'parameter':10s} {'gradient':>10s} {'before':>10s} {'after':>10s}")
    for p in walk.values["params"]:
        print(f"{p['name']:10s} {number(p['gradient']):10.6g} {number(p['before']):10.6g} {number(p['after']):10.6g}")
    """),
    md("""
    Check the optimizer's arithmetic by hand. Momentum keeps a velocity `v` per weight, starting at 0:
    `v = 0.9 * v + gradient`, then `w = w - learning_rate * v`. On the first step `v` is just the
    gradient:
    """),
    code("""
    for p in walk.values["params"]:
        by_hand = number(p["before"]) - 0.005 * (0.9 * 0.0 + number(p["gradient"]))
        print(f"{p['name']:10s} by hand {by_hand:.5g}   stepped {number(p['after']):.5g}")
    print("the twin's weight now:", twin.fc.weight.asnumpy().ravel())
    """),
    md("""
    ## Now many steps: the training loop from the docs

    With `TrainOneStepCell` built, a training loop is just calling it on each batch. This is the loop
    from MindSpore's "build a training network" tutorial, on its generated `y = 2x + 3` data with
    noise. `LossPlot` draws the loss as it goes.
    """),
    code("""
    import mslab.dataset as ds
    from mslab.widgets import LossPlot


    def get_data(num, w=2.0, b=3.0):
        for _ in range(num):
            x = np.random.uniform(-10.0, 10.0)
            noise = np.random.normal(0, 1)
            y = x * w + b + noise
            yield np.array([x]).astype(np.float32), np.array([y]).astype(np.float32)


    def create_dataset(num_data, batch_size=16):
        dataset = ds.GeneratorDataset(list(get_data(num_data)), column_names=["data", "label"])
        dataset = dataset.batch(batch_size)
        return dataset


    # A fresh network for the loop, built as in the tutorial (the stepper above keeps its own).
    net = LinearNet()
    crit = nn.MSELoss()
    net_with_criterion = nn.WithLossCell(net, crit)
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.005, momentum=0.9)
    train_net = nn.TrainOneStepCell(net_with_criterion, opt)
    train_net.set_train()

    train_dataset = create_dataset(num_data=160)
    plot = LossPlot(title="LinearNet, a hand-written loop", min_interval=1.0)
    display(plot)
    step = 0
    epochs = 2
    for epoch in range(epochs):
        for d in train_dataset.create_dict_iterator():
            result = train_net(d["data"], d["label"])
            step += 1
            plot.update(step, loss=result)
            print(result)
    plot.finish();
    """, ignore=True),
    md("""
    `train.md`'s own custom loop goes one step further: `DatasetHelper` with `dataset_sink_mode=True`
    feeds `sink_size` batches at a time to the network that `connect_network_with_dataset` wraps, so
    each call runs several steps on the device (lesson 02 showed the transfers this saves). It needs a
    device, so the example asks for the simulated Ascend, as `train.md` does; on "CPU" MindSpore's
    `DatasetHelper` refuses sink mode with a RuntimeError, and so does mslab's.
    """),
    code("""
    ms.set_seed(1)
    ms.set_context(device_target="Ascend")
    sink_net = LinearNet()
    sink_train = nn.TrainOneStepCell(nn.WithLossCell(sink_net, nn.MSELoss()),
                                     nn.Momentum(sink_net.trainable_params(), learning_rate=0.005, momentum=0.9))
    dataset_helper = ms.DatasetHelper(train_dataset, dataset_sink_mode=True, sink_size=5, epoch_num=4)
    net_on_device = ms.connect_network_with_dataset(sink_train, dataset_helper)
    sink_train.set_train()
    epoch = 4
    for step in range(epoch):
        for inputs in dataset_helper:
            output = net_on_device(*inputs)
            print("epoch: {0}/{1}, losses: {2}".format(step + 1, epoch, output.asnumpy(), flush=True))
    ms.set_context(device_target="CPU")
    """, ignore=True),
    md("""
    ## Model does the same

    `Model(network, loss_fn, optimizer)` builds exactly this `TrainOneStepCell(WithLossCell(...))` for
    you and runs the loop, with callbacks. If you already have a `TrainOneStepCell` (say, a custom one
    that clips gradients, like BERT's), hand it to `Model` alone: it already holds the loss and the
    optimizer.
    """),
    code("""
    model = ms.Model(train_net)
    model.train(1, train_dataset, callbacks=[ms.LossMonitor(5)])
    print("learned: weight", net.fc.weight.asnumpy().ravel(), "bias", net.fc.bias.asnumpy(), "(target 2 and 3)")
    """, ignore=True),
    md("""
    ## Side by side

    | step | MindSpore | PyTorch | TensorFlow |
    |---|---|---|---|
    | forward + loss | `loss = self.network(*inputs)` | `loss = loss_fn(net(x), y)` | inside `with tf.GradientTape() as tape:` |
    | starting gradient | `sens = F.fill(..., self.sens)` | `loss.backward(gradient)` (default 1) | implicit |
    | gradients | `GradOperation(get_by_list=True, sens_param=True)(network, weights)(*inputs, sens)`, derived from the graph | recorded `grad_fn` chain, walked by `backward()` | `tape.gradient(loss, vars)` |
    | update | `self.optimizer(grads)` inside the same graph | `optimizer.step()`, then `zero_grad()` | `optimizer.apply_gradients(...)` |

    MindSpore never accumulates gradients into `.grad` fields, so there is no `zero_grad`: gradients
    are ordinary return values of the backward graph.

    That is the whole training step. You have seen every node of it.
    """),
]

LESSONS = {
    "00_welcome.ipynb": LESSON_00,
    "01_tensors_cells_parameters.ipynb": LESSON_01,
    "02_pynative_vs_graph.ipynb": LESSON_02,
    "03_autodiff_backward_graphs.ipynb": LESSON_03,
    "04_train_one_step.ipynb": LESSON_04,
}


def build(name, cells):
    """An nbformat notebook for one lesson, with stable cell ids (so rebuilds diff cleanly)."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    stem = name.split("_", 1)[0]
    for i, (kind, src) in enumerate(cells):
        cell = nbformat.v4.new_markdown_cell(src) if kind == "markdown" else nbformat.v4.new_code_cell(src)
        cell["id"] = f"l{stem}-{i:02d}"
        nb.cells.append(cell)
    nbformat.validate(nb)
    return nb


def execute(path):
    """Run the notebook in place with the Jupyter of this Python (the project's venv)."""
    cmd = [sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", "--inplace",
           "--ExecutePreprocessor.timeout=300", "--ExecutePreprocessor.kernel_name=python3",
           "--ExecutePreprocessor.record_timing=False",
           # No saved widget state: a notebook viewed without a kernel (nbconvert HTML, a notebook
           # viewer) then falls back to each widget's static text/html picture or table, which works
           # offline, instead of an empty placeholder waiting for widget code from the network.
           "--ExecutePreprocessor.store_widget_state=False", str(path)]
    subprocess.run(cmd, check=True, cwd=NOTEBOOKS)


def tidy(path):
    """Drop what changes on every run without meaning anything (execution timing metadata)."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    nbformat.write(nb, path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("only", nargs="*", help="build only lessons whose file names start with these prefixes")
    parser.add_argument("--no-execute", action="store_true", help="write the notebooks without running them")
    args = parser.parse_args(argv)
    NOTEBOOKS.mkdir(exist_ok=True)
    for name, cells in LESSONS.items():
        if args.only and not any(name.startswith(p) for p in args.only):
            continue
        path = NOTEBOOKS / name
        nbformat.write(build(name, cells), path)
        if args.no_execute:
            print(f"wrote {path.relative_to(ROOT)}")
            continue
        t0 = time.perf_counter()
        execute(path)
        tidy(path)
        print(f"built {path.relative_to(ROOT)} in {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
