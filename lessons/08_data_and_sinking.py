# %% [markdown]
# # 08 · Data pipelines and data sinking
#
# A network is only as busy as its data lets it be. This lesson builds datasets the MindSpore way
# (`GeneratorDataset`, then `map`, `batch`, `shuffle`, `repeat`), sets them beside PyTorch's
# `DataLoader`, and then follows MindSpore's training guide (`train.md`) to **data sinking**: sending
# many batches to the device at once and running many steps there, so that host and device talk
# less. You will see the transfers counted and a timeline of when data moves and callbacks fire.

# %%
import numpy as np

import mslab as ms
import mslab.dataset as ds
from mslab import nn

ms.set_seed(1)


# %% [markdown]
# ## A dataset from Python: `GeneratorDataset`
#
# `GeneratorDataset` turns Python data into a dataset. The source can be a generator function
# (read in order) or an object with `__getitem__` and `__len__` (random access: it can be shuffled
# and split). Each item is a tuple of numpy arrays, one per column; `column_names` names them.

# %%
def gen():
    for i in range(10):
        yield np.array([i], np.float32), np.array([i % 3], np.int32)


def make():
    return ds.GeneratorDataset(gen, column_names=["data", "label"])


class Source:
    """Random access: MindSpore calls source[i] for each index, in the order it chooses."""

    def __init__(self):
        self.x = np.arange(6, dtype=np.float32).reshape(6, 1)

    def __getitem__(self, index):
        return self.x[index], self.x[index] * 2

    def __len__(self):
        return len(self.x)


data = make()
print("columns:", data.get_col_names(), "| size:", data.get_dataset_size())
print("shapes:", data.output_shapes(), "| types:", data.output_types())
print("random access, in order:",
      [int(x[0]) for x, _ in ds.GeneratorDataset(Source(), ["x", "y"], shuffle=False).create_tuple_iterator(
          output_numpy=True)])

# %% [markdown]
# The same thing in PyTorch, for comparison (not run here: PyTorch is optional). A `Dataset` plays
# the part of the random-access source; the `DataLoader` batches and shuffles it:
#
# ```python
# from torch.utils.data import DataLoader, Dataset          # PyTorch
#
# class Source(Dataset):
#     def __getitem__(self, index): ...                       # the same two methods
#     def __len__(self): ...
#
# loader = DataLoader(Source(), batch_size=4, shuffle=True, drop_last=False)
# for x, y in loader:                                         # a new shuffle each pass
#     ...
# ```
#
# | | MindSpore | PyTorch |
# |---|---|---|
# | the data | `GeneratorDataset(source, column_names)` | `Dataset` subclass |
# | per-sample transform | `.map(operations, input_columns)` | inside `__getitem__`, or `transform=` |
# | batching | `.batch(batch_size, drop_remainder)` | `DataLoader(batch_size, drop_last)` |
# | shuffling | `.shuffle(buffer_size)`, or `shuffle=True` on the source | `DataLoader(shuffle=True)` |
# | several epochs | `.repeat(count)`, or the epochs of `Model.train` | a Python loop over the loader |
# | iterating | `create_dict_iterator()` / `create_tuple_iterator()` | `for batch in loader` |
#
# The difference in spirit: a MindSpore dataset is a **pipeline of operations** (each call returns a
# new dataset) that MindSpore runs itself, in parallel and, when sinking, straight into the device.

# %% [markdown]
# ## `map`, `batch`, `repeat`
#
# `map` applies a function to one column of every sample. Operations on data belong in numpy (or
# PIL, OpenCV): MindSpore's guide warns against calling MindSpore operators inside a pipeline, which
# runs in several threads or processes.

# %%
doubled = make().map(operations=lambda x: x * 2, input_columns="data")
print([int(row["data"][0]) for row in doubled.create_dict_iterator(output_numpy=True)])

# %% [markdown]
# The order of `batch` and `repeat` matters. Batching first keeps each pass's last, short batch;
# repeating first joins the passes into one stream and batches across the seam:

# %%
print("batch(4).repeat(2):", [b[0].shape[0] for b in make().batch(4).repeat(2).create_tuple_iterator()])
print("repeat(2).batch(4):", [b[0].shape[0] for b in make().repeat(2).batch(4).create_tuple_iterator()])
print("batch(4, drop_remainder=True):", make().batch(4, drop_remainder=True).get_dataset_size(), "batches")

# %% [markdown]
# `drop_remainder=True` keeps every batch the same shape, which graph mode likes when training. For
# **inference**, MindSpore's guide says: use `batch_size=1`, or keep `drop_remainder=False` so that
# no sample is dropped, and use no random augmentation, so the same weights always give the same
# predictions. Above, dropping the remainder lost 2 of the 10 samples.
#
# A pipeline is a tree: each dataset feeds one consumer. That is why the cells above call `make()`
# for a fresh pipeline each time; MindSpore refuses to iterate a pipeline in which one dataset feeds
# two others.
#
# ## `shuffle`
#
# `shuffle(buffer_size)` fills a buffer and draws from it at random; a buffer as large as the
# dataset shuffles it fully. The order depends on the seed (and differs between mslab and
# MindSpore), the contents do not:

# %%
shuffled = ds.GeneratorDataset(Source(), ["x", "y"], shuffle=False).shuffle(buffer_size=6)
order = [int(x[0]) for x, _ in shuffled.create_tuple_iterator(output_numpy=True)]
print("same samples:", sorted(order) == list(range(6)))

# %% [markdown]
# ## Dict and tuple iterators
#
# `create_dict_iterator()` yields a dict keyed by column name; `create_tuple_iterator()` yields a
# list in column order (handy for `net(*batch)`). Both give Tensors, or numpy arrays with
# `output_numpy=True`.

# %%
row = next(make().create_dict_iterator())
print("dict: ", type(row).__name__, sorted(row), type(row["data"]).__name__)
row = next(make().create_tuple_iterator())
print("tuple:", type(row).__name__, len(row), type(row[0]).__name__)
row = next(make().create_dict_iterator(output_numpy=True))
print("numpy:", type(row["data"]).__name__, row["data"].dtype)

# %% [markdown]
# ## Data sinking
#
# Without sinking, every training step is a round trip: the host (your Python process) reads a
# batch, sends it to the device, the device runs one step, and the loss comes back. On an Ascend
# device, MindSpore can instead **sink**: the whole step graph runs on the device, and the data
# goes there through a channel into a queue, many batches at a time. The device then runs several
# steps in a row and returns only the last result. Seed `train.md` names the two ideas: *graph
# sinking* (the whole graph runs on the device) and *loop sinking* (several steps per returned
# result). `Model.train` does both with `dataset_sink_mode=True`; `sink_size` says how many steps each
# sink runs:
#
# - `sink_size=-1` (the default): each epoch sinks the whole dataset;
# - `sink_size > 0`: each "epoch" sinks `sink_size` batches, read from the dataset as an endless
#   stream (the next epoch goes on where the last stopped), so `epoch * sink_size` batches in all.
#
# Without sinking, `sink_size` is ignored. mslab has no device: with `device_target="Ascend"` it
# **simulates** one (and says so), and counts every host-device exchange in
# `model.transfer_counts`, which exists only in mslab. Sinking needs GRAPH mode, as in `train.md`.
# (The CPU build of MindSpore 2.10 refuses `device_target="Ascend"` with `RuntimeError: Unsupported
# device target Ascend`: on MindSpore, this part needs an Ascend machine.)

# %%
import warnings

with warnings.catch_warnings(record=True) as said:  # mslab's note about the device, printed as text
    warnings.simplefilter("always")
    ms.set_context(mode=ms.GRAPH_MODE, device_target="Ascend")
for warning in said:
    print("mslab says:", warning.message)


def line_data():
    for i in range(12):
        x = np.array([i / 12], np.float32)
        yield x, 2 * x + 3


def line_dataset():
    return ds.GeneratorDataset(line_data, column_names=["data", "label"]).batch(2)


net = nn.Dense(1, 1, weight_init="zeros", bias_init="zeros")
model = ms.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), learning_rate=0.02, momentum=0.9))
print("batches per epoch:", line_dataset().get_dataset_size())

# %% [markdown]
# A callback sees training from the host's side. This one writes down, at every callback, the
# epoch and step counters `Model` passes it (`run_context.original_args()`), and how many exchanges
# the simulated device has counted so far: that makes a timeline of when data moves and when
# callbacks fire.

# %%
class Timeline(ms.Callback):
    def __init__(self, model):
        super().__init__()
        self.model, self.rows = model, []

    def _log(self, event, run_context):
        args = run_context.original_args()
        row = (event, args.cur_epoch_num, args.cur_step_num)
        counts = self.model.transfer_counts  # mslab only
        row += (counts.host_to_device, counts.batches, counts.device_to_host)  # mslab only
        self.rows.append(row)

    def on_train_epoch_begin(self, run_context):
        self._log("epoch begin", run_context)

    def on_train_step_begin(self, run_context):
        self._log("step begin", run_context)

    def on_train_step_end(self, run_context):
        self._log("step end", run_context)

    def on_train_epoch_end(self, run_context):
        self._log("epoch end", run_context)


def show(rows):
    print(f"{'callback':12s} {'epoch':>5s} {'step':>5s} {'host->device':>13s} {'batches':>8s} {'device->host':>13s}")
    for event, epoch, step, *counts in rows:  # counts: host->device, batches, device->host (mslab's counters)
        print(f"{event:12s} {epoch:5d} {step:5d}", "".join(f"{n:>{w}d}" for n, w in zip(counts, (14, 9, 14))))


def train(epochs, sink, sink_size=-1):
    timeline = Timeline(model)
    model.train(epochs, line_dataset(), callbacks=[timeline], dataset_sink_mode=sink, sink_size=sink_size)
    return timeline.rows

# %% [markdown]
# First without sinking, one epoch: every step sends one batch and fetches one result, and the step
# callbacks fire six times.

# %%
show(train(1, sink=False))
print(model.transfer_counts)  # mslab only

# %% [markdown]
# Now with sinking, two epochs, `sink_size=-1`: one transfer carries the epoch's six batches, the
# device runs six steps, one result comes back. The step callbacks fire once per sink, and
# `cur_step_num` jumps by six: the host never saw the steps in between.

# %%
show(train(2, sink=True))
print(model.transfer_counts)  # mslab only

# %% [markdown]
# With `sink_size=4`, each epoch is four steps, whatever the dataset's size: two epochs train on
# eight batches, and the second epoch's sink starts where the first stopped (batch 5 of 6).

# %%
show(train(2, sink=True, sink_size=4))
print(model.transfer_counts)  # mslab only

# %% [markdown]
# The same numbers as a picture: each row of the timeline is a moment the host regained control.
# Without sinking, transfers climb one per step; with sinking, in one jump per epoch.

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(7, 2.6))
for label, rows in [("no sink, 2 epochs", train(2, sink=False)), ("sink, 2 epochs", train(2, sink=True))]:
    ends = [r for r in rows if r[0] == "step end"]
    ax.step([r[2] for r in ends], [r[3] + r[5] for r in ends], where="post", marker="o", label=label)
ax.set_xlabel("training step (cur_step_num) at each step-end callback")
ax.set_ylabel("host-device exchanges")
ax.legend()
plt.show()

# %% [markdown]
# ## The custom loop of `train.md`
#
# Without `Model`, `train.md` sinks by hand: `DatasetHelper` with `dataset_sink_mode=True` hands out
# one item per sink (the data itself has gone to the device), and `connect_network_with_dataset`
# wraps the training network so that one call runs `sink_size` steps on the device and returns the
# last loss.

# %%
ms.set_seed(1)
sink_net = nn.Dense(1, 1, weight_init="zeros", bias_init="zeros")
train_net = nn.TrainOneStepCell(nn.WithLossCell(sink_net, nn.MSELoss()),
                                nn.Momentum(sink_net.trainable_params(), learning_rate=0.02, momentum=0.9))
dataset_helper = ms.DatasetHelper(line_dataset(), dataset_sink_mode=True, sink_size=3, epoch_num=4)
net_on_device = ms.connect_network_with_dataset(train_net, dataset_helper)
train_net.set_train()
epoch = 4
for step in range(epoch):
    for inputs in dataset_helper:
        output = net_on_device(*inputs)
        print("epoch: {0}/{1}, losses: {2:.4f}".format(step + 1, epoch, float(output.asnumpy())), flush=True)
print(dataset_helper.transfer_counts)  # mslab only

# %% [markdown]
# ## And on a CPU?
#
# Sinking is a device feature. On a CPU, MindSpore does not sink (observed on MindSpore 2.10):
# `Model.train(..., dataset_sink_mode=True)` quietly trains step by step, ignoring `sink_size`
# (every epoch runs the whole dataset, and the step callbacks fire at every step), and
# `DatasetHelper(dataset, dataset_sink_mode=True)` raises a `RuntimeError`. mslab does the same with
# `device_target="CPU"`, its default.

# %%
ms.set_context(device_target="CPU")
timeline = train(2, sink=True, sink_size=4)
print("step-end callbacks:", sum(1 for row in timeline if row[0] == "step end"),
      "| last cur_step_num:", timeline[-1][2])
print(model.transfer_counts)  # mslab only
try:
    ms.DatasetHelper(line_dataset(), dataset_sink_mode=True)
except RuntimeError:
    print("DatasetHelper(..., dataset_sink_mode=True) raises RuntimeError")

# %% [markdown]
# ## Exercises
#
# 1. **Predict, then run.** `ds.NumpySlicesDataset(np.arange(10), ["x"], shuffle=False).batch(4)`:
#    how many batches, and what is in the last one?
#
#    <details><summary>Solution</summary>
#
#    Three: `[0, 1, 2, 3]`, `[4, 5, 6, 7]` and the short `[8, 9]` (`drop_remainder=False` is the
#    default).
#    </details>
#
# 2. **Change one thing.** Compare `.batch(4, drop_remainder=True).repeat(2)` with
#    `.repeat(2).batch(4)` on the same ten rows. How many batches does each give, and why?
#
#    <details><summary>Solution</summary>
#
#    Four and five. Batching first drops `[8, 9]` and then repeats two full batches; repeating first
#    makes one stream of 20 rows, which batches evenly into five, one of them spanning the two
#    passes (`[8, 9, 0, 1]`). The order of `batch` and `repeat` matters. (MindSpore 2.10 gives the
#    same batches.)
#    </details>
