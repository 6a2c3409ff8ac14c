# %% [markdown]
# # 05 · Custom training steps
#
# `nn.TrainOneStepCell` (lesson 04) computes one loss, one set of gradients, and hands them to one
# optimizer. Real networks often need more: BERT clips its gradients, Wide&Deep trains two parts
# with two optimizers, a large batch that does not fit is split and its gradients accumulated, and
# float16 training scales the loss and skips the steps whose gradients overflowed. Each of these is a
# training step of your own, written as a Cell or as a function. This lesson writes them all and
# runs them on real numbers, ending with the functional `Trainer` of MindSpore's migration guide.

# %%
import numpy as np

import mslab as ms
from mslab import ParameterTuple, Tensor, nn, ops
from mslab.common import dtype as mstype
from mslab.common.initializer import Normal

ms.set_seed(1)
ms.set_context(mode=ms.GRAPH_MODE)


class LinearNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(1, 1, Normal(0.02), Normal(0.02))

    def construct(self, x):
        return self.fc(x)


x = Tensor(np.array([[-2.0], [-1.0], [0.5], [1.0], [3.0]], np.float32))
y = 2 * x + 3


def weights_of(net):
    return [float(p.asnumpy().ravel()[0]) for p in net.trainable_params()]


# %% [markdown]
# ## Gradient clipping, BERT's way
#
# BERT (in MindSpore's ModelZoo) subclasses `nn.TrainOneStepCell` and clips every gradient before
# the update. The clipping function is a `MultitypeFuncGraph`: one name, several implementations
# picked by the *types* of the arguments (here `"Number", "Number", "Tensor"`). `HyperMap` applies it
# to every element of the gradient tuple, and `ops.partial` fixes its first two arguments. This is
# the code from MindSpore's "training and evaluation networks" guide:

# %%
GRADIENT_CLIP_TYPE = 1
GRADIENT_CLIP_VALUE = 1.0

clip_grad = ops.MultitypeFuncGraph("clip_grad")


@clip_grad.register("Number", "Number", "Tensor")
def _clip_grad(clip_type, clip_value, grad):
    if clip_type not in (0, 1):
        return grad
    dt = ops.dtype(grad)
    if clip_type == 0:
        new_grad = ops.clip_by_value(grad, ops.cast(ops.tuple_to_array((-clip_value,)), dt),
                                     ops.cast(ops.tuple_to_array((clip_value,)), dt))
    else:
        new_grad = nn.ClipByNorm()(grad, ops.cast(ops.tuple_to_array((clip_value,)), dt))
    return new_grad


class BertTrainOneStepCell(nn.TrainOneStepCell):
    def __init__(self, network, optimizer, sens=1.0, enable_clip_grad=True):
        super(BertTrainOneStepCell, self).__init__(network, optimizer, sens)
        self.cast = ops.Cast()
        self.hyper_map = ops.HyperMap()
        self.enable_clip_grad = enable_clip_grad

    def construct(self, *inputs):
        weights = self.weights
        loss = self.network(*inputs)
        grads = self.grad(self.network, weights)(*inputs, self.cast(ops.tuple_to_array((self.sens,)), mstype.float32))
        if self.enable_clip_grad:
            # clip the gradients
            grads = self.hyper_map(ops.partial(clip_grad, GRADIENT_CLIP_TYPE, GRADIENT_CLIP_VALUE), grads)
        grads = self.grad_reducer(grads)
        self.optimizer(grads)
        return loss


# %% [markdown]
# First the clipping alone, on two made-up gradients. Type 1 (`ClipByNorm`) rescales a tensor whose
# L2 norm is above 1 to norm 1, keeping its direction: `[3, 4]` (norm 5) becomes `[0.6, 0.8]`.
# Type 0 (`clip_by_value`) cuts each element to [-1, 1]. A gradient that is small already is left
# alone either way. Note that each tensor is clipped **on its own**: this is not the global-norm
# clipping of MindSpore's `ops.clip_by_global_norm` (not in mslab yet) or PyTorch's
# `clip_grad_norm_`, which scale all gradients by one common factor. (MindSpore 2.10 warns that
# `nn.ClipByNorm` "is deprecated from version 2.8.0 ..., use 'ops.clip_by_norm' instead"; the guide's
# code still runs.)

# %%
grads = (Tensor(np.array([3.0, 4.0], np.float32)), Tensor(np.array([0.3, -0.4], np.float32)))
hyper_map = ops.HyperMap()
print("ClipByNorm:    ", *hyper_map(ops.partial(clip_grad, 1, 1.0), grads))
print("clip_by_value: ", *hyper_map(ops.partial(clip_grad, 0, 1.0), grads))

# %% [markdown]
# Now one training step of LinearNet, with and without clipping, from the same starting weights and
# with plain SGD (learning rate 0.1) so the update is easy to check: `w - 0.1 * gradient`.
# At the start the gradients are large (the network outputs about 0, the targets are about 3), so
# BERT's step moves each weight by at most 0.1, while the unclipped step jumps.

# %%
def make(cell_class, **kwargs):
    ms.set_seed(1)
    net = LinearNet()
    return net, cell_class(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1), **kwargs)


net_plain, plain = make(nn.TrainOneStepCell)
net_bert, bert = make(BertTrainOneStepCell)
loss_net = nn.WithLossCell(net_plain, nn.MSELoss())
g = ops.GradOperation(get_by_list=True)(loss_net, ParameterTuple(net_plain.trainable_params()))(x, y)
print("gradients (weight, bias):", [float(t.asnumpy().ravel()[0]) for t in g])
print("start:                   ", weights_of(net_plain))
plain(x, y)
bert(x, y)
print("TrainOneStepCell:        ", weights_of(net_plain))
print("BertTrainOneStepCell:    ", weights_of(net_bert))

# %% [markdown]
# `BertTrainOneStepCell.construct` calls `self.optimizer(grads)` without using its result. In PYNATIVE
# mode that obviously runs; in GRAPH mode it runs too, because an optimizer writes Parameters (a
# *side effect*), and the compiler keeps every side effect even when nothing reads its output.
# `nn.TrainOneStepCell` states the order explicitly with `ops.depend(loss, self.optimizer(grads))`.
#
# ## Two losses, two optimizers: Wide&Deep
#
# Wide&Deep (a recommendation model) has a *wide* part, a linear model trained with FTRL, and a
# *deep* part, a neural network trained with Adam. Its network returns two losses. `TrainStepWrap`
# splits the trainable parameters by name, builds one optimizer per part, and takes two gradients,
# each of one loss with respect to one part's weights. `IthOutputCell` picks one output of the
# network so that `GradOperation` has a single loss to differentiate. The code is the ModelZoo's,
# as quoted in the guide:

# %%
from mslab.context import ParallelMode, get_auto_parallel_context
from mslab.nn import DistributedGradReducer


class IthOutputCell(nn.Cell):
    """
    IthOutputCell
    """
    def __init__(self, network, output_index):
        super(IthOutputCell, self).__init__()
        self.network = network
        self.output_index = output_index

    def construct(self, *inputs):
        """
        IthOutputCell construct
        """
        predict = self.network(*inputs)[self.output_index]
        return predict


class TrainStepWrap(nn.Cell):
    def __init__(self, network, config, sens=1000.0):
        super(TrainStepWrap, self).__init__()
        self.network = network
        self.network.set_train()
        self.trainable_params = network.trainable_params()
        weights_w = []
        weights_d = []
        for params in self.trainable_params:
            if 'wide' in params.name:
                weights_w.append(params)
            else:
                weights_d.append(params)
        self.weights_w = ParameterTuple(weights_w)
        self.weights_d = ParameterTuple(weights_d)
        self.optimizer_w = nn.FTRL(learning_rate=config.ftrl_lr,
                                   params=self.weights_w,
                                   l1=5e-4,
                                   l2=5e-4,
                                   initial_accum=0.1,
                                   loss_scale=sens)
        self.optimizer_d = nn.Adam(self.weights_d,
                                   learning_rate=config.adam_lr,
                                   eps=1e-6,
                                   loss_scale=sens)
        self.hyper_map = ops.HyperMap()
        self.grad_w = ops.GradOperation(get_by_list=True, sens_param=True)
        self.grad_d = ops.GradOperation(get_by_list=True, sens_param=True)
        self.sens = sens
        self.loss_net_w = IthOutputCell(network, output_index=0)
        self.loss_net_d = IthOutputCell(network, output_index=1)
        self.loss_net_w.set_grad()
        self.loss_net_w.set_grad()

        self.reducer_flag = False
        self.grad_reducer_w = None
        self.grad_reducer_d = None
        parallel_mode = get_auto_parallel_context("parallel_mode")
        if parallel_mode in (ParallelMode.DATA_PARALLEL,
                             ParallelMode.HYBRID_PARALLEL):
            self.reducer_flag = True
        if self.reducer_flag:
            mean = get_auto_parallel_context("gradients_mean")
            degree = get_auto_parallel_context("device_num")
            self.grad_reducer_w = DistributedGradReducer(
                self.optimizer_w.parameters, mean, degree)
            self.grad_reducer_d = DistributedGradReducer(
                self.optimizer_d.parameters, mean, degree)

    def construct(self, *inputs):
        """
        TrainStepWrap construct
        """
        weights_w = self.weights_w
        weights_d = self.weights_d
        loss_w, loss_d = self.network(*inputs)
        sens_w = ops.Fill()(ops.DType()(loss_w), ops.Shape()(loss_w), self.sens)
        sens_d = ops.Fill()(ops.DType()(loss_d), ops.Shape()(loss_d), self.sens)
        grads_w = self.grad_w(self.loss_net_w, weights_w)(*inputs, sens_w)
        grads_d = self.grad_d(self.loss_net_d, weights_d)(*inputs, sens_d)
        if self.reducer_flag:
            # apply grad reducer on grads
            grads_w = self.grad_reducer_w(grads_w)
            grads_d = self.grad_reducer_d(grads_d)
        return ops.depend(loss_w, self.optimizer_w(grads_w)), ops.depend(
            loss_d, self.optimizer_d(grads_d))


# %% [markdown]
# The real Wide&Deep is large; here is a small one with the same shape: a wide linear layer and a
# deep two-layer network whose outputs are added into one logit, a sigmoid cross-entropy loss, and
# an L2 penalty on each part's own weights, so that the two losses differ. The sens of 1000 is a
# loss scale: the gradients come out 1000 times too large, and the optimizers divide by it because
# they were built with `loss_scale=sens`. (MindSpore 2.10 warns that `nn.FTRL` is deprecated; it
# still works.)

# %%
import warnings
from types import SimpleNamespace

from mslab.ops.kernel_differences import DIFFERENCES, KernelDiffersFromDocs  # mslab only


class TinyWideDeep(nn.Cell):
    def __init__(self):
        super().__init__()
        self.wide = nn.Dense(3, 1)
        self.deep = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 1)])
        self.loss = nn.BCEWithLogitsLoss()

    def construct(self, features, label):
        logits = self.wide(features) + self.deep(features)
        loss = self.loss(logits, label)
        loss_w = loss + 1e-3 * (self.wide.weight ** 2).sum()
        loss_d = loss + 1e-3 * (self.deep[0].weight ** 2).sum()
        return loss_w, loss_d


# mslab warns once where a MindSpore CPU kernel computes other than its documentation: printed below instead
warnings.filterwarnings("ignore", category=KernelDiffersFromDocs)  # mslab only
ms.set_seed(1)
rng = np.random.default_rng(0)
features = Tensor(rng.normal(size=(8, 3)).astype(np.float32))
clicked = Tensor((features.asnumpy()[:, :1] + features.asnumpy()[:, 1:2] > 0).astype(np.float32))
wide_deep = TinyWideDeep()
train_wd = TrainStepWrap(wide_deep, SimpleNamespace(ftrl_lr=0.1, adam_lr=0.05))
print("FTRL updates:", [p.name for p in train_wd.optimizer_w.parameters])
print("Adam updates:", [p.name for p in train_wd.optimizer_d.parameters])
for step in range(5):
    loss_w, loss_d = train_wd(features, clicked)
    print(f"step {step}: loss_w {float(loss_w.asnumpy()):.5f}   loss_d {float(loss_d.asnumpy()):.5f}")
print("FTRL here is MindSpore's CPU kernel:", DIFFERENCES["FTRL"])  # mslab only

# %% [markdown]
# Two details of the quoted code are worth a second look. `self.loss_net_w.set_grad()` is written
# twice and `loss_net_d` never gets it: harmless here, since `set_grad` only tells PYNATIVE mode to
# prepare a backward network (MindSpore's docstring: "the cell will construct backward network in
# pynative mode"), and this step runs in GRAPH mode. And the `if self.reducer_flag:` in `construct`
# reads a Python attribute, so it is decided while compiling (lesson 02): on one device the
# reducers simply do not appear in the graph.
#
# ## Gradient accumulation
#
# When a batch is too large for the device's memory, split it into *micro-batches*, add up their
# gradients, and update once. MindSpore's tutorial on gradient accumulation does it with functions,
# and so does the version below: `value_and_grad` for the gradients, a set of zero-initialised
# Parameters (cloned from the optimizer's parameters) that collect them, and an update every
# `accumulate_step` calls. Each micro-batch adds `grad / accumulate_step`, so the update uses the mean.

# %%
class Accumulator:
    """Collect gradients for `accumulate_step` micro-batches, then update once with their mean."""

    def __init__(self, optimizer, accumulate_step):
        self.optimizer = optimizer
        self.inner_grads = optimizer.parameters.clone(prefix="accumulate_", init="zeros")
        self.accumulate_step = accumulate_step
        self.count = 0

    def __call__(self, grads):
        for acc, grad in zip(self.inner_grads, grads):
            ops.assign(acc, acc + grad / self.accumulate_step)
        self.count += 1
        if self.count % self.accumulate_step == 0:
            self.optimizer(tuple(self.inner_grads))
            for acc in self.inner_grads:
                ops.assign(acc, ops.zeros_like(acc))


def make_functional_step(net, optimizer):
    loss_fn = nn.MSELoss()

    def forward_fn(data, label):
        return loss_fn(net(data), label)

    return ms.value_and_grad(forward_fn, None, optimizer.parameters)


big_x = Tensor(np.linspace(-3, 3, 16, dtype=np.float32).reshape(16, 1))
big_y = 2 * big_x + 3

ms.set_seed(1)
net_acc = LinearNet()
opt_acc = nn.SGD(net_acc.trainable_params(), 0.1)
grad_fn = make_functional_step(net_acc, opt_acc)
accumulator = Accumulator(opt_acc, accumulate_step=4)
for i in range(4):                                   # four micro-batches of 4 samples
    loss, grads = grad_fn(big_x[4 * i:4 * i + 4], big_y[4 * i:4 * i + 4])
    accumulator(grads)
    print(f"micro-batch {i}: loss {float(loss.asnumpy()):.4f}, weights {weights_of(net_acc)}")

ms.set_seed(1)
net_full = LinearNet()
opt_full = nn.SGD(net_full.trainable_params(), 0.1)
loss, grads = make_functional_step(net_full, opt_full)(big_x, big_y)
opt_full(grads)
print("one step on all 16 samples:  ", weights_of(net_full))
print("close:", np.allclose(weights_of(net_acc), weights_of(net_full), rtol=1e-6))

# %% [markdown]
# The weights stay put for three micro-batches and move on the fourth, to the same place as one step
# on the whole batch (up to float32 rounding): with a mean loss and equal micro-batches, the mean of
# the micro-batch gradients *is* the gradient of the whole batch. (With BatchNorm it would not be
# exactly so: the statistics are per micro-batch.)
#
# ## Loss scaling
#
# In float16 the smallest positive number is about 6e-8 (2⁻²⁴); smaller gradients become 0 and the
# weights stop learning. Loss scaling multiplies the loss by a large number before backpropagation,
# so every gradient is that much larger, and divides the gradients by it afterwards, in float32:

# %%
tiny = Tensor(np.array([1e-8], np.float32))
print("1e-8 in float16:                 ", tiny.astype(ms.float16))
print("(1e-8 * 1024) in float16, / 1024:", (tiny * 1024).astype(ms.float16).astype(ms.float32) / 1024)

# %% [markdown]
# `mindspore.amp` has the pieces: `StaticLossScaler(scale)` with `scale` and `unscale` (they take a
# tensor or a tuple of tensors), and `all_finite(grads)`, True when no gradient holds an inf or a
# NaN. A scale that is too large makes float16 overflow instead; then the step must be skipped.

# %%
from mslab.amp import StaticLossScaler, all_finite

scaler = StaticLossScaler(1024)
print(scaler.scale(Tensor(np.array(0.5, np.float32))))
print(*scaler.unscale((Tensor(np.array([2048.0], np.float32)), Tensor(np.array([-512.0], np.float32)))))
print(all_finite((Tensor(np.array([1.0, 2.0], np.float32)),)),
      all_finite((Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([np.inf], np.float32)))),
      all_finite((Tensor(np.array([np.nan], np.float32)),)))

# %% [markdown]
# `nn.TrainOneStepWithLossScaleCell(network, optimizer, scale_sense)` is `TrainOneStepCell` with the
# scale built in. It passes the scale as the sens, divides the gradients by it, checks them, and
# returns three things: the loss, whether the gradients overflowed, and the scale used. In MindSpore
# its `construct` ends like this:
#
# ```python
# cond = self.get_overflow_status(status, grads)
# overflow = self.process_loss_scale(cond)
# # if there is no overflow, do optimize
# if not overflow:
#     loss = ops.depend(loss, self.optimizer(grads))
# return loss, cond, scaling_sens
# ```
#
# MindSpore 2.10 cannot run this Cell on a CPU, in either mode: its overflow check uses an Ascend
# operator, and the first call fails with `RuntimeError: ... Unsupported op [NPUGetFloatStatusV2] on
# CPU`. It is meant for the devices that train in float16. mslab runs it on any device target, on
# purpose, so that you can watch it work; on a real CPU, scale the loss the functional way, as the
# `Trainer` at the end of this lesson does.
#
# An overflow is simulated here with an `inf` in the input: its gradient is not finite, and the
# weights must not change.

# %%
ms.set_seed(1)
net_ls = LinearNet()
train_ls = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net_ls, nn.MSELoss()),
                                            nn.SGD(net_ls.trainable_params(), 0.1),
                                            scale_sense=Tensor(np.array(1024.0, np.float32)))
bad_x = Tensor(np.array([[-2.0], [-1.0], [0.5], [1.0], [np.inf]], np.float32))
for name, inputs in (("good", x), ("inf ", bad_x), ("good", x)):
    loss, overflow, scale = train_ls(inputs, y)
    print(f"{name} batch: loss {float(loss.asnumpy()):9.4f}  overflow {bool(overflow.asnumpy())!s:5}"
          f"  scale {float(scale.asnumpy()):6.0f}  weights {weights_of(net_ls)}")

# %% [markdown]
# With a *dynamic* scale, `scale_sense` is an update Cell: `DynamicLossScaleUpdateCell` halves the
# scale on every overflow and doubles it after `scale_window` steps in a row without one. The scale
# this way finds the largest value that does not overflow, and keeps probing upwards. (The update
# Cell alone does run on MindSpore's CPU, and gives this very sequence of scales.)

# %%
ms.set_seed(1)
net_dyn = LinearNet()
manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=2**12, scale_factor=2, scale_window=2)
train_dyn = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net_dyn, nn.MSELoss()),
                                             nn.SGD(net_dyn.trainable_params(), 0.01), scale_sense=manager)
for step, inputs in enumerate((x, bad_x, bad_x, x, x, x, x)):
    loss, overflow, scale = train_dyn(inputs, y)
    print(f"step {step}: overflow {bool(overflow.asnumpy())!s:5}  scale used {float(scale.asnumpy()):5.0f}"
          f"  -> next {float(train_dyn.scale_sense.asnumpy()):5.0f}")

# %% [markdown]
# ### The `amp_level` pitfall
#
# `Model(net, loss, opt, amp_level="O2")` does mixed precision for you: it casts the network to
# float16 (keeping BatchNorm and the loss in float32) and builds the training step with a dynamic
# loss scale (`DynamicLossScaleManager`) around it. MindSpore's migration guide warns: if your
# network already does its own mixed precision (its own casts, `to_float`, its own loss-scaling
# training Cell), **do not also set `amp_level`** in `Model`; the two conflict. Use one or the other.
# On a CPU, MindSpore 2.10 refuses "O2" outright, because of its dynamic loss scale:
# `Model(net, loss, opt, amp_level="O2")` raises `ValueError: Only loss_scale_manager=None or
# loss_scale_manager=FixedLossScaleManager(drop_overflow_update=False) are supported on device CPU`.
#
# mslab raises the same error for "O2" (and for a `DynamicLossScaleManager` or a step-skipping
# `FixedLossScaleManager`, as MindSpore does on a CPU). Where MindSpore accepts the level ("O1", "O3",
# "auto"), mslab differs on purpose: its `Model` does not build MindSpore's mixed-precision training
# step, so it only warns, and trains in float32. To compute in float16,
# set it on the network yourself: `net.to_float(ms.float16)`, or `mslab.amp.auto_mixed_precision(net, "O2")`
# (float16 except BatchNorm and LayerNorm, outputs cast back to float32, as in MindSpore).
#
# ## Seed 001's functional Trainer
#
# MindSpore's migration guide ends its training chapter with a functional training flow: a plain
# Python class, two losses added into one, `value_and_grad` with `has_aux=True` (the gradient is of
# the first output; `loss1` and `loss2` come along for printing), a static loss scale, `all_finite`,
# and an `@ms.jit` training step. Here it is verbatim, with `mindspore` replaced by `mslab` and the
# guide's Chinese comments translated into English (the originals are in the folded note below).

# %%
from mslab.amp import StaticLossScaler, all_finite  # noqa: F811 (the guide's own imports, kept)


class Trainer:
    """A training example with two losses"""
    def __init__(self, net, loss1, loss2, optimizer, train_dataset, loss_scale=1.0, eval_dataset=None, metric=None):
        self.net = net
        self.loss1 = loss1
        self.loss2 = loss2
        self.opt = optimizer
        self.train_dataset = train_dataset
        self.train_data_size = self.train_dataset.get_dataset_size()    # the number of batches in the training set
        self.weights = self.opt.parameters
        # Note: value_and_grad's first argument must be the graph to differentiate, usually the network and
        # the loss. It can be a function or a Cell
        self.value_and_grad = ms.value_and_grad(self.forward_fn, None, weights=self.weights, has_aux=True)

        # used in distributed training
        self.grad_reducer = self.get_grad_reducer()
        self.loss_scale = StaticLossScaler(loss_scale)
        self.run_eval = eval_dataset is not None
        if self.run_eval:
            self.eval_dataset = eval_dataset
            self.metric = metric
            self.best_acc = 0

    def get_grad_reducer(self):
        grad_reducer = ops.identity
        parallel_mode = ms.get_auto_parallel_context("parallel_mode")
        # is this distributed training? (its settings: see the general environment setup above)
        reducer_flag = (parallel_mode != ms.ParallelMode.STAND_ALONE)
        if reducer_flag:
            grad_reducer = nn.DistributedGradReducer(self.weights)
        return grad_reducer

    def forward_fn(self, inputs, labels):
        """The forward network; note that the first output must be the one the gradient is taken of"""
        logits = self.net(inputs)
        loss1 = self.loss1(logits, labels)
        loss2 = self.loss2(logits, labels)
        loss = loss1 + loss2
        loss = self.loss_scale.scale(loss)
        return loss, loss1, loss2

    @ms.jit    # jit for speed: the code must follow graph mode's rules, or it raises an error
    def train_single(self, inputs, labels):
        (loss, loss1, loss2), grads = self.value_and_grad(inputs, labels)
        loss = self.loss_scale.unscale(loss)
        grads = self.loss_scale.unscale(grads)
        grads = self.grad_reducer(grads)
        state = all_finite(grads)
        if state:
            self.opt(grads)

        return loss, loss1, loss2

    def train(self, epochs):
        train_dataset = self.train_dataset.create_dict_iterator()
        self.net.set_train(True)
        for epoch in range(epochs):
            # train one epoch
            for batch, data in enumerate(train_dataset):
                loss, loss1, loss2 = self.train_single(data["image"], data["label"])
                if batch % 100 == 0:
                    print(f"step: [{batch} /{self.train_data_size}] "
                          f"loss: {loss}, loss1: {loss1}, loss2: {loss2}", flush=True)
            # evaluate, and save the best checkpoint
            if self.run_eval:
                eval_dataset = self.eval_dataset.create_dict_iterator(num_epochs=1)
                self.net.set_train(False)
                self.metric.clear()
                for batch, data in enumerate(eval_dataset):  # noqa: B007 (verbatim)
                    output = self.net(data["image"])
                    self.metric.update(output, data["label"])
                accuracy = self.metric.eval()
                print(f"epoch {epoch}, accuracy: {accuracy}", flush=True)
                if accuracy >= self.best_acc:
                    # save the best checkpoint
                    self.best_acc = accuracy
                    ms.save_checkpoint(self.net, "best.ckpt")
                    print(f"Updata best acc: {accuracy}")
                self.net.set_train(True)


# %% [markdown]
# <details><summary>The guide's comments in the original Chinese</summary>
#
# In the order they appear (the English above says the same):
#
# - `BertTrainOneStepCell.construct`: 进行梯度截断
# - `Trainer`'s docstring: 一个有两个loss的训练示例
# - `self.train_data_size`: 获取训练集batch数
# - `self.value_and_grad`: 注意value_and_grad的第一个参数需要是需要做梯度求导的图，
#   一般包含网络和loss。这里可以是一个函数，也可以是Cell
# - `self.grad_reducer`: 分布式场景使用
# - `reducer_flag`: 判断是否是分布式场景，分布式场景的设置参考上面通用运行环境设置
# - `forward_fn`'s docstring: 正向网络构建，注意第一个输出必须是最后需要求梯度的那个输出
# - `@ms.jit`: jit加速，需要满足图模式构建的要求，否则会报错
# - the epoch loop: 训练一个epoch
# - after each epoch: 推理并保存最好的那个checkpoint
# - `if accuracy >= self.best_acc`: 保存最好的那个checkpoint
#
# </details>

# %% [markdown]
# To run it, it needs a network, two losses, an optimizer and datasets with `image` and `label`
# columns. A small task will do: four features, two classes (is the sum of the first two features
# positive?), one-hot labels, a `Dense(4, 2)` network, MSE plus L1 loss, Momentum, a loss scale of
# 1024 and `Accuracy` on a held-out set. The Trainer saves `best.ckpt` in the current directory, so
# we move to a scratch directory first. Each epoch has 25 batches; the Trainer prints batch 0 of
# each (`batch % 100 == 0`), then evaluates.

# %%
import os
import tempfile

import mslab.dataset as ds

os.chdir(tempfile.mkdtemp())


def classification_data(n, seed):
    rng = np.random.default_rng(seed)
    images = rng.normal(size=(n, 4)).astype(np.float32)
    labels = np.eye(2, dtype=np.float32)[(images[:, 0] + images[:, 1] > 0).astype(np.int64)]
    return images, labels


train_images, train_labels = classification_data(200, seed=0)
eval_images, eval_labels = classification_data(64, seed=1)
train_data = ds.NumpySlicesDataset({"image": train_images, "label": train_labels}, shuffle=False).batch(8)
eval_data = ds.NumpySlicesDataset({"image": eval_images, "label": eval_labels}, shuffle=False).batch(8)

ms.set_seed(1)
net = nn.Dense(4, 2)
trainer = Trainer(net, nn.MSELoss(), nn.L1Loss(), nn.Momentum(net.trainable_params(), 0.01, 0.9), train_data,
                  loss_scale=1024.0, eval_dataset=eval_data, metric=nn.Accuracy())
trainer.train(3)
print("saved:", os.listdir("."))

# %% [markdown]
# `loss` is printed after `unscale`: it is `loss1 + loss2`, not 1024 times that. `best.ckpt` is
# rewritten only in an epoch whose accuracy is at least the best so far (`>=`). Lesson 06 shows the same
# "keep the best checkpoint" with `Model` and callbacks.
#
# ### The skipped step, in the graph
#
# `state = all_finite(grads)` is a tensor, so `if state:` is a condition on a value known only when
# the step runs. `@ms.jit` compiles it into control flow (lesson 02): an `If` node whose
# then-branch holds the optimizer's updates (an `ApplyMomentum` per weight) and whose else-branch is empty.
# Print the compiled step:

# %%
images, labels = Tensor(train_images[:8]), Tensor(train_labels[:8])
print(ms.trace(trainer.train_single, images, labels))  # mslab only

# %% [markdown]
# And run it with an overflow: a batch with an `inf` makes the gradients infinite, `state` is False,
# the else-branch runs, and the weights do not move. The next good batch trains again.

# %%
bad_images = images.asnumpy().copy()
bad_images[0, 0] = np.inf
before = weights_of(net)
loss, loss1, loss2 = trainer.train_single(Tensor(bad_images), labels)
print("inf batch: loss", loss, "  weights unchanged:", weights_of(net) == before)
loss, loss1, loss2 = trainer.train_single(images, labels)
print("good batch: loss", loss, "  weights unchanged:", weights_of(net) == before)

# %% [markdown]
# The same `Trainer` runs in PYNATIVE mode too (`ms.set_context(mode=ms.PYNATIVE_MODE)`): `@ms.jit`
# still compiles `train_single`, and the numbers are the same.
#
# ## Summary
#
# | need | write | key lines |
# |---|---|---|
# | clip gradients | subclass `TrainOneStepCell` | `hyper_map(ops.partial(clip_grad, ...), grads)` |
# | two losses, two optimizers | two `GradOperation`s | `IthOutputCell(network, i)`, an optimizer per part |
# | accumulate gradients | a function step | `value_and_grad`, Parameters that add up |
# | loss scaling | `TrainOneStepWithLossScaleCell` | `scale`, `unscale`, `all_finite`, skip if not finite |
# | all of it, as functions | seed 001's `Trainer` | `has_aux=True`, `@ms.jit`, `if state: self.opt(grads)` |
#
# **Next:** lesson 06 trains with `Model` and callbacks, saves checkpoints and loads the best one.

# %% [markdown]
# ## Exercises
#
# 1. **Predict, then run.** Set `GRADIENT_CLIP_TYPE = 0` (clip each element to [-1, 1]) before
#    building `BertTrainOneStepCell`, and take the one clipped step of LinearNet again. Do the weights
#    end somewhere else than with type 1?
#
#    <details><summary>Solution</summary>
#
#    No, the same place: `[0.1131, 0.0793]`. LinearNet's weight and bias are one number each, and the
#    L2 norm of a one-element tensor is its absolute value, so clipping the norm to 1 and clipping the
#    value to [-1, 1] are the same thing. They differ for tensors with several elements (see `[3, 4]`
#    above).
#    </details>
#
# 2. **Change one thing.** Run the gradient-accumulation loop with `accumulate_step=2` (still four
#    micro-batches of 4). When do the weights move, and does the result still match one step on all
#    16 samples?
#
#    <details><summary>Solution</summary>
#
#    They move after micro-batches 1 and 3: two updates, each with the mean gradient of 8 samples.
#    The result no longer matches (`close: False`): two steps of SGD, the second from weights the
#    first has moved, are not one step with the whole batch's gradient. Accumulation equals the big
#    batch only when it covers the whole batch before updating.
#    </details>
