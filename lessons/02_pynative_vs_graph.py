# %% [markdown]
# # 02 · PYNATIVE versus GRAPH mode
#
# MindSpore runs a network in one of two modes:
#
# - **PYNATIVE_MODE** (the default in MindSpore 2.x): each operation runs as soon as Python reaches
#   it, like PyTorch. Easy to debug: `print` shows real numbers.
# - **GRAPH_MODE**: the first call *compiles* `construct` into a graph, which then runs as a whole,
#   like TensorFlow's `@tf.function`. Faster on a device, and the whole graph (even the whole
#   training loop) can be sent to the accelerator at once.
#
# mslab follows both. This lesson shows what compiling means, and the rules it brings.

# %%
import warnings

import numpy as np

import mslab as ms
from mslab import Tensor, nn, ops

ms.set_seed(1)
print(ms.GRAPH_MODE, ms.PYNATIVE_MODE, ms.get_context("mode"))

# %% [markdown]
# ## Choosing a mode
#
# `ms.set_context(mode=...)` picks the mode. `device_target` names the hardware: mslab accepts
# "Ascend", "GPU" and "CPU" and always computes on the CPU with numpy, and says so once.

# %%
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    ms.set_context(mode=ms.GRAPH_MODE, device_target="Ascend")
print([str(w.message) for w in caught])
ms.set_context(device_target="CPU")
print(ms.get_context("mode"), ms.get_context("device_target"))

# %% [markdown]
# A MindSpore training script usually sets its environment up from a config file. Here is the
# single-device part of the template from MindSpore's migration guide, unchanged except for the import:

# %%
from types import SimpleNamespace


def init_env(cfg):
    """Initialise the runtime environment."""
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


# %% [markdown]
# ## The same network, both ways
#
# Both modes compute the same numbers. mslab checks this for every operator in its test suite;
# here is one small network.

# %%
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


# %% [markdown]
# ## What compiling means: `construct` runs once, on symbols
#
# In GRAPH mode the first call runs `construct` with *symbolic* tensors: they have a shape and a
# dtype but no numbers yet. Each operation adds a node to a graph instead of computing. Then the
# graph runs on your data. Later calls with the same input shapes reuse the graph, so Python code in
# `construct`, such as `print`, does not run again.

# %%
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

# %% [markdown]
# In PYNATIVE mode `print` sees real numbers on every call. In GRAPH mode it sees a symbol, once per
# input shape: the second call ran the compiled graph without entering `construct` at all.
#
# ## Reading the graph: `ms.trace`
#
# `ms.trace(cell, *inputs)` returns the graph a call compiles to. Print it for the IR text: one line
# per node, with the node's name, operator, inputs, attributes, output type, and a comment with its
# phase, the Cell it came from and the source line. (MindSpore can dump its graphs as text too;
# mslab's IR follows that idea.)

# %%
graph = ms.trace(mlp, x)  # mslab only
print(graph)

# %%
# NBVAL_IGNORE_OUTPUT
import mslab.viz as viz  # mslab only

viz.forward_graph(mlp, x)


# %% [markdown]
# ## Python control flow on constants unrolls
#
# Loops and `if`s over Python values, shapes and attributes are fine in GRAPH mode: they run while
# the graph is being traced, and only the operations they reach end up in the graph. The loop below
# becomes three `Add` nodes; the `if` on a shape is decided at compile time.

# %%
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


print(ms.trace(Unrolled(), x))  # mslab only


# %% [markdown]
# ## The graph-mode rules, as real errors
#
# Some Python cannot be compiled, because it needs numbers that do not exist until the graph runs.
# MindSpore documents these as *constraints on network construction*. mslab stops with an error that
# explains each one. Run the cells and read the messages.
#
# **Rule 1: no branching on a tensor's value.**

# %%
class BranchOnValue(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            return x * 2
        return x


try:
    BranchOnValue()(x)
except Exception as e:
    print(f"{type(e).__name__}: {e}")


# %% [markdown]
# The fix the message suggests: compute both sides and choose element-wise with `ops.select`. That
# is one node in the graph, decided when the graph runs.

# %%
class SelectOnValue(nn.Cell):
    def construct(self, x):
        positive = x.sum() > 0
        return ops.select(positive, x * 2, x)


print(SelectOnValue()(x))       # the sum is positive: x * 2
print(SelectOnValue()(x - 1))   # the sum is negative: x - 1 unchanged


# %% [markdown]
# **Rule 2: no turning a traced tensor into a Python number** (`float(t)`, `int(t)`, `t.item()`).

# %%
class ToPythonFloat(nn.Cell):
    def construct(self, x):
        return x * float(x.max())


try:
    ToPythonFloat()(x)
except Exception as e:
    print(f"{type(e).__name__}: {e}")


# %% [markdown]
# **Rule 3: no numpy inside `construct`.** numpy needs the numbers now; use `ops` instead.

# %%
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


# %% [markdown]
# **Rule 4: `while` on a tensor's value** is rule 1 again, in a loop.

# %%
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

# %% [markdown]
# ## `ms.jit`: compile one function
#
# In PYNATIVE mode you can still compile a single function or method with the `@ms.jit` decorator
# (1.x name: `ms_function`). The migration guide's functional training loop does exactly that for
# its training step. The rules above apply inside it.

# %%
ms.set_context(mode=ms.PYNATIVE_MODE)


@ms.jit
def scaled_sum(a, b):
    return (a * 2 + b).sum()


print(scaled_sum(x, x))
print(scaled_sum(x, x))   # the second call runs the cached graph

# %% [markdown]
# ## Why compile? Sinking to the device
#
# On an Ascend chip, a compiled graph can be sent to the device whole and run there without asking
# the host (the CPU running Python) after every operation. MindSpore goes further with **data
# sinking**: `model.train(..., dataset_sink_mode=True, sink_size=n)` sends `n` batches down at once
# and runs `n` steps on the device before returning one result. Callbacks then fire once per sink,
# not once per step.
#
# mslab computes on the CPU, but it simulates the sinking and counts the host↔device transfers,
# so you can see the difference. The data here is the LinearNet regression from MindSpore's docs.

# %%
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
    """Print which step the callback sees, and the loss it is handed."""

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        loss = float(cb.net_outputs.asnumpy())
        print(f"  callback: epoch {cb.cur_epoch_num}, step {cb.cur_step_num:2d}, loss {loss:9.3f}")


ms.set_context(mode=ms.GRAPH_MODE)
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
    print("  transfers:", model.transfer_counts.as_dict())  # mslab only

# %% [markdown]
# Both runs train the same 20 steps on the same batches, and end on the same loss. Without sinking,
# the callback sees every step and the host sends 20 batches and fetches 20 results. With
# `sink_size=5`, an "epoch" becomes 5 steps run on the device in one go: the callback fires once per
# sink, `cur_step_num` jumps by 5, only the last step's loss comes back, and the host and device talk
# 8 times instead of 40. Each sink continues through the data where the last one stopped, so 4 sinks
# of 5 cover the 10 batches twice: in MindSpore's words, the total is `epoch * sink_size` batches.
#
# **Next:** lesson 03 shows the other thing a graph makes possible: deriving the backward pass from
# the forward graph's structure.
