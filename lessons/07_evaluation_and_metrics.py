# %% [markdown]
# # 07 · Evaluation networks and metrics
#
# Training needs one network; judging it needs another. MindSpore's guide to building networks
# names three: the **forward network** (data in, prediction out), the **training network** that
# wraps it with a loss, gradients and an optimizer (lesson 04), and the **evaluation network** that
# returns predictions and labels so that **metrics** can score them. This lesson builds the
# evaluation side: `WithEvalCell`, a custom one for several labels, metrics by hand and in `Model`,
# a metric of your own, why the training and evaluation networks must share their weights, and
# what `set_train` changes in `Dropout` and `BatchNorm`.

# %%
import numpy as np

import mslab as ms
import mslab.dataset as ds
from mslab import Tensor, nn
from mslab.train import Metric

ms.set_seed(1)


# %% [markdown]
# ## The forward, training and evaluation networks
#
# The data follows MindSpore's tutorial: points of `y = 2x + 3` with noise. Here the noise comes
# from a seeded numpy generator and the layer starts from zero weights, so every number below is
# the same on every machine (and in MindSpore).

# %%
def get_data(num, w=2.0, b=3.0, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(num):
        x = rng.uniform(-10.0, 10.0)
        noise = rng.normal(0, 1)
        yield np.array([x], np.float32), np.array([x * w + b + noise], np.float32)


def create_dataset(num_data, batch_size=16, seed=0):
    dataset = ds.GeneratorDataset(list(get_data(num_data, seed=seed)), column_names=["data", "label"],
                                  shuffle=False)
    return dataset.batch(batch_size)


class LinearNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(1, 1, weight_init="zeros", bias_init="zeros")

    def construct(self, x):
        return self.fc(x)


net = LinearNet()                                    # the forward network
crit = nn.MSELoss()
opt = nn.Momentum(net.trainable_params(), learning_rate=0.005, momentum=0.9)
train_net = nn.TrainOneStepCell(nn.WithLossCell(net, crit), opt)   # the training network
train_net.set_train()
eval_net = nn.WithEvalCell(net, crit)                # the evaluation network
eval_net.set_train(False)

train_dataset = create_dataset(160)
eval_dataset = create_dataset(64, seed=1)
for _ in range(3):
    for d in train_dataset.create_dict_iterator():
        train_net(d["data"], d["label"])
print(f"weight {net.fc.weight.asnumpy().item():.4f}   bias {net.fc.bias.asnumpy().item():.4f}")

# %% [markdown]
# `WithEvalCell(network, loss_fn)` runs the network on `data` and returns three things: the loss,
# the prediction and the label. Its `construct` in MindSpore is:
#
# ```python
# def construct(self, data, label):
#     outputs = self._network(data)
#     loss = self._loss_fn(outputs, label)
#     return loss, outputs, label
# ```

# %%
batch = next(eval_dataset.create_tuple_iterator())
loss, outputs, label = eval_net(*batch)
print("loss:", loss.shape, f"{loss.asnumpy().item():.4f}")
print("outputs:", outputs.shape, "label:", label.shape)
print("first predictions:", outputs.asnumpy()[:3].ravel().round(3), "labels:", label.asnumpy()[:3].ravel().round(3))

# %% [markdown]
# ## Metrics by hand: `clear`, `update`, `eval`
#
# A metric accumulates over batches. `clear()` empties it, `update(...)` adds one batch, `eval()`
# gives the result over everything since the last `clear()`. `MAE` takes predictions and labels;
# `Loss` takes the loss. This is the loop of MindSpore's tutorial:

# %%
mae = nn.MAE()
loss_metric = nn.Loss()
mae.clear()
loss_metric.clear()
for d in eval_dataset.create_dict_iterator():
    outputs = eval_net(d["data"], d["label"])
    mae.update(outputs[1], outputs[2])
    loss_metric.update(outputs[0])
print(f"mae:  {mae.eval():.4f}")
print(f"loss: {loss_metric.eval():.4f}")

# %% [markdown]
# Check them by hand: `MAE` is the mean absolute error over every sample; `Loss` is the mean of the
# batch losses it was given (four batches of 16 here).

# %%
preds, labels, losses = [], [], []
for data, label in eval_dataset.create_tuple_iterator():
    loss, outputs, label = eval_net(data, label)
    preds.append(outputs.asnumpy())
    labels.append(label.asnumpy())
    losses.append(loss.asnumpy())
print(f"mae by hand:  {np.abs(np.concatenate(preds) - np.concatenate(labels)).mean():.4f}")
print(f"loss by hand: {np.mean(losses):.4f}")

# %% [markdown]
# Without `clear()` a metric keeps what it had; after `clear()` it has nothing, and `eval()` refuses
# to divide by zero samples:

# %%
mae.clear()
try:
    mae.eval()
except RuntimeError as e:
    print("eval() after clear() raises", type(e).__name__)

# %% [markdown]
# For classifiers, `Accuracy` compares the arg-max of the logits with the label, and
# `TopKCategoricalAccuracy(k)` counts a sample as right when its label is among the `k` largest
# logits (`Top1CategoricalAccuracy` and `Top5CategoricalAccuracy` are the usual two). On four samples
# of three classes (MindSpore 2.10 gives the same three numbers):

# %%
logits = Tensor(np.array([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2], [0.2, 0.3, 0.5], [0.6, 0.3, 0.1]], np.float32))
classes = Tensor(np.array([2, 0, 2, 1], np.int32))
for metric in (nn.Accuracy("classification"), nn.Top1CategoricalAccuracy(), nn.TopKCategoricalAccuracy(2)):
    metric.clear()
    metric.update(logits, classes)
    print(f"{type(metric).__name__:26s} {metric.eval()}")

# %% [markdown]
# ## A custom evaluation network for several labels
#
# `WithEvalCell` takes exactly `data` and `label`. With more inputs, the framework cannot know which
# are data and which are labels, so you write the evaluation network yourself (the loss is optional).
# Here each sample has two labels: the noisy one and the clean `2x + 3`.

# %%
class CustomWithEvalCell(nn.Cell):
    def __init__(self, network):
        super().__init__(auto_prefix=False)
        self._network = network

    def construct(self, data, label1, label2):
        outputs = self._network(data)
        return outputs, label1, label2


def two_labels(num, seed=1):
    for x, y in get_data(num, seed=seed):
        yield x, y, 2 * x + 3


eval3_dataset = ds.GeneratorDataset(list(two_labels(64)), column_names=["data", "label1", "label2"],
                                    shuffle=False).batch(16)
eval3_net = CustomWithEvalCell(net)
eval3_net.set_train(False)

# %% [markdown]
# Built-in metrics take two inputs, prediction and label. `set_indexes` says which of the evaluation
# network's outputs they are: `[0, 1]` scores against the noisy label, `[0, 2]` against the clean one.

# %%
mae_noisy = nn.MAE().set_indexes([0, 1])
mae_clean = nn.MAE().set_indexes([0, 2])
for d in eval3_dataset.create_dict_iterator():
    outputs = eval3_net(d["data"], d["label1"], d["label2"])
    mae_noisy.update(*outputs)
    mae_clean.update(*outputs)
print(f"mae against the noisy label: {mae_noisy.eval():.4f}")
print(f"mae against the clean label: {mae_clean.eval():.4f}")

# %% [markdown]
# ## Metrics in `Model`
#
# `Model` does the loop above for you. Given the network, a loss and `metrics`, it builds its own
# `WithEvalCell` around the same network; `model.eval` clears each metric, updates it on every batch
# and returns a dict of results (the same numbers as by hand):

# %%
model = ms.Model(net, loss_fn=crit, optimizer=opt, metrics={"mae": nn.MAE(), "loss": nn.Loss()})
print({name: round(value, 4) for name, value in model.eval(eval_dataset).items()})

# %% [markdown]
# With a custom evaluation network, pass it as `eval_network`; each metric's `update` then receives
# all its outputs, and `set_indexes` picks the two it needs:

# %%
model3 = ms.Model(net, eval_network=eval3_net,
                  metrics={"noisy": nn.MAE().set_indexes([0, 1]), "clean": nn.MAE().set_indexes([0, 2])})
print({name: round(value, 4) for name, value in model3.eval(eval3_dataset).items()})

# %% [markdown]
# ## A metric of your own
#
# Subclass `Metric` and write its three methods. `_convert_data` turns a Tensor (or list) into a
# numpy array. This one reports the worst absolute error seen:

# %%
class MaxAbsError(Metric):
    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._max = 0.0
        self._samples = 0

    def update(self, *inputs):
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self._max = max(self._max, float(np.abs(y_pred - y).max()))
        self._samples += y.shape[0]

    def eval(self):
        if self._samples == 0:
            raise RuntimeError("MaxAbsError: call update() before eval()")
        return self._max


model = ms.Model(net, loss_fn=crit, metrics={"mae": nn.MAE(), "max error": MaxAbsError()})
result = model.eval(eval_dataset)
print({name: round(value, 4) for name, value in result.items()})
print(f"by hand: {np.abs(np.concatenate(preds) - np.concatenate(labels)).max():.4f}")

# %% [markdown]
# ## Shared weights, and a network that shares nothing
#
# `train_net`, `eval_net`, `eval3_net` and both `Model`s were all built on **one** `LinearNet`
# instance, so they all hold the very same Parameter objects: when training moves a weight, every
# one of them sees it, and nothing needs to be saved or loaded before evaluating.

# %%
print("eval_net holds the trained weight:", eval_net.trainable_params()[0] is net.fc.weight)
before = model.eval(eval_dataset)["mae"]
for d in train_dataset.create_dict_iterator():
    train_net(d["data"], d["label"])
print(f"mae before one more epoch {before:.4f}, after {model.eval(eval_dataset)['mae']:.4f}")

# %% [markdown]
# The counter-example from the guide: build the evaluation network on a **second** `LinearNet`.
# It has weights of its own, untouched by training, so its scores are those of an untrained network
# until you copy the trained weights in (`load_param_into_net` matches them by name).

# %%
def mae_of(eval_network):
    metric = nn.MAE()
    for data, label in eval_dataset.create_tuple_iterator():
        _, outputs, label = eval_network(data, label)
        metric.update(outputs, label)
    return metric.eval()


net2 = LinearNet()
eval_net2 = nn.WithEvalCell(net2, crit)
eval_net2.set_train(False)
print("same Parameter object:", net2.fc.weight is net.fc.weight)
print(f"eval_net:  mae {mae_of(eval_net):.4f}")
print(f"eval_net2: mae {mae_of(eval_net2):.4f}   (an untrained network)")
not_loaded = ms.load_param_into_net(net2, net.parameters_dict())
print("parameters not loaded:", not_loaded)
print(f"eval_net2 after load_param_into_net: mae {mae_of(eval_net2):.4f}")

# %% [markdown]
# ## What `set_train` changes
#
# `set_train(True)` and `set_train(False)` set a flag on a Cell and every Cell inside it (PyTorch's
# `model.train()` and `model.eval()`). `Model.train` sets it to True, `Model.eval` to False. Most
# layers ignore it; two do not.
#
# **Dropout** zeroes each element with probability `p` while training and scales the survivors by
# `1 / (1 - p)`, so the expected value stays the same; when evaluating it passes its input through.
# A new Cell starts with the flag off.

# %%
drop = nn.Dropout(p=0.5)
x = Tensor(np.ones((2, 8), np.float32))
print("a new Cell is training:", drop.training)
print("evaluating:", np.unique(drop(x).asnumpy()))
drop.set_train(True)
print("training: values", np.unique(drop(x).asnumpy()), "(each element dropped or scaled by 2)")

# %% [markdown]
# **BatchNorm** normalises with the statistics of the current batch while training, and updates its
# running averages `moving_mean` and `moving_variance` (with `momentum=0.9`:
# `moving = 0.9 * moving + 0.1 * batch statistic`; the variance it averages is the unbiased one,
# divided by `n - 1`, although the batch itself is normalised with the variance divided by `n`).
# When evaluating it uses the running averages instead, so one sample is normalised the same way
# whatever batch it comes in.

# %%
bn = nn.BatchNorm1d(2)
x = Tensor(np.array([[1.0, 2.0], [3.0, 6.0], [5.0, 10.0]], np.float32))
bn.set_train(True)
print("training output:\n", bn(x).asnumpy().round(4))
print("moving_mean:", bn.moving_mean.asnumpy().round(4), " moving_variance:", bn.moving_variance.asnumpy().round(4))
print("batch mean:", x.asnumpy().mean(0), " batch variance (n-1):", x.asnumpy().var(0, ddof=1).round(4))
bn.set_train(False)
print("evaluation output:\n", bn(x).asnumpy().round(4))

# %% [markdown]
# In the evaluation output each column is `(x - moving_mean) / sqrt(moving_variance + eps)`. After
# one batch the running averages have moved only a tenth of the way from their start (0 and 1), so
# the same three samples come out very differently in the two modes. That is why an evaluation
# network is switched with `set_train(False)` (and `Model.eval` does it for you), and why a training
# network that forgot `set_train()` learns with Dropout off and BatchNorm's averages frozen.

# %% [markdown]
# ## Exercises
#
# 1. **Predict, then run.** `acc = nn.Accuracy()`; `acc.clear()`; then
#    `acc.update(Tensor([[0.2, 0.8], [0.6, 0.4], [0.3, 0.7], [0.9, 0.1]]), Tensor([1, 1, 1, 0]))` and
#    `acc.eval()`. Then, *without* `clear()`, `acc.update(Tensor([[0.1, 0.9]]), Tensor([0]))` and
#    `acc.eval()` again. What are the two numbers?
#
#    <details><summary>Solution</summary>
#
#    `0.75`, then `0.6`. The predictions are the argmax of each row, `[1, 0, 1, 0]`: 3 of 4 right.
#    A metric accumulates until `clear()`, so the second `eval` counts all 5 samples, 3 right. That is
#    why `Model.eval` clears its metrics first. (MindSpore 2.10 prints the same.)
#    </details>
#
# 2. **Predict, then run.** `nn.MAE()` and `nn.MSE()` on predictions `[1, 2, 4]` against labels
#    `[1.5, 2, 3]`: which is larger?
#
#    <details><summary>Solution</summary>
#
#    MAE is `(0.5 + 0 + 1) / 3 = 0.5`, MSE `(0.25 + 0 + 1) / 3 ≈ 0.4167`. Squaring shrinks errors below
#    1 and grows those above it, so which one is larger depends on the errors' size.
#    </details>
