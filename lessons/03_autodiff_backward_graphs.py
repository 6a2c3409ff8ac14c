# %% [markdown]
# # 03 · Autodiff and backward graphs
#
# Training needs gradients: how much the loss changes when each weight changes. Frameworks find
# them by *automatic differentiation*. MindSpore's migration guide explains the two ways:
#
# - **PyTorch** records: as each operation runs, the result remembers the backward function that
#   undoes it (`grad_fn`). `loss.backward()` walks that chain in reverse. MindSpore's PYNATIVE mode
#   works like this too.
# - **MindSpore in GRAPH mode** derives: it records nothing while running. `GradOperation` takes the
#   forward *graph* and, from its structure alone, generates a backward graph: for each forward
#   node, the nodes of its gradient rule (its *bprop*). The result does not depend on the data, so
#   it is compiled once and run again and again.
#
# This lesson shows both, on real graphs.

# %%
import numpy as np

import mslab as ms
import mslab.viz as viz  # mslab only
from mslab import Parameter, ParameterTuple, Tensor, nn, ops

ms.set_seed(1)


# %% [markdown]
# ## `GradOperation`: the example from MindSpore's API docs
#
# `Net` computes `(x * z) @ y` with a learnable scalar `z`. `GradOperation()` turns a network into a
# function that returns the gradient with respect to its first input. It does not take tensors; it
# takes a network, and gives back a new one.

# %%
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

# %% [markdown]
# Both modes agree. Since `out = x @ y` (with `z = 1`), the gradient of `sum(out)` with respect to
# `x[i, k]` is the sum of row `k` of `y`: 0.11 + 3.3 + 1.1 = 4.51, and so on.
#
# ## What do you want the gradient of? The four variants
#
# | `GradOperation(...)` | call | returns |
# |---|---|---|
# | `()` | `grad(net)(x, y)` | gradient of the first input |
# | `(get_all=True)` | `grad(net)(x, y)` | a tuple: one gradient per input |
# | `(get_by_list=True)` | `grad(net, weights)(x, y)` | a tuple: one gradient per weight |
# | `(get_all=True, get_by_list=True)` | `grad(net, weights)(x, y)` | `(input gradients, weight gradients)` |
#
# `weights` is a `ParameterTuple`. Training uses `get_by_list=True`: it needs weight gradients.

# %%
net = Net()
weights = ParameterTuple(net.trainable_params())

dx, dy = ops.GradOperation(get_all=True)(net)(x, y)
print("get_all        -> dx", dx.shape, "dy", dy.shape)
(dz,) = ops.GradOperation(get_by_list=True)(net, weights)(x, y)
print("get_by_list    -> dz", dz)
(dx, dy), (dz,) = ops.GradOperation(get_all=True, get_by_list=True)(net, weights)(x, y)
print("both           -> dx", dx.shape, "dy", dy.shape, "dz", dz.shape)

# %% [markdown]
# Inputs need not be floats. MindSpore differentiates an integer program too, and an int32 input gets
# an int32 gradient: for `y * (z + 3 * (x + y))` at `x, y, z = 1, 2, 3`, d/dx = 3y = 6,
# d/dy = z + 3x + 6y = 18, d/dz = y = 2 (MindSpore 2.10 prints the same three Int32 numbers).

# %%
class IntProgram(nn.Cell):
    def construct(self, x, y, z):
        return y * (z + 3 * (x + y))


ints = [Tensor(np.array(v, np.int32)) for v in (1, 2, 3)]
int_grads = ops.GradOperation(get_all=True)(IntProgram())(*ints)
print([int(g.asnumpy()) for g in int_grads], [str(g.dtype) for g in int_grads])

# %% [markdown]
# ## `sens`: where the backward pass starts
#
# A gradient flows backwards from the output. Something has to say how much each output element
# matters at the start: that is the **sensitivity**, `sens`. By default it is all ones (the gradient
# of `sum(out)`). With `sens_param=True` you pass it yourself as one extra, last argument. It plays
# the part of the tensor in PyTorch's `loss.backward(gradient)`.
#
# Here only the first row of the output matters, with weights 1, 2, 3:

# %%
sens = Tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]], dtype=ms.float32)
dx = ops.GradOperation(sens_param=True)(net)(x, y, sens)
print(dx)
print("by hand, sens @ y.T:")
print(sens.asnumpy() @ y.asnumpy().T)


# %% [markdown]
# The migration guide's PyTorch example, `x = x * 2; x = x - 1; x.backward(x)`, is the same idea:
# the output itself is passed as the starting gradient. In mslab:

# %%
def f(a):
    a = a * 2
    a = a - 1
    return a


ones = Tensor(np.ones((2, 2), np.float32))
out = f(ones)
print(ops.GradOperation(sens_param=True)(f)(ones, out))   # d/da of sum(out * f(a)) = 2 * out

# %% [markdown]
# ## The functional forms: `ms.grad` and `ms.value_and_grad`
#
# MindSpore 2.x adds functions that do the same job. `grad_position` picks inputs, `weights` picks
# parameters, and `has_aux=True` lets a function return extra outputs that are *not* differentiated,
# as the migration guide's two-loss `Trainer` does.

# %%
print(ms.grad(net, grad_position=(0, 1))(x, y)[1].shape)

def forward_fn(x, y):
    out = net(x, y)
    loss = (out ** 2).mean()
    return loss, out.max()          # the loss first; the rest is auxiliary

value_and_grad = ms.value_and_grad(forward_fn, grad_position=None, weights=weights, has_aux=True)
(loss, aux), grads = value_and_grad(x, y)
print("loss", loss, "aux", aux, "dloss/dz", grads[0])

# %% [markdown]
# With `return_ids=True` each gradient comes paired with what it belongs to: the input's position or
# the Parameter's name. `ms.get_grad(grads, identifier)` picks one out by position or by Parameter, so
# code need not remember the order.

# %%
with_ids = ms.grad(net, grad_position=0, weights=weights, return_ids=True)(x, y)
print([pair[0] for pair in (with_ids[0], *with_ids[1])])     # 0 for x, then the Parameter's name
print(ms.get_grad(with_ids, weights[0]).shape, ms.get_grad(with_ids, 0).shape)


# %% [markdown]
# ## Check it: a central difference
#
# A gradient is a slope. Nudge `z` by a tiny `h` both ways and compare. (mslab's test suite does
# this for every operator.)

# %%
def loss_at(z_value):
    net.z.set_data(Tensor(np.array([z_value], np.float32)))
    value = forward_fn(x, y)[0].asnumpy()
    net.z.set_data(Tensor(np.array([1.0], np.float32)))
    return float(value)

h = 1e-2
numeric = (loss_at(1 + h) - loss_at(1 - h)) / (2 * h)
print(f"autodiff {float(grads[0].asnumpy()[0]):.3f}   central difference {numeric:.3f}")

# %% [markdown]
# ## The backward graph
#
# `GradOperation(net)` is itself a function that can be traced. Its graph holds the forward nodes
# and, after them, the backward nodes autodiff generated. Each backward node says which forward node
# it is the gradient of (`grad of %1 MatMul`), and points at the same source line.

# %%
ms.set_context(mode=ms.GRAPH_MODE)
print(ms.trace(ops.GradOperation()(net), x, y))  # mslab only

# %% [markdown]
# Read it against the maths. The forward is `%0 = x * z`, `%1 = %0 @ y`. The backward starts
# from `OnesLike(%1)` (the default `sens`), then applies MatMul's rule `d%0 = dout @ yᵀ` and Mul's rule
# `dx = d%0 * z`. No numbers were needed to write this down, only the graph.
#
# The picture shows the backward nodes in their own colour; the forward values they read appear as
# faded stubs.

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
viz.backward_graph(net, x, y, weights=(), grad_position=(0,))  # no weights: the gradient for x only

# %% [markdown]
# For a network and its loss, the backward graph gives every weight its gradient. Here it is for
# the LinearNet of lesson 01 with an MSE loss: the gradient rules of `ReduceMean`, `Square`, `Sub`,
# `BiasAdd` and `MatMul`, one after the other.

# %%
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
picture = viz.backward_graph(loss_net, data, label)  # mslab only
print(picture.text("backward"))  # mslab only

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
picture

# %% [markdown]
# ## When you know better: a Cell's own `bprop`
#
# Autodiff derives every gradient from the primitives' bprop rules. A Cell may instead say what its
# gradient is: define `bprop(self, *inputs, out, dout)` beside `construct`, returning one gradient per
# input. While a gradient is being computed, the Cell then counts as **one** operation whose backward
# is your rule, in both modes; autodiff still chains it with everything around it. (MindSpore's
# migration guide points to this for gradients the framework should not derive; the numbers below are
# the ones MindSpore 2.10 gives.) Here the rule deliberately lies: `x * 3` reports a gradient of 100.
# The traced gradient shows one `Times3.bprop` node (its `construct` nested inside) and, in the
# backward, the `Mul` by 100 that your rule recorded.

# %%
class Times3(nn.Cell):
    def construct(self, x):
        return x * 3

    def bprop(self, x, out, dout):
        return (dout * 100,)


v = Tensor(np.array([1.0, 2.0], np.float32))
print(Times3()(v), ms.grad(Times3())(v))
print(ms.trace(ms.grad(Times3()), v))  # mslab only

# %% [markdown]
# ## The PYNATIVE tape
#
# In PYNATIVE mode there is no graph to derive from, so mslab does what PyTorch does: while the
# forward runs, each executed operation is appended to a **tape** with its real inputs and output.
# `ms.record()` lets you open one and look. The tape *is* a forward graph, recorded instead of traced,
# so it prints and draws the same way.

# %%
# mslab only (the whole cell)
ms.set_context(mode=ms.PYNATIVE_MODE)
with ms.record() as tape:
    loss = loss_net(data, label)
print("loss:", loss)
print(tape.graph)

# %% [markdown]
# Backward in PYNATIVE mode walks this tape in reverse, applying the same bprop rules, on the values
# it recorded. Same rules, same numbers: the only difference is *when* the backward is worked out.
#
# A shortcut of mslab's own (this lesson does not claim MindSpore's PYNATIVE mode takes it): a training
# loop records a forward of the *same structure* every step (same operations, same shapes). The second
# time a gradient function meets one, mslab traces the bprop rules over the tape once, exactly as GRAPH
# mode does, and from then on runs that compiled backward on each step's recorded values instead of
# calling the rules one by one. The numbers stay the rules' own, bit for bit, and inside `ms.record()`
# (or with a backward hook in the network) the rules always run one by one, so what you watch is what runs.
# This replay belongs to mslab's speed layer (`mslab/fast/`, on by default): inside
# `with ms.lab.plain():` it is off, and every step calls every rule, the plain path lesson 11 walks.
#
# `TapeView` shows the tape next to the backward graph GRAPH mode derives for the same call:

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
from mslab.widgets import TapeView

TapeView(loss_net, data, label)

# %%
weights = ParameterTuple(linear.trainable_params())
grad_fn = ops.GradOperation(get_by_list=True)
ms.set_context(mode=ms.PYNATIVE_MODE)
eager = grad_fn(loss_net, weights)(data, label)
ms.set_context(mode=ms.GRAPH_MODE)
compiled = grad_fn(loss_net, weights)(data, label)
for p, a, b in zip(weights, eager, compiled):
    a, b = a.asnumpy(), b.asnumpy()
    print(f"{p.name:10s} PYNATIVE {a.ravel()}  GRAPH {b.ravel()}  equal: {np.array_equal(a, b)}")

# %% [markdown]
# **Next:** lesson 04 puts gradients to work: `TrainOneStepCell` computes them and hands them to the
# optimizer, and you can watch one step happen stage by stage.

# %% [markdown]
# ## Exercises
#
# 1. **Predict, then run.** Set `z` to 2 (`net.z.set_data(Tensor(np.array([2.0], np.float32)))`) and
#    compute `GradNetWrtX(net)(x, y)` again. What changes?
#
#    <details><summary>Solution</summary>
#
#    Every number doubles, to `[9.02, 5.4, 7.2]` in both rows: the gradient of `sum((x * z) @ y)` with
#    respect to `x[i, k]` is `z` times the sum of row `k` of `y`. Mul's bprop multiplies the incoming
#    gradient by the other input, `z`.
#    </details>
#
# 2. **Predict, then run.** With `z` back at 1, call `ops.GradOperation(sens_param=True)(net)(x, y, sens)`
#    with `sens` a `(2, 3)` tensor of 2s. Which earlier result does it equal, and why?
#
#    <details><summary>Solution</summary>
#
#    The one from exercise 1: `[9.02, 5.4, 7.2]` in both rows. `sens` of all 2s is the gradient of
#    `2 * sum(out)`, and the backward is linear in `sens`, so everything doubles, exactly as doubling
#    `z` did here.
#    </details>
#
# 3. **Predict, then run.** What is the gradient with respect to the weight `z` itself (`get_by_list=True`)
#    at `z = 1`? Check it against one line of numpy.
#
#    <details><summary>Solution</summary>
#
#    `d sum((x * z) @ y) / dz = sum(x @ y)`, which is `21.536` here:
#    `(x.asnumpy() @ y.asnumpy()).sum()` gives the same number. A scalar weight used everywhere gets
#    the sum of its contributions, which is how the backward of a broadcast works.
#    </details>
