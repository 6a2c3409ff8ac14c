"""Train a small MLP data-parallel for a few steps and save rank 0's weights
(run by tests/communication/test_data_parallel.py).

    mpiexec -n N python tests/mpi/dp_equivalence.py OUT.npz MODE STEPS   # N ranks, each on its shard
    python tests/mpi/dp_equivalence.py OUT.npz MODE STEPS                # one process, the whole batch

Each rank starts from a different seed: parameter_broadcast=True (rank 0's parameters copied to every rank
before the first step) must make them equal.
The global batch is 12 rows, so 2 or 3 ranks each get an equal slice of every batch.
"""
import sys

import numpy as np

import mslab as ms
from mslab import nn
from mslab.communication import get_group_size, get_rank, init
from mslab.dataset import NumpySlicesDataset

out_path, mode, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
init()
rank, size = get_rank(), get_group_size()
ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
ms.set_seed(rank)
if size > 1:
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                 parameter_broadcast=True)

GLOBAL_BATCH = 12
rng = np.random.default_rng(0)
x = rng.normal(size=(GLOBAL_BATCH * steps, 4)).astype(np.float32)
y = (x @ np.array([[1.0], [-2.0], [0.5], [3.0]], np.float32) + 0.1).astype(np.float32)
data = NumpySlicesDataset((x, y), ["x", "y"], shuffle=False, num_shards=size, shard_id=rank)
data = data.batch(GLOBAL_BATCH // size)

net = nn.SequentialCell([nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 1)])
if size == 1:
    ms.set_seed(0)  # the reference starts where rank 0 starts
    net = nn.SequentialCell([nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 1)])
opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
for xb, yb in data.create_tuple_iterator(num_epochs=1):
    train(xb, yb)
if rank == 0:
    np.savez(out_path, **{p.name: p.asnumpy() for p in net.trainable_params()})
