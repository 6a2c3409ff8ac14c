# %% [markdown]
# # 04 · TrainOneStepCell, step by step
#
# `Model.train` calls one Cell once per batch: `TrainOneStepCell`. It is short, and it is where
# forward, backward and update meet. This lesson reads its source, builds it yourself, draws the one
# graph it compiles to, and then **steps through one real training step**, stage by stage.

# %%
import numpy as np

import mslab as ms
from mslab import ParameterTuple, Tensor, nn, ops
from mslab.common.initializer import Normal

ms.set_seed(1)
ms.set_context(mode=ms.GRAPH_MODE)


# %% [markdown]
# ## The network: LinearNet, from MindSpore's docs
#
# One `Dense(1, 1)` layer learning `y = 2x + 3`, an MSE loss, and Momentum. `WithLossCell` joins the
# network and the loss; `TrainOneStepCell` adds the gradient and the optimizer.

# %%
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


# %% [markdown]
# ## Inside `TrainOneStepCell`
#
# This is its `construct` in MindSpore 2.10, shortened (the `return_grad` option and the graceful
# exit left out). `TrainOneStepCell(network, optimizer, sens=None)`: with no `sens` given, the step
# takes `_no_sens_impl`, whose `GradOperation` has no `sens` input and starts the backward from 1;
# given a number, `construct` fills a `sens` tensor with it and passes it in:
#
# ```python
# def construct(self, *inputs):
#     if not self.sense_flag:                                   # sens=None (the default)
#         return self._no_sens_impl(*inputs)
#     loss = self.network(*inputs)                              # 1. forward: the loss
#     sens = ops.fill(loss.dtype, loss.shape, self.sens)        # 2. sens: where backward starts
#     grads = self.grad(self.network, self.weights)(*inputs, sens)   # 3. backward: GradOperation(get_by_list=True, sens_param=True)
#     grads = self.grad_reducer(grads)                          #    (average across devices; identity on one)
#     loss = ops.depend(loss, self.optimizer(grads))            # 4. update, then return the loss from BEFORE it
#     return loss
#
# def _no_sens_impl(self, *inputs):
#     loss = self.network(*inputs)
#     grads = self.grad_no_sens(self.network, self.weights)(*inputs)   # GradOperation(get_by_list=True): sens is 1
#     grads = self.grad_reducer(grads)
#     loss = ops.depend(loss, self.optimizer(grads))
#     return loss
# ```
#
# Both compute the same gradients when `sens` is 1: a backward seeded with 1 is the plain gradient
# of the loss. mslab's `nn.TrainOneStepCell` always takes the first path, with `sens` 1.0 when none is
# given, so that its graph shows the `sens` node you will meet below.
#
# The network is called twice, for the loss and inside `GradOperation`, yet MindSpore runs **one**
# forward pass per step: GRAPH mode merges the two calls, PYNATIVE mode reuses the forward it has
# just recorded. It matters for layers with side effects: BatchNorm's moving statistics advance once
# per step, Dropout draws one mask. mslab's `nn.TrainOneStepCell` says so in its code: steps 1 to 3
# are one call, `loss, grads = self.grad_with_loss(self.network, self.weights)(*inputs)`, which
# records the forward once, fills `sens` from its loss (`self.fill_sens(loss)`), then runs the
# backward over that recording.
#
# Where does `self.weights` come from? `nn.TrainOneStepCell` takes it from `optimizer.parameters`:
# the weights it differentiates are exactly the ones the optimizer updates. (The hand-written Cell
# below takes `network.trainable_params()`, which is the same list here.)
#
# `F.depend(loss, x)` returns `loss` but makes sure `x` (the update) has happened first. In a graph,
# where nothing runs in "line order", that is how an ordering is stated.
#
# The custom training loop in MindSpore's `train.md` writes the same Cell by hand. Let's do that too,
# and check that it does exactly what `nn.TrainOneStepCell` does:

# %%
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

# %% [markdown]
# The first example in MindSpore's `train.md` ("custom training network") uses `TrainOneStepCell`
# on a Cell of its own, with every weight set to one. Its labels are all zero, so the
# cross-entropy of every sample is zero: the printed loss is 32 zeros.

# %%
from mslab.common.tensor import Tensor
from mslab.nn import Cell, Dense, Momentum, SoftmaxCrossEntropyWithLogits, TrainOneStepCell, WithLossCell


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
for _ in range(1):
    loss = train_network(input, label)
    print("-------loss------", loss)

# %% [markdown]
# ## One step, one graph
#
# In GRAPH mode the whole `construct` compiles into **one** graph: your forward nodes, the backward
# nodes `GradOperation` generated, and the optimizer's nodes. None of the backward or optimizer nodes
# were written by you. Each line's comment names its phase.

# %%
print(ms.trace(train_net, x, y))  # mslab only

# %% [markdown]
# Notice three things:
#
# - the forward runs **once**: one forward pass gives both the loss and the gradient;
# - `Fill(float32, (), 1.0)` is `sens`;
# - each weight is updated by one `ApplyMomentum` node, which writes the weight and its moment in place,
#   and `global_step` grows by one `AssignAdd` (MindSpore's `nn.Momentum` calls the same primitives).
#   `Depend` ties the writes to the returned loss.
#
# The picture groups nodes by the Cell they came from, coloured by phase:

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
import mslab.viz as viz

viz.training_graph(train_net, x, y)

# %% [markdown]
# ## What the compiler did to it
#
# A graph is not what tracing first records. `CompilePipeline` shows the graph after each stage of
# compilation, as mslab's GRAPH mode really runs them. Here it compiles the hand-written cell from
# above, MindSpore's own four-line `construct`: **recorded** (tracing ran `construct` and recorded the
# forward twice: once for the loss, once inside `GradOperation`), **after autodiff** (the backward and
# optimizer nodes appended), **after CSE** (common-subexpression elimination merges the second forward
# into the first, as MindSpore's compiler merges the two calls), **after DCE and folding** (dead nodes
# dropped; nodes computable at compile time, such as `sens`, folded), and the final **schedule** the
# executor runs, one line of generated Python per node. Click a stage; the nodes the next pass removes,
# merges or folds are outlined in orange. (mslab's `nn.TrainOneStepCell` records its forward once, so
# its CSE stage has nothing to merge.)

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
from mslab.widgets import CompilePipeline

pipeline = CompilePipeline(mine, x, y)
pipeline

# %%
print(pipeline.counts)  # mslab only: nodes after each stage

# %% [markdown]
# ## Step through one training step
#
# `StepThrough` runs this very graph on the real numbers above, **one stage at a time**: forward,
# sens, backward, grad reduce, optimizer, return. Press **Next stage** and watch: the highlighted
# nodes in the graph are the ones that just ran, the text says what the stage does, and the panel
# below shows the values: the loss, `sens`, each weight's gradient, and each weight before and
# after the update. **Previous** goes back (the weights are restored); **node ›** runs a single node.
# The step is real: after the optimizer stage the network's weights have moved.

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
from mslab.widgets import StepThrough

stepper = StepThrough(train_net, x, y)
stepper

# %% [markdown]
# Try it in PYNATIVE mode too: `StepThrough(train_net, x, y, mode=ms.PYNATIVE_MODE)` walks the tape
# recorded around one real eager call. The stages are the same: there too the step records its
# forward once and runs the backward over that recording.
#
# ### The same step as a table
#
# In case you are reading this without a running kernel, here is what each stage computes for this
# batch. It drives a second `StepThrough` from Python (`next_stage()`, then read `.values`) on a twin
# of the network: same seed, so the same starting weights.

# %%
# mslab only (the whole cell)
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


# %%
# mslab only (the whole cell)
def number(summary):
    return summary["numbers"][0]

print(f"loss {number(walk.values['loss']):.6g}   sens {number(walk.values['sens']):g}")
print(f"{'parameter':10s} {'gradient':>10s} {'before':>10s} {'after':>10s}")
for p in walk.values["params"]:
    print(f"{p['name']:10s} {number(p['gradient']):10.6g} {number(p['before']):10.6g} {number(p['after']):10.6g}")

# %% [markdown]
# Check the optimizer's arithmetic by hand. Momentum keeps a velocity `v` per weight, starting at 0:
# `v = 0.9 * v + gradient`, then `w = w - learning_rate * v`. On the first step `v` is just the
# gradient:

# %%
# mslab only (the whole cell)
for p in walk.values["params"]:
    by_hand = number(p["before"]) - 0.005 * (0.9 * 0.0 + number(p["gradient"]))
    print(f"{p['name']:10s} by hand {by_hand:.5g}   stepped {number(p['after']):.5g}")
print("the twin's weight now:", twin.fc.weight.asnumpy().ravel())

# %% [markdown]
# ## Now many steps: the training loop from the docs
#
# With `TrainOneStepCell` built, a training loop is just calling it on each batch. This is the loop
# from MindSpore's "build a training network" tutorial, on its generated `y = 2x + 3` data with
# noise, for eight epochs of ten batches. `LossPlot` draws the loss as it goes.

# %%
# NBVAL_IGNORE_OUTPUT
from IPython.display import display  # mslab only: shows the widget

import mslab.dataset as ds
from mslab.widgets import LossPlot  # mslab only


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
plot = LossPlot(title="LinearNet, a hand-written loop")  # mslab only
display(plot)  # mslab only
step = 0
epochs = 8
for epoch in range(epochs):
    seen = []  # the weight after each step of this epoch
    for d in train_dataset.create_dict_iterator():
        result = train_net(d["data"], d["label"])
        step += 1
        plot.update(step, loss=result)  # mslab only
        seen.append(net.fc.weight.asnumpy().item())
    print(f"epoch {epoch + 1}: loss {result}, weight between {min(seen):.2f} and {max(seen):.2f},",
          f"bias {net.fc.bias.asnumpy().item():.2f}")
plot.finish()  # mslab only

# %% [markdown]
# How to read it. The first loss is large (the weights start near 0, the targets reach ±23). It falls
# fast, but not smoothly: the weight's gradient is strong (`x` is spread over ±10), and momentum
# carries the weight past 2 and back, swinging between roughly 0.8 and 3.7 in the first epoch; the
# swings shrink epoch by epoch (the printed range narrows around 2), and the loss jumps with them.
# The bias, whose gradient is weaker, moves more slowly towards 3 (it overshoots a little too, to
# about 3.5, and comes back). And the loss never reaches 0:
# it levels out near **1**, because the data has noise of standard deviation 1, so even the true
# line `y = 2x + 3` has a mean squared error of about 1 on it.

# %% [markdown]
# `train.md`'s own custom loop goes one step further: `DatasetHelper` with `dataset_sink_mode=True`
# feeds several batches at a time to the device. That needs an Ascend device; lesson 08 shows it.

# %% [markdown]
# ## Model does the same
#
# `Model(network, loss_fn, optimizer)` builds exactly this `TrainOneStepCell(WithLossCell(...))` for
# you and runs the loop, with callbacks. If you already have a `TrainOneStepCell` (say, a custom one
# that clips gradients, like BERT's), hand it to `Model` alone: it already holds the loss and the
# optimizer.

# %%
# NBVAL_IGNORE_OUTPUT
model = ms.Model(train_net)
model.train(2, train_dataset, callbacks=[ms.LossMonitor(10)])
print("learned: weight", net.fc.weight.asnumpy().ravel(), "bias", net.fc.bias.asnumpy(), "(target 2 and 3)")

# %% [markdown]
# ## Side by side
#
# | step | MindSpore | PyTorch | TensorFlow |
# |---|---|---|---|
# | forward + loss | `loss = self.network(*inputs)` | `loss = loss_fn(net(x), y)` | inside `with tf.GradientTape() as tape:` |
# | starting gradient | `sens = F.fill(..., self.sens)` | `loss.backward(gradient)` (default 1) | implicit |
# | gradients | `GradOperation(get_by_list=True, sens_param=True)(network, weights)(*inputs, sens)`, derived from the graph | recorded `grad_fn` chain, walked by `backward()` | `tape.gradient(loss, vars)` |
# | update | `self.optimizer(grads)` inside the same graph | `optimizer.step()`, then `zero_grad()` | `optimizer.apply_gradients(...)` |
#
# MindSpore never accumulates gradients into `.grad` fields, so there is no `zero_grad`: gradients
# are ordinary return values of the backward graph.
#
# That is the whole training step. You have seen every node of it.

# %% [markdown]
# ## Exercises
#
# 1. **Predict, then run.** Build the LinearNet training step of the first part again (seed 1) with
#    `nn.TrainOneStepCell(..., sens=2.0)` and take one step on the same `x`, `y`. What happens to the
#    returned loss, and to the weight's change?
#
#    <details><summary>Solution</summary>
#
#    The loss is the same (24.7668: it is computed before the update, and `sens` does not touch the
#    forward). The weight moves twice as far (0.1393 instead of 0.0697): `sens` seeds the backward,
#    every gradient is multiplied by it, and Momentum's first step is `learning_rate * gradient`.
#    MindSpore 2.10 gives the same numbers. That is how loss scaling (lesson 05) works, and why it
#    must divide the gradients back.
#    </details>
#
# 2. **Change one thing.** In the hand-written loop, set `momentum=0.0` and train again. Does the
#    weight still go past 2 and come back?
#
#    <details><summary>Solution</summary>
#
#    No: without momentum each step only follows the current gradient, and the weight rises to about
#    2 within the first epoch and stays there. But the bias, whose gradient is weak, now creeps: it is
#    still below 2 after eight epochs. Momentum adds up past steps (`v = 0.9 * v + gradient`): that
#    speeds up the slow direction (the bias reaches 3 within three epochs) at the price of swings in
#    the fast one.
#    </details>
#
# 3. **Predict, then run.** In `get_data`, make the noise smaller: `np.random.normal(0, 0.5)`. Near
#    which value does the loss level out now?
#
#    <details><summary>Solution</summary>
#
#    Near 0.25, the noise's variance (0.5²), instead of 1: the mean squared error of even the perfect
#    line is the noise's variance. The loss curve's floor tells you how noisy the data is. (Single
#    batches of 16 scatter around it: 0.17 to 0.3 here.)
#    </details>
