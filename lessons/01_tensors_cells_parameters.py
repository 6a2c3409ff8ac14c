# %% [markdown]
# # 01 · Tensors, Cells and parameter names
#
# Three building blocks carry every MindSpore program:
#
# - **Tensor**: an n-dimensional array with a dtype (like `torch.Tensor` or `tf.Tensor`);
# - **Parameter**: a Tensor the network learns, with a *name*;
# - **Cell**: a piece of network (like `torch.nn.Module` or `tf.keras.layers.Layer`), with `construct`
#   saying what it computes.
#
# This lesson meets all three, and pays special attention to parameter names: optimizers,
# checkpoints and gradient tables all refer to parameters by name.

# %%
import numpy as np

import mslab as ms
from mslab import Parameter, Tensor, nn

ms.set_seed(1)

# %% [markdown]
# ## Tensor
#
# Make a Tensor from a number, a list or a numpy array. `repr` shows shape, dtype and value;
# `print` shows just the numbers; `.asnumpy()` gives the numpy array back.

# %%
a = Tensor(np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float32))
b = Tensor([[0.5, 0.5, 0.5], [1.0, 1.0, 1.0]], dtype=ms.float32)
print(repr(a))
print(a.shape, a.dtype)
print(a * b + 1)
print(type(a.asnumpy()))

# %%
print(repr(Tensor(3.0)))           # a 0-d tensor (a scalar)
print(Tensor(3).dtype, Tensor(3.0).dtype, Tensor(np.int32(3)).dtype)
print(a.sum(), a.mean(axis=0), a.reshape(3, 2).shape)

# %% [markdown]
# ## Parameter
#
# A Parameter is a Tensor that training updates. `requires_grad=True` means gradients are
# computed for it. A Parameter's `name` is how the rest of the framework finds it. Printing a
# Parameter names it (as MindSpore 2.10 prints it); `asnumpy()` gives its numbers.

# %%
w = Parameter(Tensor(np.ones((1, 1), np.float32)), name="w")
print(w)
print(w.asnumpy())
w.set_data(Tensor(np.full((1, 1), 2.0, np.float32)))
print(w.asnumpy())
frozen = Parameter(Tensor(np.zeros(2, np.float32)), name="frozen", requires_grad=False)
print(repr(frozen))

# %% [markdown]
# ## Cell: the LinearNet from the MindSpore docs
#
# Declare sub-cells and parameters in `__init__`; write the computation in `construct`. Calling the
# Cell runs `construct`. `Normal(0.02)` draws the initial weights from a normal distribution with
# standard deviation 0.02 (seeded above, so they are the same every run). They are the very numbers
# MindSpore 2.10 draws after the same seed: mslab reproduces its random generator, so the next cell
# prints what MindSpore prints.

# %%
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

# %% [markdown]
# ## How parameters get their names
#
# Assigning a Cell to an attribute (`self.fc = nn.Dense(...)`) registers it as a child, and its
# parameters are prefixed with the attribute path: `fc.weight`, `fc.bias`. Parameters that belong
# to the Cell itself come first, then the children in the order you assigned them.

# %%
for p in net.trainable_params():
    print(repr(p))


# %%
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

# %% [markdown]
# `SequentialCell` and `CellList` name their children `0`, `1`, ... `cells_and_names()` walks the
# whole tree; its first entry is the Cell itself, with the empty name.

# %%
for name, cell in tower.cells_and_names():
    print(repr(name), type(cell).__name__)


# %% [markdown]
# ### A common trap: a plain Python list of layers
#
# MindSpore's migration guide warns: keep layers in `nn.CellList` or `nn.SequentialCell`, never a
# plain list. A list is not registered, so its parameters are invisible: the optimizer would never
# train them and a checkpoint would never save them.

# %%
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

# %% [markdown]
# ## Wrappers keep the names
#
# Training wraps your network twice: `WithLossCell` adds the loss, `TrainOneStepCell` adds the
# gradient and the optimizer. Both are built with `auto_prefix=False`, so the names do not grow
# prefixes: inside the wrapped network the weight is still `fc.weight`. The optimizer keeps its own
# state per parameter, named after it (`moments.fc.weight` for Momentum).
#
# Two kinds of name meet here. `p.name` is the Parameter's own name: what optimizers match and
# checkpoints save. `parameters_and_names()` yields instead the *path* where it found each Parameter:
# the Cell's attribute path, a dot, the attribute. So in the training step the optimizer's state shows
# as `optimizer.moments.fc.weight` (it sits in the Cell `optimizer`), while its name, and the key a
# checkpoint of `train_net` stores, is `moments.fc.weight`. (`fc.weight` has no prefix because
# `TrainOneStepCell` itself holds the weights, in `self.weights`, and the walk meets them there first.)

# %%
crit = nn.MSELoss()
net_with_criterion = nn.WithLossCell(net, crit)
opt = nn.Momentum(net.trainable_params(), learning_rate=0.005, momentum=0.9)
train_net = nn.TrainOneStepCell(net_with_criterion, opt)
train_net.set_train()

print("WithLossCell:    ", [p.name for p in net_with_criterion.trainable_params()])
print("optimizer.parameters:", [p.name for p in opt.parameters])
print("TrainOneStepCell paths:", [name for name, _ in train_net.parameters_and_names()])
print("their p.name:          ", [p.name for _, p in train_net.parameters_and_names()])

# %% [markdown]
# ## Weight sharing
#
# A training network and an evaluation network built on the **same** `net` instance share its
# Parameters: the very same objects. Train one, and the other sees the new weights; no checkpoint
# round trip is needed.

# %%
eval_net = nn.WithEvalCell(net, crit)
eval_net.set_train(False)

y = 2 * x + 3
before = net.fc.weight.asnumpy().copy()
train_net(x, y)   # one training step
print("same Parameter object:", eval_net.trainable_params()[0] is train_net.trainable_params()[0])
print("weight changed:       ", not np.array_equal(before, net.fc.weight.asnumpy()))
loss, outputs, label = eval_net(x, y)
print("eval sees the update: ", np.allclose(outputs.asnumpy(), net(x).asnumpy()))

# %% [markdown]
# ## `set_train` and the `training` flag
#
# `set_train(True)` sets `training` on a Cell and every Cell inside it. Layers such as `Dropout`
# and `BatchNorm` behave differently in training and evaluation; this flag is how they know
# (PyTorch's `model.train()` / `model.eval()`).

# %%
drop_net = nn.SequentialCell([nn.Dense(4, 4), nn.Dropout(p=0.5)])
print([c.training for _, c in drop_net.cells_and_names()])
drop_net.set_train()
print([c.training for _, c in drop_net.cells_and_names()])

# %% [markdown]
# ## Cells take Tensors
#
# A Cell's inputs must be Tensors. A numpy array is a TypeError in both: MindSpore 2.10 reports it from the
# first operator that meets it (here `For primitive[Shape], the input argument must be Tensor, but got
# <class 'numpy.ndarray'>.`), mslab at the Cell's call, naming the Cell and the input, and saying what to do.

# %%
try:
    net(np.ones((2, 1), np.float32))
except TypeError as e:
    print("TypeError:", e)

# %% [markdown]
# **Next:** lesson 02 shows what happens when you call a Cell: right away (PYNATIVE mode), or
# compiled into a graph first (GRAPH mode).

# %% [markdown]
# ## Exercises
#
# Predict first, then write the code in a new cell and run it.
#
# 1. **Predict, then run.** What does
#    `[n for n, _ in nn.SequentialCell([nn.Dense(2, 3), nn.ReLU(), nn.Dense(3, 1)]).parameters_and_names()]`
#    print?
#
#    <details><summary>Solution</summary>
#
#    `['0.weight', '0.bias', '2.weight', '2.bias']`. `SequentialCell` names its children by position,
#    and `ReLU` (child `1`) has no parameters, so no `1.` names appear. MindSpore 2.10 prints the same.
#    </details>
#
# 2. **Change one thing.** Write a Cell whose `__init__` assigns `self.fc = nn.Dense(2, 2)` *first*
#    and a `self.scale = Parameter(...)` *after* it. In which order does `parameters_and_names()`
#    list `scale`, `fc.weight` and `fc.bias`?
#
#    <details><summary>Solution</summary>
#
#    `['scale', 'fc.weight', 'fc.bias']`: a Cell's own Parameters come before its children's, whatever
#    order you assigned them in (the walk visits the Cell itself, then each child). MindSpore 2.10
#    gives the same order.
#    </details>
#
# 3. **Predict, then run.** `train_net` above has taken one step. Call `train_net(x, y)` once more and
#    print `opt.global_step`. What is it, and why does the optimizer keep it?
#
#    <details><summary>Solution</summary>
#
#    `[2]`: every call of the optimizer adds one. Learning-rate schedules (a list or a
#    `LearningRateSchedule`) read it to pick the step's learning rate. It is a Parameter like the
#    moments, so a checkpoint of `train_net` saves it (as `global_step`) and training resumes at the
#    right step.
#    </details>
