# %% [markdown]
# # 11 · Inside mslab
#
# The other lessons use mslab the way you would use MindSpore. This one opens it. We follow **one
# training step**, the README's first taste (`nn.Dense` + `nn.MSELoss` + `nn.Momentum` inside
# `nn.TrainOneStepCell`), through the files that run it, and read each piece where it lives. Every
# listing below is printed by `inspect.getsource` from the mslab this notebook imported, so what you
# read is what ran.
#
# The walk has three parts:
#
# 1. **PYNATIVE**: a Cell call reaches `construct`; each primitive computes and a *tape* records it;
#    `backprop` walks the tape backwards and calls one *bprop rule* per node; the optimizer writes the
#    weights.
# 2. **GRAPH**: the same step *traced* into a graph, differentiated, cleaned up by passes, and turned
#    into one generated Python function by the executor.
# 3. **The speed layer**: what mslab adds to make steps fast, switched on, and why the numbers do not
#    move.
#
# Unlike the other lessons, this one imports mslab's internal modules: reading them is its point.
# Those imports carry `# mslab only`, like every other mslab-only line, and a cell that works on
# mslab's insides throughout starts with `# mslab only (the whole cell)`.

# %% [markdown]
# ## The step we follow
#
# First the tools of the lesson: `show(obj)` prints the file that defines `obj` and its source as it is
# in this checkout; `walk(fn, *args)` runs `fn(*args)` while Python's profiler notes every mslab
# function it enters (file and function name, in the order they ran, with the class of `self` for
# methods); `stack_when(name, fn, *args)` lists the mslab functions still running when the first
# function called `name` starts. Then the step itself: the README's network, loss and optimizer, in
# PYNATIVE mode.
#
# mslab keeps every shortcut that only makes a step faster in one package, `mslab/fast/`, the *speed
# layer*, on by default. Parts 1 and 2 read the plain engine, so the lesson turns it off first
# (`ms.fast.set_enabled(False)`); part 3 turns it back on.
#
# The cells that print a listing start with `# NBVAL_IGNORE_OUTPUT`: they print whatever the source says
# today, so the checks that rerun every lesson do not compare them with a stored copy.

# %%
import inspect
import sys
from pathlib import Path

import numpy as np

import mslab as ms
from mslab import nn

ms.set_seed(1)
ms.set_context(mode=ms.PYNATIVE_MODE)
ms.fast.set_enabled(False)  # mslab only: the plain engine, until part 3
SOURCE_ROOT = Path(ms.__file__).parent.parent  # the folder holding the mslab package


def relative(filename):
    """A source file's path from the folder holding mslab: ``mslab/ops/primitive.py``."""
    return Path(filename).relative_to(SOURCE_ROOT).as_posix()


def show(obj):
    """Print the file that defines ``obj``, then its source."""
    print(f"# {relative(inspect.getsourcefile(obj))}")
    print(inspect.getsource(obj))


def walk(fn, *args):
    """``fn(*args)`` run under a profiler: (its result, [(file, function, class of self or None), ...])."""
    calls, package = [], str(SOURCE_ROOT / "mslab")

    def note(frame, event, arg):
        code = frame.f_code
        if event == "call" and code.co_filename.startswith(package):
            owner = frame.f_locals.get("self")
            calls.append((relative(code.co_filename), code.co_name, None if owner is None else type(owner).__name__))
    sys.setprofile(note)
    try:
        result = fn(*args)
    finally:
        sys.setprofile(None)
    return result, calls


def stack_when(name, fn, *args):
    """The mslab functions running, outermost first, when ``fn(*args)`` first enters a function called ``name``."""
    stack, package = [], str(SOURCE_ROOT / "mslab")

    def note(frame, event, arg):
        if event == "call" and frame.f_code.co_name == name and not stack:
            while frame is not None and frame.f_code.co_filename.startswith(package):
                stack.insert(0, (relative(frame.f_code.co_filename), frame.f_code.co_name))
                frame = frame.f_back
    sys.setprofile(note)
    try:
        fn(*args)
    finally:
        sys.setprofile(None)
    return stack


def make_step():
    """The README's first taste: a fresh Dense(1, 1) and its training step (seeded, so every call starts alike)."""
    ms.set_seed(1)
    net = nn.Dense(1, 1)
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    return net, nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)


x = ms.Tensor(np.linspace(-1, 1, 16, dtype=np.float32).reshape(16, 1))
y = 2 * x + 3
net, train = make_step()
print("weight", net.weight.asnumpy().ravel(), "bias", net.bias.asnumpy())

# %% [markdown]
# ## A map: the engine's layers
#
# mslab's engine is five layers, each importing only the ones before it (a test checks this):
# `core` (Tensor, dtypes, context, the recording state), `ir` (Graph, Node, the tracer and the tape),
# `ops` (the primitives, each with its compute, shape inference and bprop rule), `autodiff` (`backprop`
# and `GradOperation`), and `runtime` (the executor and what runs a Cell call). Everything MindSpore
# names (`nn`, `dataset`, `train`) sits on top, and the speed layer, `fast`, plugs into the engine from
# outside. Here is how big each one is today, in *code lines* (blank lines, comments and docstrings
# left out: they are what you are meant to read). The README states the budget each layer must stay
# within, and a test keeps it.

# %%
# NBVAL_IGNORE_OUTPUT
import ast


def code_lines(path):
    """Lines of a Python file that hold code: not blank, not only a comment, not part of a docstring."""
    source = path.read_text()
    docstrings = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and ast.get_docstring(node) is not None:
            docstrings.update(range(node.body[0].lineno, node.body[0].end_lineno + 1))
    return sum(1 for number, line in enumerate(source.splitlines(), 1)
               if line.strip() and not line.strip().startswith("#") and number not in docstrings)


for layer in ("core", "ir", "ops", "autodiff", "runtime", "fast"):
    files = sorted((SOURCE_ROOT / "mslab" / layer).rglob("*.py"))
    print(f"mslab/{layer + '/':10s} {len(files):3d} files {sum(map(code_lines, files)):6d} code lines")

# %% [markdown]
# # Part 1 · PYNATIVE
#
# ## From `train(x, y)` to `construct`
#
# Calling a Cell is calling `Cell.__call__`. How many functions lie between `train(x, y)` and
# `TrainOneStepCell.construct`? `stack_when` stops as `construct` starts and lists the calls still
# open, from `train(x, y)` down (the last line is `construct` itself):

# %%
for file, function in stack_when("construct", train, x, y):
    print(f"{file:34s} {function}")

# %% [markdown]
# `Cell.__call__` says how a call is run, in one of three ways: inside a graph being traced, `construct`
# is inlined (its nodes join that graph); in GRAPH mode at the top, the call is compiled once per input
# signature and the graph runs; otherwise, in PYNATIVE mode, `construct` runs. `_construct_call` runs
# `construct` under the Cell's name, so every node knows which Cell made it. `cell_call.guard` adds what
# only the outermost call or a training step needs: errors that name a wrong input, and a training
# step's *all or nothing* (a step that fails part-way puts every weight back).

# %%
# NBVAL_IGNORE_OUTPUT
show(nn.Cell.__call__)

# %% [markdown]
# ## `TrainOneStepCell.construct`
#
# mslab's training step computes the loss and the gradients from one recorded forward pass, reduces
# the gradients (an identity on one device) and hands them to the optimizer; `F.depend` returns the
# loss from before the update.

# %%
# NBVAL_IGNORE_OUTPUT
show(nn.TrainOneStepCell.construct)

# %% [markdown]
# ## A primitive runs
#
# Every operation (`MatMul`, `BiasAdd`, `Sub`, ...) is a `Primitive`: one object per operator kind,
# holding `infer` (output shape and dtype), `compute` (numpy arrays in, a numpy array out) and `bprop`
# (its gradient rule). Calling one is the heart of PYNATIVE mode: if a graph is being traced, the call
# becomes a node; otherwise it infers, computes, wraps the result in a Tensor, and hands it to every
# open tape.

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
from mslab.ops.primitive import Primitive  # mslab only

show(Primitive.__call__)

# %% [markdown]
# Take one primitive apart: `Mul`'s `infer` needs only shapes and dtypes, its `compute` is numpy, and
# calling it is the path above (Tensors in, a Tensor out).

# %%
# mslab only (the whole cell)
from mslab.ops.math_ops import Mul  # mslab only

a, b = np.array([1.0, 2.0, 3.0], np.float32), np.array([4.0, 5.0, 6.0], np.float32)
print("infer  ", Mul().infer(a, b))
print("compute", Mul().compute(a, b))
print("call   ", Mul()(ms.Tensor(a), ms.Tensor(b)))

# %% [markdown]
# ## The tape
#
# `GradOperation` opens a tape while the forward runs; so does `ms.record()`, for you. `Tape.record`
# turns one call into one node of a graph whose values are the real tensors:

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
from mslab.ir.tape import Tape  # mslab only

show(Tape.record)

# %% [markdown]
# Recorded around the loss network, the tape is the forward of our step: `MatMul` and `BiasAdd` from
# `Dense`, then `Sub`, `Square` and `ReduceMean` from `MSELoss`.

# %%
# mslab only (the whole cell)
with ms.record() as tape:  # mslab only
    loss = train.network(x, y)
print(tape.graph)

# %% [markdown]
# ## `backprop`: the algorithm
#
# The gradient of the loss with respect to each weight comes from one function, the same in both
# modes. It finds the nodes on a path from the weights to the loss, seeds the loss's gradient with
# `sens`, then visits those nodes in reverse: each node's bprop rule turns the gradient of its output
# into gradients of its inputs. (`recorder.backward_of(n)` labels the nodes a rule records as the
# gradient of `n`, for GRAPH mode and `ms.record()`; with nobody recording it does nothing.)

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
from mslab.autodiff import backprop as autodiff  # mslab only

show(autodiff.backprop)

# %% [markdown]
# Calling a rule hands it the node's recorded inputs, its output and `dout`. Only a rule that can skip
# real work (a `MatMul` whose other side needs no gradient) declares `needs` and is told which inputs
# want one:

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
show(autodiff._call_rule)

# %% [markdown]
# Adding a gradient in is where broadcasting is undone, once for every rule: an input that was
# broadcast to a bigger shape was used once per copy, so its gradient is summed back to its own shape
# (`sum_to`). A value with several users adds up what each gives it.

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
show(autodiff._accumulate)

# %% [markdown]
# ## The bprop rules
#
# A rule is a method of its primitive, written with mslab ops and Tensor operators (never raw numpy),
# so it runs eagerly here and becomes backward nodes when GRAPH mode traces it. `Mul`'s rule is the
# product rule, as its docstring writes it (`d/dx = dout * y, d/dy = dout * x`):

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
show(Mul.bprop)

# %% [markdown]
# `Dense` computes `x @ Wᵀ + b` with `MatMul(transpose_b=True)` and `BiasAdd`. For `out = x @ y` the
# gradients are `dout @ yᵀ` and `xᵀ @ dout`; with the transposes MatMul supports, the rule picks the
# product that fits, and computes only the ones `needs` asks for. `BiasAdd`'s bias gradient is `dout`
# summed over every axis but the channel axis.

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
from mslab.ops.matmul_ops import MatMul  # mslab only

show(MatMul.bprop)

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
from mslab.ops.nn_ops import BiasAdd  # mslab only

show(BiasAdd.bprop)

# %% [markdown]
# Which rules does our step call? `walk` records a step and keeps the calls named `bprop`, with the
# primitive they belong to: one per forward node, from the loss back to the weights.

# %%
net, train = make_step()
_, calls = walk(train, x, y)
print([owner for file, function, owner in calls if function == "bprop"])

# %% [markdown]
# A rule is ordinary code: call it yourself. Here `MatMul`'s rule on Dense's numbers, next to the same
# products written in numpy.

# %%
# mslab only (the whole cell)
w = net.weight
out = MatMul(transpose_b=True)(x, w)
dout = ms.Tensor(np.ones((16, 1), np.float32))
dx, dw = MatMul(transpose_b=True).bprop(x, w, out, dout, needs=(True, True))
print("dx equals dout @ W:  ", np.array_equal(dx.asnumpy(), dout.asnumpy() @ w.asnumpy()))
print("dW equals doutᵀ @ x: ", np.array_equal(dw.asnumpy(), dout.asnumpy().T @ x.asnumpy()))

# %% [markdown]
# ## The update
#
# `nn.Momentum` calls one `ApplyMomentum` per weight, which keeps a velocity `v` per weight:
# `v = momentum * v + g`, then `w = w - lr * v`, both written in place. (`kept_if_skipped` adds
# nothing here: it matters only when a loss-scaling step skips an update.)

# %%
# NBVAL_IGNORE_OUTPUT
show(nn.Momentum.construct)

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
from mslab.ops.optim_ops import ApplyMomentum  # mslab only

show(ApplyMomentum.compute)

# %% [markdown]
# Check it on a fresh step: the first velocity is the gradient itself, so the new weights are
# `w - 0.05 * g`.

# %%
net, train = make_step()
before = [p.asnumpy().copy() for p in train.weights]
grads = ms.grad(train.network, grad_position=None, weights=train.weights)(x, y)
train(x, y)
for p, w0, g in zip(train.weights, before, grads):
    by_hand = w0 - np.float32(0.05) * g.asnumpy()
    print(f"{p.name:7s} by hand {by_hand.ravel()}  stepped {p.asnumpy().ravel()}  "
          f"equal: {np.array_equal(by_hand, p.asnumpy())}")

# %% [markdown]
# # Part 2 · GRAPH
#
# In GRAPH mode nothing runs while `construct` is read. The tracer is the other branch of
# `Primitive.__call__`: `tracer.record` infers the output's shape and dtype and appends a node.

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
from mslab.ir.tracer import Tracer  # mslab only

show(Tracer.record)

# %% [markdown]
# Tracing `train` records the forward, and `GradOperation`, called on the tracer, runs the same
# `backprop`: this time each bprop rule *records* its ops, so the backward nodes join the graph, each
# labelled with the forward node it is the gradient of. The optimizer's `ApplyMomentum` nodes come last.
# `optimize_graph=False` keeps the graph as traced, before any pass.

# %%
# mslab only (the whole cell)
ms.set_context(mode=ms.GRAPH_MODE)
net, train = make_step()
traced = ms.trace(train, x, y, optimize_graph=False)  # mslab only
print(traced)

# %% [markdown]
# ## Passes
#
# Before it is compiled, a graph goes through the passes: common-subexpression elimination merges
# nodes that compute the same thing (MindSpore-style steps that call the network twice record the
# forward twice), dead-code elimination drops what nobody reads, and the nodes are renumbered.

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
from mslab.ir.passes import optimize  # mslab only

show(optimize)

# %% [markdown]
# Run them on the traced step. mslab's `nn.TrainOneStepCell` records its forward once, so CSE has
# nothing to merge. But `Sub`'s rule gives both of its inputs a gradient, the label included (`-dout`,
# a `Neg` node), and nothing reads the label's: DCE drops it.

# %%
# mslab only (the whole cell)
before = list(traced.nodes)
optimize(traced)
after = {id(n) for n in traced.nodes}
removed = [f"{n.prim.name}, the gradient of {n.grad_of.prim.name}" for n in before if id(n) not in after]
print(len(before), "nodes traced,", len(traced.nodes), "after the passes; removed:", removed)

# %% [markdown]
# ## The executor's generated code
#
# The executor compiles the graph into one Python function: a line per node, calling that node's
# kernel, and a `del` after the last reader of each buffer so numpy can reuse the memory. Each buffer
# is named after the IR value it holds (`_12` holds `%12`; inputs and weights keep their names), each
# kernel after its node, the Cell it came from and its op. Nodes whose inputs are all known at compile
# time (`sens` and the `ReduceMean` gradient computed from it, `%5` to `%8`) are *folded*: computed
# once, while compiling, so the code reads `_8` as a constant. Here is the code for our step, as a
# GRAPH-mode call of `train` compiles it (the speed layer is still off):

# %%
# mslab only (the whole cell)
from mslab.runtime.executor import Executor  # mslab only

executor = Executor(ms.trace(train, x, y))  # mslab only
print("folded at compile time:", [n.out.name for n in executor.folded])
print(executor.code)

# %% [markdown]
# Same step, same numbers: three GRAPH-mode steps print the losses the PYNATIVE steps print.

# %%
def losses(mode, steps=3):
    ms.set_context(mode=mode)
    _, step = make_step()
    return [float(step(x, y).asnumpy()) for _ in range(steps)]


print("GRAPH   ", losses(ms.GRAPH_MODE))
print("PYNATIVE", losses(ms.PYNATIVE_MODE))

# %% [markdown]
# # Part 3 · The speed layer
#
# Everything above ran on the plain engine. The speed layer makes the same computation cheaper, and
# it touches the engine only through *hooks*: module attributes of `mslab/core/hooks.py`, read where
# they are used. Each one's comment says what the plain path does while the hook is left at None:

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
from mslab.core import hooks  # mslab only

show(hooks)

# %% [markdown]
# `ms.fast.set_enabled(True)` installs the speed layer into those hooks (importing mslab does it, unless
# the environment sets `MSLAB_PLAIN=1`), and `with ms.lab.plain():` runs a block with them back at
# None. Train two copies of our step side by side, one with the speed layer, one inside `plain()`,
# and count the bprop rules each step calls:

# %%
# mslab only (the whole cell)
ms.fast.set_enabled(True)  # mslab only: the speed layer back on, as mslab starts
ms.set_context(mode=ms.PYNATIVE_MODE)
_, fast_step = make_step()
_, plain_step = make_step()
for step in range(4):
    fast_loss, fast_calls = walk(fast_step, x, y)
    with ms.lab.plain():  # mslab only
        plain_loss, plain_calls = walk(plain_step, x, y)
    n_fast = sum(function == "bprop" for _, function, _ in fast_calls)
    n_plain = sum(function == "bprop" for _, function, _ in plain_calls)
    print(f"step {step}: loss {float(fast_loss.asnumpy()):.6f} vs {float(plain_loss.asnumpy()):.6f}  "
          f"equal: {np.array_equal(fast_loss.asnumpy(), plain_loss.asnumpy())}   bprop calls {n_fast} vs {n_plain}")

# %% [markdown]
# The plain step calls its five rules every time. With the speed layer, step 0 does too: there is no
# earlier step to compare with. At step 1 the same *structure* comes back (the same primitives on the
# same shapes), and the rules are called once more, this time to trace them into a graph, as GRAPH mode
# traces them, compiled by the same executor. From step 2 on no rule is called: each step runs that
# compiled backward on its own recorded values. (The *lean tape* helps too: it keeps each call as it
# ran, and builds nodes only if a backward walks them.)
#
# Why are the losses identical, bit for bit? The compiled backward *is* the rules: traced from the
# same code, its nodes compute what the rules' primitives compute, in the order the rules ran. Only the
# dispatch, one Python call per op, is saved. (mslab's gradient check, `check_grad`, holds every op to
# this: the replayed backward must equal the rule-by-rule one bit for bit.)
#
# In GRAPH mode the speed layer changes the executor's generated code: a few neighbouring nodes share
# one line (*fusion*: a `MaxPoolGrad` with the `ReluGrad` after it, a convolution's two backward
# nodes), each fused kernel computing bit for bit what the two nodes would. A small convolutional
# step shows it: here is its generated code with the speed layer off, then on, as a diff (`-` lines
# only in plain, `+` lines only with the speed layer):

# %%
# mslab only (the whole cell)
import difflib


class SmallConv(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(2 * 4 * 4, 1)

    def construct(self, x):
        return self.fc(self.flatten(self.pool(self.relu(self.conv(x)))))


ms.set_context(mode=ms.GRAPH_MODE)
conv = SmallConv()
conv_step = nn.TrainOneStepCell(nn.WithLossCell(conv, nn.MSELoss()),
                                nn.Momentum(conv.trainable_params(), 0.05, 0.9))
images = ms.Tensor(np.ones((2, 1, 8, 8), np.float32))
targets = ms.Tensor(np.ones((2, 1), np.float32))
conv_graph = ms.trace(conv_step, images, targets)  # mslab only
with ms.lab.plain():  # mslab only
    plain_code = Executor(conv_graph).code
fast_code = Executor(conv_graph).code
print("\n".join(difflib.unified_diff(plain_code.splitlines(), fast_code.splitlines(), "plain", "fast",
                                    lineterm="", n=0)))

# %% [markdown]
# The last hook, `stride1_convolution`, changes no line: the same `Conv2D` kernel, at stride 1, calls
# the wide-column convolution of `mslab/fast/` instead of the plain im2col. It sums the same products
# in another order, so for a stride-1 convolution the last bits may differ; our Dense step has no
# convolution, and its numbers are the same to the bit.

# %% [markdown]
# ## Where to read next
#
# You have now seen every stage of one step: `Cell.__call__` (`mslab/nn/cell.py`, with what only an
# outermost call does in `mslab/runtime/cell_call.py`), `Primitive.__call__` (`mslab/ops/primitive.py`),
# the tape (`mslab/ir/tape.py`), `backprop` (`mslab/autodiff/backprop.py`), the rules beside their ops
# (`mslab/ops/*_ops.py`), the optimizer (`mslab/nn/optim/momentum.py`, `mslab/ops/optim_ops.py`), the
# tracer and the passes (`mslab/ir/`), the executor (`mslab/runtime/executor.py`), and the speed layer
# (`mslab/core/hooks.py`, `mslab/fast/`). Each file starts with a docstring that says what it is for;
# `show` works on anything you want to read next, and `ms.lab.plain()` lets you watch the plain path
# in any lesson.

# %% [markdown]
# ## Exercises
#
# 1. **Predict, then run.** `Mul().bprop(a, b, out, dout)` with `a = [1, 2, 3]`, `b = [4, 5, 6]`
#    (as Tensors) and `dout` all ones: what does it return?
#
#    <details><summary>Solution</summary>
#
#    `([4, 5, 6], [1, 2, 3])`: the gradient of `a * b` with respect to `a` is `dout * b`, and with
#    respect to `b` is `dout * a`. Each rule is that short; `backprop` chains them.
#    </details>
#
# 2. **Change one thing.** Record the whole training step, `with ms.record() as tape: train(x, y)`,
#    instead of `train.network(x, y)`. Which operators appear besides the forward's?
#
#    <details><summary>Solution</summary>
#
#    The `Fill` that makes `sens`, the backward's operators (the bprop rules run as operators too:
#    `MatMul`s, `Mul`, `Neg`, `RealDiv`, `BiasAddGrad`, ...), one `ApplyMomentum` per weight, the
#    `AssignAdd` of `global_step`, and the `Depend` that returns the loss. In PYNATIVE mode the whole
#    step is one recording, in the order it ran.
#    </details>
