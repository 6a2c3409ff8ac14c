# %% [markdown]
# # 10 · Data parallel training on MPI
#
# When one process is too slow, MindSpore trains **data parallel**: N processes (*ranks*), each with
# a full copy of the network, each reading its own **shard** of the data. After the backward pass
# every rank holds gradients of *its* shard; an **AllReduce** adds them up across the ranks, and
# with `gradients_mean=True` each sum is divided by N. Every rank then applies the same averaged
# update, so the copies stay equal, and the N ranks together train exactly like one process on the
# N shards at once.
#
# MindSpore starts CPU and GPU ranks with MPI (`mpirun -n N python train.py`); mslab does the same
# with MPICH and mpi4py (`mpiexec -n 2 python examples/train_dp.py` runs seed 001's training flow on
# two ranks). A notebook is one process, so here `ipyparallel` starts two MPI ranks as *engines*
# and the notebook sends them code to run.

# %%
import os
import sys

import ipyparallel as ipp
import numpy as np

import mslab as ms
import mslab.dataset as ds
from mslab import nn

ms.set_seed(1)
# MPICH's wheel installs `mpiexec` beside this Python; ipyparallel looks for it on the PATH.
os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]

# %%
# NBVAL_IGNORE_OUTPUT
cluster = ipp.Cluster(engines="mpi", n=2, log_level=40)  # the engines are started by `mpiexec -n 2`
ranks = cluster.start_and_connect_sync()
ranks[:]  # a view of both engines: ranks[:].apply_sync(f) runs f on each and returns their results


# %% [markdown]
# ## Joining the ranks
#
# `init()` joins the processes the launcher started; `get_rank()` and `get_group_size()` tell each
# one who it is. The backend name is the device's (`"hccl"` Ascend, `"nccl"` GPU, `"mccl"` CPU);
# mslab runs each on MPI. Without a launcher (as in this notebook's own process) mslab is one
# process: rank 0 of 1.

# %%
def join():
    from mslab.communication import get_group_size, get_rank, init

    init()
    return get_rank(), get_group_size()


print("engines:", ranks[:].apply_sync(join))
from mslab.communication import get_group_size, get_rank  # noqa: E402

print("this notebook:", (get_rank(), get_group_size()))


# %% [markdown]
# ## Each rank reads its shard
#
# `num_shards`/`shard_id` split a dataset among the ranks as MindSpore's distributed sampler does:
# shard k of K keeps rows k, k+K, k+2K, ...; when the rows do not split evenly the order is padded
# with its first rows, so every rank runs the same number of steps. Shuffling happens before the
# split, with a seed all ranks share, so in every epoch the shards are disjoint.

# %%
def shard_rows():
    import numpy as np

    import mslab.dataset as ds
    from mslab.communication import get_group_size, get_rank

    data = ds.NumpySlicesDataset(np.arange(7), ["x"], shuffle=False, num_shards=get_group_size(),
                                 shard_id=get_rank())
    return [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]


print("7 rows on 2 ranks:", ranks[:].apply_sync(shard_rows))


# %% [markdown]
# ## Gradients before and after the AllReduce
#
# Each rank sets the data-parallel context, builds LeNet5 and wraps it in `TrainOneStepCell`, which
# then creates a `DistributedGradReducer` as MindSpore's does. The reducer only averages gradients:
# it does **not** make the ranks' weights equal. MindSpore 2.10 broadcasts nothing by default
# (`parameter_broadcast` is False), so every rank must *start* from the same weights by itself: here,
# as in MindSpore's own data-parallel examples, every rank sets the same seed before building the
# network. (`set_auto_parallel_context(parameter_broadcast=True)` would instead copy rank 0's
# parameters to every rank before the first step; the last part of this lesson shows why one of the
# two is needed.) Then each rank takes a batch of its shard of the digits and computes its
# gradients, before and after the reducer. (The data seed must be the same on every rank too: the
# shards are cut from one shuffled order, and ranks shuffling differently would read overlapping rows.)

# %%
DIGITS = "digits"  # on MindSpore: the folder you copied mslab's four digit files to (lesson 00)
DIGITS = ds.digits_path()  # mslab only: where mslab keeps them


def build(digits, seed_per_rank=False, broadcast=False):
    """On each rank: the data-parallel context, LeNet5 in a TrainOneStepCell, and this rank's shard."""
    import os

    import numpy as np

    import mslab as ms
    import mslab.dataset as ds
    import mslab.dataset.transforms as transforms
    import mslab.dataset.vision as vision
    from mslab import nn
    from mslab.communication import get_group_size, get_rank

    def read_idx(path):  # lesson 00's reader of MNIST's file format
        with open(path, "rb") as f:
            raw = f.read()
        shape = tuple(int(n) for n in np.frombuffer(raw, ">u4", count=raw[3], offset=4))
        return np.frombuffer(raw, np.uint8, offset=4 + 4 * raw[3]).reshape(shape)

    global net, loss_net, train, data
    rank = get_rank()
    ms.set_seed(100 + rank if seed_per_rank else 100)  # the same starting weights on every rank, unless asked
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                 parameter_broadcast=broadcast)
    net = nn.SequentialCell([nn.Conv2d(1, 6, 5, pad_mode="valid"), nn.ReLU(), nn.MaxPool2d(2, 2),
                             nn.Conv2d(6, 16, 5, pad_mode="valid"), nn.ReLU(), nn.MaxPool2d(2, 2),
                             nn.Flatten(), nn.Dense(400, 120), nn.ReLU(), nn.Dense(120, 84), nn.ReLU(),
                             nn.Dense(84, 10)])
    loss_net = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
    train = nn.TrainOneStepCell(loss_net, nn.Momentum(net.trainable_params(), 0.02, 0.9))
    ms.set_seed(1)  # one data seed on all ranks: their shards are cut from one shuffled order
    images = read_idx(os.path.join(digits, "train-images-idx3-ubyte"))[..., None]
    labels = read_idx(os.path.join(digits, "train-labels-idx1-ubyte"))
    data = ds.NumpySlicesDataset({"image": images, "label": labels}, num_shards=get_group_size(), shard_id=rank)
    data = data.map([vision.Resize((32, 32)), vision.Rescale(1 / 255, 0), vision.Rescale(1 / 0.3081, -0.1307 / 0.3081),
                     vision.HWC2CHW()], "image")  # lesson 00's pipeline
    data = data.map(transforms.TypeCast(ms.int32), "label").batch(32, drop_remainder=True)
    return data.get_dataset_size()


def gradients_before_and_after():
    from mslab import ops

    image, label = next(data.create_tuple_iterator())
    grads = ops.GradOperation(get_by_list=True)(loss_net, train.weights)(image, label)
    reduced = train.grad_reducer(grads)
    return grads[-1].asnumpy(), reduced[-1].asnumpy()  # the last Dense layer's bias: 10 numbers


print("steps per epoch on each rank:", ranks[:].apply_sync(build, DIGITS))
results = ranks[:].apply_sync(gradients_before_and_after)
np.set_printoptions(precision=4, suppress=True)
for rank, (before, after) in enumerate(results):
    print(f"rank {rank} before: {before}\n       after:  {after}")
print("after == mean of the befores:", np.allclose(results[0][1], (results[0][0] + results[1][0]) / 2))

# %% [markdown]
# Before the AllReduce the two ranks disagree (different images); after it both hold the same
# average. That is the whole trick of data parallelism.
#
# ## The AllReduce nodes in the graph
#
# The reducer is part of the training step's graph, one AllReduce per gradient, between the
# backward nodes and the optimizer. Here is the training graph traced in this notebook's process,
# with the same data-parallel context (with one process each AllReduce is the identity). mslab
# draws communication nodes as octagons.

# %%
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
small = nn.Dense(4, 3)
step = nn.TrainOneStepCell(nn.WithLossCell(small, nn.MSELoss()), nn.Momentum(small.trainable_params(), 0.1, 0.9))
x, y = ms.Tensor(np.ones((8, 4), np.float32)), ms.Tensor(np.zeros((8, 3), np.float32))
graph = ms.trace(step, x, y)  # mslab only
print("\n".join(line for line in str(graph).splitlines() if "AllReduce" in line))  # mslab only

# %%
# NBVAL_IGNORE_OUTPUT
# mslab only (the whole cell)
import mslab.viz as viz

viz.training_graph(step, x, y, collapse_depth=None)

# %% [markdown]
# ## Training on both ranks
#
# `Model.train` on each rank, on its shard: 23 steps of 32 images per epoch on each rank (half the
# 1497 training digits each), five epochs. Only rank 0 prints (`LossMonitor` would print on every
# rank). The loss starts near ln 10 = 2.30 (ten digits, equally likely) and falls to about a
# tenth of that within five epochs, as in lesson 00: each step here learns from 64 digits (32 on
# each rank), their gradients averaged by the AllReduce.

# %%
def train_epochs(epochs):
    import numpy as np

    import mslab as ms
    from mslab.communication import get_rank
    from mslab.train import LossMonitor

    model = ms.Model(train)
    model.train(epochs, data, callbacks=[LossMonitor(23)] if get_rank() == 0 else [])
    return np.concatenate([p.asnumpy().ravel() for p in net.trainable_params()])


# NBVAL_IGNORE_OUTPUT
run = ranks[:].apply_async(train_epochs, 5)
weights = run.get()
run.display_outputs()  # what the engines printed: rank 0's LossMonitor

# %%
print("largest difference between the ranks' weights:", float(np.abs(weights[0] - weights[1]).max()))

# %% [markdown]
# The two ranks end with the very same weights: they started equal (one seed) and applied the same
# averaged gradients at every step.
#
# ## When the ranks start apart
#
# Now build again with a different seed on each rank, as if the ranks had not agreed on one. The
# AllReduce still gives both the same *update* at every step, but an update added to different
# weights leaves different weights: the ranks never meet, and each one is now a different network.
# (MindSpore 2.10 behaves the same; nothing warns you.) `parameter_broadcast=True` repairs it: before
# the first step, every rank takes rank 0's parameters.

# %%
for broadcast in (False, True):
    ranks[:].apply_sync(build, DIGITS, seed_per_rank=True, broadcast=broadcast)
    apart = ranks[:].apply_sync(train_epochs, 1)
    print(f"parameter_broadcast={broadcast}: largest difference after one epoch:",
          f"{float(np.abs(apart[0] - apart[1]).max()):.2f}")

# %%
# NBVAL_IGNORE_OUTPUT
cluster.stop_cluster_sync()
ms.reset_auto_parallel_context()

# %% [markdown]
# ## Where next
#
# - `mpiexec -n 2 python examples/train_dp.py`: the same flow as a script, the way seed 001 runs it.
# - `python benchmarks/data_parallel.py`: steps per second on 1 and 2 ranks for the same global batch,
#   the scaling efficiency and how much of each step goes to the AllReduce.
# - A rank that raises stops the others with a message naming it; a collective that waits longer
#   than `MSLAB_COMM_TIMEOUT` seconds stops the job, so a lost rank never leaves the rest hanging.
#
# ## Exercises
#
# 1. **Predict, then run.** Build again with `gradients_mean=False` in `build`. What will
#    `gradients_before_and_after` print for "after", and how does it relate to the befores?
#
#    <details><summary>Solution</summary>
#
#    Without the mean the reducer returns the plain sum of the ranks' gradients: "after" is the sum
#    of the two befores, twice the mean. Training then takes steps twice as large as one process on
#    the whole batch of 64 would (the same as doubling the learning rate).
#    </details>
#
# 2. **Change one thing.** In `build`, give the shards different data seeds: `ms.set_seed(1 + rank)`
#    before the dataset. Print the rows each rank reads in one epoch (as `shard_rows` does). What goes
#    wrong?
#
#    <details><summary>Solution</summary>
#
#    Each rank shuffles the rows in its own order and then keeps every second one of *its* order, so
#    the two shards overlap: some digits are read by both ranks in an epoch and others by neither.
#    Training still runs, but an epoch is no longer one pass over the data. The shuffle seed must be
#    the same on every rank.
#    </details>
#
# 3. **Predict, then run.** In the last part, what difference do you expect with
#    `parameter_broadcast=True` but `seed_per_rank=False`?
#
#    <details><summary>Solution</summary>
#
#    0.0: the ranks start equal anyway (one seed), and copying rank 0's parameters over equal
#    parameters changes nothing.
#    </details>
