# %% [markdown]
# # 02 · PYNATIVE versus GRAPH mode
#
# MindSpore runs a network in one of two modes:
#
# - **PYNATIVE_MODE** (the default in MindSpore 2.x): each operation runs as soon as Python reaches
#   it, like PyTorch. Easy to debug: `print` shows real numbers.
# - **GRAPH_MODE**: the first call *compiles* `construct` into a graph, which then runs as a whole.
#   Faster on a device, and the whole graph (even many training steps) can be sent to the
#   accelerator at once.
#
# MindSpore compiles from the **source code** of `construct`: it reads the Python text, turns each
# operation into a node, and turns an `if` or a `while` whose condition is a tensor into control-flow
# operators of the graph. mslab does the same. This lesson shows what that means: which conditions
# are decided while compiling and which become part of the graph, what happens to Python that has no
# graph form, and how this differs from *tracing* a function.

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
# ## Reading the graph: `ms.trace`
#
# `ms.trace(cell, *inputs)` returns the graph a call compiles to. Print it for the IR text: one line
# per node, with the node's name, operator, inputs, attributes, output type, and a comment with its
# phase, the Cell it came from and the source line. (MindSpore can dump its graphs as text too;
# mslab's IR follows that idea.)

# %%
print(ms.trace(mlp, x))  # mslab only

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
import mslab.viz as viz

viz.forward_graph(mlp, x)


# %% [markdown]
# ## Constant conditions are decided while compiling
#
# A loop or an `if` over Python values, shapes and attributes is a **constant condition**: the
# compiler knows its outcome, so it simply keeps the code that runs. The loop below becomes three
# `Add` nodes, and the `if` on a shape leaves only its `Mul`: the graph has no control flow at all.
# `self.training` is a constant condition too, which is how Dropout and BatchNorm switch behaviour.

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
# ## Variable conditions become part of the graph
#
# A condition on a tensor's *value* cannot be decided while compiling: the numbers only exist when
# the graph runs. MindSpore compiles such an `if` into control-flow operators: the graph splits into
# subgraphs, and the condition picks one when the graph runs. A small example, run with a positive
# and a negative input:

# %%
class Branch(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            return x * 2
        return x


v = Tensor(np.array([1, 2, 3], np.float32))
branch = Branch()
print(branch(v), branch(-v))

# %% [markdown]
# mslab shows the compiled form as one `If` node that holds both branches as subgraphs; the
# subgraphs take what they read from outside as inputs (`%x`), and in mslab's IR a `TupleGetItem`
# takes the `if`'s result out of the `If` node's output. MindSpore's own IR (saved with
# `set_context(save_graphs=True)`) writes the same idea in two steps: a `Switch` node
# `Switch(%cond, @..._construct_✓, @..._construct_✗)` returns one of the two subgraphs *as a value*,
# and the next node calls the subgraph it returned, which gives the `if`'s result.

# %%
print(ms.trace(branch, v))  # mslab only

# %% [markdown]
# Gradients go through control flow too: the backward graph of an `If` is another `If`, over the
# backward graphs of the two branches. `ms.grad` gives 2 where the `x * 2` branch ran and 1 where
# `x` was returned unchanged (the same numbers as MindSpore).

# %%
print(ms.grad(branch)(v), ms.grad(branch)(-v))
print(ms.trace(ms.grad(branch), v))  # mslab only

# %% [markdown]
# A `while` on a tensor works the same way: one `While` node holds the loop's condition and body.
# Its gradient runs the body's backward once per iteration, in reverse: 5 doublings give 32.

# %%
class Doubling(nn.Cell):
    def construct(self, x):
        while x.sum() < 100:
            x = x * 2
        return x


doubling = Doubling()
print(doubling(v), ms.grad(doubling)(v))
print(ms.trace(doubling, v))  # mslab only

# %% [markdown]
# `if`/`elif`/`else`, nested `if`s, `return` inside a branch, `break`, `and`/`or`/`not` on tensor
# conditions, `for v in tensor` and `for i in range(n)` with a tensor condition inside all compile
# the same way (mslab's tests check each against the numbers MindSpore gives). mslab unrolls a `for`
# loop over a tensor or a range while compiling, since its length is known then.
#
# ## Side effects happen only in the branch that runs
#
# An operation that writes a Parameter (here `ops.assign`; an optimizer's update is the same) inside
# a branch runs only when that branch is taken, in both modes:

# %%
class CountPositive(nn.Cell):
    def __init__(self):
        super().__init__()
        self.count = ms.Parameter(Tensor(np.array([0.0], np.float32)), name="count")

    def construct(self, x):
        if x.sum() > 0:
            ops.assign(self.count, self.count + 1)
        return x * 2


for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
    ms.set_context(mode=mode)
    counter = CountPositive()
    for inp in (v, -v, v):
        counter(inp)
    print("GRAPH" if mode == ms.GRAPH_MODE else "PYNATIVE", "count after +, -, +:", counter.count.asnumpy())
ms.set_context(mode=ms.GRAPH_MODE)

# %% [markdown]
# This is what seed 001's functional training step relies on: `state = all_finite(grads)` followed
# by `if state: self.opt(grads)` skips the optimizer's update when a gradient overflowed. Lesson 05
# runs that Trainer.
#
# ## Compiling the source versus tracing a run
#
# `ms.jit` compiles one function. Its `capture_mode` says how: `"ast"` (the default, what GRAPH
# mode does) converts the source, as above; `"trace"` runs the function once and records the
# operators that ran. Tracing cannot see an `if`: it records the branch that happened to run, and
# keeps running it.

# %%
ms.set_context(mode=ms.PYNATIVE_MODE)


def shift(x):
    if x.sum() > 0:
        return x * 2
    return x - 100


from_source = ms.jit(shift, capture_mode="ast")
from_a_run = ms.jit(shift, capture_mode="trace")
print("ast:  ", from_source(v), from_source(-v))
print("trace:", from_a_run(v), from_a_run(-v), "<- the first call's branch, baked in")
print(ms.trace(shift, v))  # mslab only: the source's graph, with the If

# %% [markdown]
# MindSpore 2.10 behaves exactly so, without a warning: `capture_mode="trace"` gives `-x * 2` for
# `-x`. `@ms.jit` on a method compiles the method; the first call with a new input signature
# compiles, later calls run the graph.
#
# ## Python with no graph form: JIT Fallback
#
# Some Python has no graph form at all: numpy called on a tensor, or `x.asnumpy()`. MindSpore's
# `jit_syntax_level` decides what happens. With `ms.LAX`, the default, such code still runs: the
# compiler makes it a **PyExecute** node that calls the Python interpreter on the host each time the
# graph runs. With `ms.STRICT` it is refused. `print` and `float(t)` work at both levels: `print`
# becomes a graph print, which prints every time the graph runs; `float(t)` becomes a cast.

# %%
ms.set_context(mode=ms.GRAPH_MODE)
print(ms.get_context("jit_syntax_level"), ms.LAX, ms.STRICT)


class HostExp(nn.Cell):
    def construct(self, x):
        print("HostExp runs on", x)
        return Tensor(np.exp(x.asnumpy()))


host_exp = HostExp()
print(host_exp(v))
print(host_exp(v * 2))
print(ms.trace(host_exp, v))  # mslab only

# %% [markdown]
# The `PyExecute` node is marked `(host)`: its value was computed on the host. Gradients stop there:
# MindSpore warns "The gradient will be stopped from propagating at the PyExecute node", and the
# gradient through `np.exp` is 0, not `exp(x)`. mslab gives the same numbers.

# %%
print(ms.grad(host_exp)(v))


class ScaleByMax(nn.Cell):
    def construct(self, x):
        m = float(x.max())  # a cast in the graph, not a Python number; its gradient is cut
        return x * m


print(ScaleByMax()(v), ms.grad(ScaleByMax())(v))

# %% [markdown]
# Under `STRICT`, the same code is an error (a `ValueError` for numpy on a tensor, an
# `AttributeError` for `asnumpy`, as in MindSpore), while `float()` and `print` still work:

# %%
ms.set_context(jit_syntax_level=ms.STRICT)


class NumpyOnTensor(nn.Cell):
    def construct(self, x):
        return Tensor(np.exp(x))


for cell in (NumpyOnTensor(), HostExp()):
    try:
        cell(v)
    except (ValueError, AttributeError) as e:
        print(f"{type(e).__name__}: {e}\n")
print(ScaleByMax()(v))
ms.set_context(jit_syntax_level=ms.LAX)

# %% [markdown]
# A `@ms.jit` function is LAX unless you ask for `fullgraph=True`, whatever `set_context` says
# (MindSpore 2.10 behaves the same way).
#
# ## Where mslab differs on purpose
#
# In MindSpore 2.10, a GRAPH_MODE Cell keeps the graph of its first call in two cases where the
# Python has changed since: when `set_train(True)` is called for the first time *after* the first
# call (a Cell that was never `set_train`-ed before), and when a plain Python attribute that
# `construct` reads is changed. The old graph keeps running, and the change has no effect until the
# Cell is rebuilt. mslab recompiles in both cases, so the graph always matches the Python you see.
#
# ## Shapes fixed while compiling: where mslab is stricter
#
# MindSpore's migration guide warns about two things in network code: slicing a tensor with an index
# that is itself a tensor, and anything else whose *shape* depends on the data (a boolean mask), since
# such dynamic shapes are restricted on some devices; and, for training on several devices, to call
# `set_seed` so that every device starts from the same initial parameters. On MindSpore 2.10's CPU
# backend, `x[x > 2]` and `x[:n]` with a tensor `n` do compile in GRAPH mode. mslab's graphs have
# static shapes, so its GRAPH mode refuses both, with an error that says what to write instead; the
# shape-stable way, `ops.select`, works everywhere:

# %%
class Positives(nn.Cell):
    def construct(self, x):
        return x[x > 2]


class KeepPositives(nn.Cell):
    def construct(self, x):
        return ops.select(x > 2, x, ops.zeros_like(x))


w = Tensor(np.array([1.0, 3.0, 4.0, 2.0], np.float32))
try:
    Positives()(w)
except Exception as e:
    print(f"{type(e).__name__}: {e}\n")
print(KeepPositives()(w))

# %% [markdown]
# `ms.set_seed` seeds everything random that builds a network here: the same seed gives the same
# initial weights, which is what several devices need to start equal.

# %%
ms.set_seed(7)
first = nn.Dense(2, 2).weight.asnumpy()
ms.set_seed(7)
second = nn.Dense(2, 2).weight.asnumpy()
print("same seed, same weights:", np.array_equal(first, second))

# %% [markdown]
# ## Why compile? Sinking to the device
#
# On an Ascend chip, a compiled graph can be sent to the device whole and run there without asking
# the host (the CPU running Python) after every operation. MindSpore goes further with **data
# sinking**: `model.train(..., dataset_sink_mode=True, sink_size=n)` sends `n` batches down at once
# and runs `n` steps on the device before returning one result. Callbacks then fire once per sink,
# not once per step. On a CPU (`device_target="CPU"`) MindSpore ignores `dataset_sink_mode` and trains
# step by step; the sinking needs a device, so this cell asks for "Ascend", which mslab simulates on
# the CPU while counting the host↔device transfers. (The CPU build of MindSpore 2.10 refuses it:
# `RuntimeError: Unsupported device target Ascend`; on MindSpore this cell needs an Ascend machine.)
# Lesson 08 looks at sinking in detail.

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


ms.set_context(mode=ms.GRAPH_MODE, device_target="Ascend")
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
ms.set_context(device_target="CPU")

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

# %% [markdown]
# ## Exercises
#
# 1. **Predict, then run.** In `Branch`, change the condition to `x.sum() > 10`. What do
#    `branch(v)`, `ms.grad(branch)(v)`, `branch(v * 10)` and `ms.grad(branch)(v * 10)` give (with
#    `v = [1, 2, 3]`), in GRAPH mode and in PYNATIVE mode?
#
#    <details><summary>Solution</summary>
#
#    `v` sums to 6, so the `if` is not taken: `[1, 2, 3]` with gradient `[1, 1, 1]`. `v * 10` sums to
#    60: `[20, 40, 60]` with gradient `[2, 2, 2]`. Both modes agree, and MindSpore 2.10 gives the same:
#    the condition is a tensor's value, so the graph keeps both branches and picks one when it runs.
#    </details>
#
# 2. **Predict, then run.** How many times does `Doubling`'s loop run for `v * 0.5` = `[0.5, 1, 1.5]`,
#    and what is the gradient?
#
#    <details><summary>Solution</summary>
#
#    The sum starts at 3 and doubles until it reaches 100: 3, 6, 12, 24, 48, 96, 192, so six times.
#    The result is `[32, 64, 96]` and the gradient `2**6 = 64` for every element. The `While` node's
#    backward runs the body's backward once per iteration.
#    </details>
#
# 3. **Change one thing.** In `Unrolled`, set `self.repeats = 5` and call it on a tensor of shape
#    `(3, 3)`. How many `Add` nodes and how many `Mul` nodes does `ms.trace` show?
#
#    <details><summary>Solution</summary>
#
#    Five `Add` nodes (the loop is unrolled while compiling: `repeats` is a constant) and no `Mul`:
#    `x.shape[0] == 2` is a constant condition too, false for shape `(3, 3)`, so the compiler drops
#    the `if` and its `Mul`. The graph has no control flow at all.
#    </details>
