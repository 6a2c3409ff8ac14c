# %% [markdown]
# # 06 · Model, callbacks and checkpoints
#
# Lessons 04 and 05 wrote training steps by hand. `Model` is MindSpore's high-level API around them:
# `train`, `eval`, `predict` and `fit` (train and evaluate), with **callbacks** that watch or steer
# training. This lesson trains the `y = 2x + 3` LinearNet of MindSpore's guide with each of the
# built-in callbacks, writes one of its own, evaluates while training, keeps the best checkpoint, and
# loads it into a fresh network for inference.

# %%
import os
import tempfile

import numpy as np

import mslab as ms
import mslab.dataset as ds
from mslab import Tensor, nn
from mslab.common.initializer import Normal

ms.set_seed(1)
ms.set_context(mode=ms.GRAPH_MODE)
os.chdir(tempfile.mkdtemp())  # checkpoints go to a scratch directory


class LinearNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(1, 1, Normal(0.02), Normal(0.02))

    def construct(self, x):
        return self.fc(x)


def get_data(num, w=2.0, b=3.0):
    for _ in range(num):
        x = np.random.uniform(-10.0, 10.0)
        noise = np.random.normal(0, 1)
        y = x * w + b + noise
        yield np.array([x]).astype(np.float32), np.array([y]).astype(np.float32)


def create_dataset(samples, batch_size=16):
    dataset = ds.GeneratorDataset(samples, column_names=['data', 'label'])
    dataset = dataset.batch(batch_size)
    return dataset


train_samples = list(get_data(160))   # 10 batches of 16
valid_samples = list(get_data(80))    # 5 batches of 16


def datasets():
    return create_dataset(train_samples), create_dataset(valid_samples)


train_dataset, valid_dataset = datasets()
print(train_dataset.get_dataset_size(), valid_dataset.get_dataset_size())

# %% [markdown]
# ## `train`, `eval`, `predict`
#
# `Model(network, loss_fn, optimizer, metrics)` builds the training step
# (`TrainOneStepCell(WithLossCell(network, loss_fn), optimizer)`, lesson 04) and the evaluation
# network (`WithEvalCell(network, loss_fn)`, lesson 07). `LossMonitor(n)` prints the loss every `n`
# steps; the step counts within the epoch.

# %%
net = LinearNet()
model = ms.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.005, 0.9),
                 metrics={"mae": nn.MAE(), "loss": nn.Loss()})
model.train(2, train_dataset, callbacks=[ms.LossMonitor(5)])
print(model.eval(valid_dataset))
print(model.predict(Tensor(np.array([[0.0], [1.0]], np.float32))))

# %% [markdown]
# `eval` returns a dict, one entry per metric, computed over the whole validation set. `predict` just
# runs the network (`set_train(False)`) on what you give it.
#
# One `Model` can train on the same dataset object again and again, but MindSpore refuses to let a
# second `Model` train on it: `RuntimeError: The dataset object had been used in other model by
# model.train(...), please create a new dataset.` That is why the samples above are generated once
# and `datasets()` wraps them in fresh dataset objects for each new `Model` below. (mslab does not
# check this yet.)
#
# ## The built-in callbacks
#
# A callback is an object with methods that `Model` calls at fixed points: `on_train_begin`,
# `on_train_epoch_begin`, `on_train_step_begin`, `on_train_step_end`, `on_train_epoch_end`,
# `on_train_end` (and `on_eval_...` during `eval`). MindSpore ships these:
#
# | callback | does |
# |---|---|
# | `LossMonitor(per_print_times=1)` | prints the loss every `per_print_times` steps |
# | `TimeMonitor(data_size=None)` | prints the time of each epoch and of a step |
# | `ModelCheckpoint(prefix, directory, config)` | saves checkpoints, as `CheckpointConfig` says |
# | `LearningRateScheduler(fn)` | sets the learning rate to `fn(lr, cur_step_num)` after each step |
# | `EarlyStopping(monitor, patience, ...)` | stops when a monitored value stops improving |
# | `History()` | records the loss (and the evaluation results) of every epoch |
#
# `TimeMonitor`'s times vary from run to run, so this cell's output is not checked:

# %%
# NBVAL_IGNORE_OUTPUT
model.train(1, train_dataset, callbacks=[ms.TimeMonitor()])

# %% [markdown]
# ### `ModelCheckpoint` and `CheckpointConfig`
#
# `CheckpointConfig(save_checkpoint_steps=4, keep_checkpoint_max=3)` saves every 4 steps and keeps
# the 3 newest files. The files are named `<prefix>-<epoch>_<step in epoch>.ckpt`. Two epochs of 10
# steps save at steps 4, 8, 12, 16 and 20; only the last three are kept.

# %%
ckpt_config = ms.CheckpointConfig(save_checkpoint_steps=4, keep_checkpoint_max=3)
ckpt_cb = ms.ModelCheckpoint(prefix="linear", directory="./checkpoint", config=ckpt_config)
model.train(2, train_dataset, callbacks=[ckpt_cb])
print(sorted(f for f in os.listdir("./checkpoint") if f.endswith(".ckpt")))
print(os.path.basename(ckpt_cb.latest_ckpt_file_name))

# %% [markdown]
# In GRAPH mode, `ModelCheckpoint` also writes `<prefix>-graph.meta` beside the checkpoints, once, at
# the first step: the compiled training graph. MindSpore stores it as a binary protobuf; mslab writes
# its own IR text there (the text `print(ms.trace(...))` shows in lesson 02), so you can read it:

# %%
# mslab only (the whole cell)
with open("./checkpoint/linear-graph.meta") as f:
    print("".join(f.readlines()[:4]))

# %% [markdown]
# What is in a checkpoint? `ms.load_checkpoint` reads one back as a dict from parameter name to
# Parameter. `ModelCheckpoint` saves the *training* network, so besides the weights there is the
# optimizer's state: Momentum's `moments` (one per weight), its learning rate, its momentum, and a
# step counter `global_step`.

# %%
param_dict = ms.load_checkpoint(ckpt_cb.latest_ckpt_file_name)
print(sorted(param_dict))
for name in ("fc.weight", "fc.bias", "moments.fc.weight", "moments.fc.bias"):
    print(f"{name:20s} {param_dict[name].asnumpy().ravel()}")
print("the network now:   ", net.fc.weight.asnumpy().ravel(), net.fc.bias.asnumpy())

# %% [markdown]
# ### `LearningRateScheduler`
#
# It calls your function with the current learning rate and the step number after every step, and
# writes the result into the optimizer. Here the rate halves every 5 steps. mslab prints each change;
# MindSpore writes the same line (`At step 5, learning_rate change to ...`) to its log at INFO level,
# which is not shown by default.

# %%
def learning_rate_function(lr, cur_step_num):
    if cur_step_num % 5 == 0:
        lr = lr * 0.5
    return lr


ms.set_seed(1)
net = LinearNet()
optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.004, momentum=0.9)
model = ms.Model(net, nn.MSELoss(), optimizer)
train_dataset, valid_dataset = datasets()
model.train(1, train_dataset, callbacks=[ms.LearningRateScheduler(learning_rate_function)])
print(optimizer.learning_rate.asnumpy())

# %% [markdown]
# ## A callback of your own
#
# Subclass `ms.Callback` and define the methods you need. Each gets a `run_context`;
# `run_context.original_args()` returns the training's state, `cb_params`: the epoch and step
# numbers, the last step's output (`net_outputs`, the loss), the networks, the optimizer, and more.
# `run_context.request_stop()` ends training after the current step. This one prints a line per
# epoch and stops once the loss falls below a threshold:

# %%
class StopAtLoss(ms.Callback):
    def __init__(self, threshold):
        super().__init__()
        self.threshold = threshold

    def on_train_begin(self, run_context):
        cb_params = run_context.original_args()
        print("training", type(cb_params.train_network).__name__, "for", cb_params.epoch_num, "epochs of",
              cb_params.batch_num, "steps; optimizer", type(cb_params.optimizer).__name__)

    def on_train_step_end(self, run_context):
        cb_params = run_context.original_args()
        loss = float(cb_params.net_outputs.asnumpy())
        if loss < self.threshold:
            print(f"epoch {cb_params.cur_epoch_num}, step {cb_params.cur_step_num}: loss {loss:.3f}, stopping")
            run_context.request_stop()

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        print(f"end of epoch {cb_params.cur_epoch_num}: step {cb_params.cur_step_num}, "
              f"loss {float(cb_params.net_outputs.asnumpy()):.3f}")


ms.set_seed(1)
net = LinearNet()
model = ms.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.005, 0.9))
train_dataset, valid_dataset = datasets()
model.train(10, train_dataset, callbacks=[StopAtLoss(2.0)])

# %% [markdown]
# ## Evaluating while training: `Model.fit`
#
# `model.fit(epoch, train_dataset, valid_dataset, valid_frequency=1, callbacks=...)` trains and, every
# `valid_frequency` epochs, evaluates on `valid_dataset` with the model's metrics. The results reach
# the callbacks in `cb_params.eval_results` at the end of that epoch; `LossMonitor` prints them, and
# `History` records them with the epoch's loss (`net_output`). (This is what `train.md` calls
# "evaluating while training".)

# %%
ms.set_seed(1)
net = LinearNet()
model = ms.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.005, 0.9),
                 metrics={"mae": nn.MAE(), "loss": nn.Loss()})
history = ms.History()
train_dataset, valid_dataset = datasets()
model.fit(3, train_dataset, valid_dataset, callbacks=[ms.LossMonitor(10), history])
print(history.epoch)
print({name: [round(float(v), 4) for v in values] for name, values in history.history.items()})

# %% [markdown]
# ## Keeping the best checkpoint
#
# `ModelCheckpoint` saves on a schedule, whatever the results. To keep the *best* network, a callback
# reads `eval_results` after each evaluation and saves when the monitored value improves, the way
# seed 001's `Trainer` does by hand (lesson 05). `EarlyStopping` watches the same value and ends
# training when it has not improved for `patience` evaluations.

# %%
class SaveBest(ms.Callback):
    """Save the network whenever the validation MAE is the lowest so far."""

    def __init__(self, net, file_name):
        super().__init__()
        self.net = net
        self.file_name = file_name
        self.best = float("inf")

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        mae = cb_params.eval_results["mae"]
        if mae < self.best:
            self.best = mae
            ms.save_checkpoint(self.net, self.file_name)
            print(f"epoch {cb_params.cur_epoch_num}: mae {mae:.4f}, the best so far: saved")
        else:
            print(f"epoch {cb_params.cur_epoch_num}: mae {mae:.4f} (best {self.best:.4f})")


ms.set_seed(1)
net = LinearNet()
model = ms.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.02, 0.9),
                 metrics={"mae": nn.MAE()})
save_best = SaveBest(net, "best.ckpt")
stop = ms.EarlyStopping(monitor="mae", patience=2, verbose=True)
train_dataset, valid_dataset = datasets()
model.fit(20, train_dataset, valid_dataset, callbacks=[save_best, stop])
print("stopped after epoch", stop.stopped_epoch, "; best mae", round(save_best.best, 4))

# %% [markdown]
# ## Loading it for inference
#
# The inference flow of MindSpore's migration guide: build the network, load the trained parameters,
# and evaluate or predict. `ms.load_checkpoint(file)` returns the parameter dict, and
# `ms.load_param_into_net(net, param_dict)` copies it into a network by parameter name; it returns
# the names it could not match, both ways (network parameters missing from the file, and file
# entries the network does not have). `ms.load_checkpoint(file, net)` does both at once.

# %%
ms.set_seed(2)
fresh = LinearNet()
print("before:", fresh.fc.weight.asnumpy().ravel(), fresh.fc.bias.asnumpy())
param_dict = ms.load_checkpoint("best.ckpt")
print(ms.load_param_into_net(fresh, param_dict))
print("after: ", fresh.fc.weight.asnumpy().ravel(), fresh.fc.bias.asnumpy())

# %% [markdown]
# ## A checkpoint MindSpore can read
#
# `ms.save_checkpoint` writes MindSpore's own file formats: the default `format="ckpt"` is
# MindSpore's protobuf checkpoint, and `format="safetensors"` writes a safetensors file with
# MindSpore's header. So a file saved here loads in MindSpore, and a file MindSpore saved loads here.
# (Checked with MindSpore 2.10: it loaded mslab's LeNet5 checkpoints in both formats with nothing left
# unloaded, and its logits agreed with mslab's to 2e-8.) `append_dict` stores extra values, such as
# the epoch, beside the parameters.

# %%
ms.save_checkpoint(fresh, "linear.ckpt", append_dict={"epoch_num": 3})
ms.save_checkpoint(fresh, "linear.safetensors", format="safetensors")
for file, fmt in (("linear.ckpt", "ckpt"), ("linear.safetensors", "safetensors")):
    loaded = ms.load_checkpoint(file, format=fmt)
    print(file, "->", {k: (v.asnumpy().tolist() if isinstance(v, ms.Tensor) else v) for k, v in loaded.items()})

# %% [markdown]
# The guide's advice for inference data: use batch size 1, or else `drop_remainder=False`, so that
# every sample is predicted (the default, `drop_remainder=False`, keeps a short last batch; `True`
# drops it); and no random augmentation, so that the same parameters always give the same result.
# Then `set_train(False)`, MindSpore's counterpart of PyTorch's `model.eval()`:

# %%
samples = np.array([[-1.0], [0.0], [1.0], [2.0], [3.0], [4.0], [5.0]], np.float32)


def infer_data():
    return ds.NumpySlicesDataset({"data": samples}, shuffle=False)


print("batches of 4, drop_remainder=True: ", infer_data().batch(4, drop_remainder=True).get_dataset_size())
print("batches of 4, drop_remainder=False:", infer_data().batch(4, drop_remainder=False).get_dataset_size())

fresh.set_train(False)
predictions = [fresh(d["data"]).asnumpy().item() for d in infer_data().batch(1).create_dict_iterator()]
print(np.round(predictions, 3))
print("the same, batched by Model.predict:",
      np.array_equal(ms.Model(fresh).predict(Tensor(samples)).asnumpy().ravel(), np.array(predictions, np.float32)))

# %% [markdown]
# And with the loss and metrics, `Model.eval` on the loaded network gives the same MAE that
# `SaveBest` saw when it saved the file:

# %%
print(ms.Model(fresh, nn.MSELoss(), metrics={"mae": nn.MAE()}).eval(create_dataset(valid_samples)))

# %% [markdown]
# ## Saving: what and how
#
# `ms.save_checkpoint(save_obj, file)` takes a Cell (all its parameters), a list of parameters or
# of `{"name": ..., "data": ...}` dicts, or a dict from names to Parameters or numpy arrays. (Not a
# dict of plain Tensors: MindSpore 2.10 fails on one, with an `UnboundLocalError` from inside
# `save_checkpoint`; wrap them in `Parameter`s or call `.asnumpy()` first.) `choice_func` keeps only some names,
# and `append_dict` adds values of your own (an epoch number, say). `load_checkpoint` takes a
# `choice_func` too, to leave out the optimizer's state for example. (It also has `filter_prefix`,
# but MindSpore 2.10 warns that it "will be deprecated, please use `choice_func` instead".)

# %%
ms.save_checkpoint(fresh, "weights_only.ckpt", choice_func=lambda name: name.endswith("weight"),
                   append_dict={"epoch_num": 7})
print({k: v.asnumpy().tolist() for k, v in ms.load_checkpoint("weights_only.ckpt").items()})
latest = ckpt_cb.latest_ckpt_file_name
print(sorted(ms.load_checkpoint(latest)), "->",
      sorted(ms.load_checkpoint(latest, choice_func=lambda name: name.startswith("fc."))))

# %% [markdown]
# MindSpore's `save_checkpoint` and `load_checkpoint` also take `format=`: `"ckpt"` (the default) or
# `"safetensors"` (then name the file `.safetensors`).
#
# ## Summary
#
# - `Model.train` / `eval` / `predict` / `fit`; `fit` evaluates every `valid_frequency` epochs.
# - Callbacks: `LossMonitor`, `TimeMonitor`, `ModelCheckpoint` + `CheckpointConfig`,
#   `LearningRateScheduler`, `EarlyStopping`, `History`, and your own `ms.Callback` subclass reading
#   `run_context.original_args()`.
# - Keep the best network with a callback that saves on improvement; load it with
#   `load_checkpoint` + `load_param_into_net`, `set_train(False)`, and predict with batch 1 (or
#   `drop_remainder=False`) and no random augmentation.
#
# **Next:** lesson 07 looks inside evaluation: `WithEvalCell`, metrics, and networks that share
# weights.

# %% [markdown]
# ## Exercises
#
# 1. **Predict, then run.** Train a fresh LinearNet for two epochs (10 steps each) with
#    `CheckpointConfig(save_checkpoint_steps=3, keep_checkpoint_max=2)` into an empty directory.
#    Which files are left?
#
#    <details><summary>Solution</summary>
#
#    `linear-2_8.ckpt` and `linear-2_10.ckpt`. It saves at steps 3, 6, 9, 12, 15 and 18 (`2_8` is
#    epoch 2, step 8 of that epoch), and once more when training ends, at step 20 (`2_10`), then keeps
#    the newest two. MindSpore 2.10 leaves the same two files.
#    </details>
#
# 2. **Predict, then run.** Save the training network with
#    `ms.save_checkpoint(model.train_network, "moments.ckpt", choice_func=lambda name: name.startswith("moments"))`.
#    Which keys does `ms.load_checkpoint("moments.ckpt")` hold?
#
#    <details><summary>Solution</summary>
#
#    `moments.fc.bias` and `moments.fc.weight`: only Momentum's state. `choice_func` sees each
#    parameter's name (`p.name`, not its path `optimizer.moments.fc.weight` in the training step).
#    </details>
