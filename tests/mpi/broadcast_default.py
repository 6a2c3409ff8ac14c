"""Do differently seeded ranks start equal? (run by tests/communication/test_data_parallel.py)

    mpiexec -n 2 python tests/mpi/broadcast_default.py default     # parameter_broadcast left at False
    mpiexec -n 2 python tests/mpi/broadcast_default.py broadcast   # parameter_broadcast=True

Rank 0 prints whether the ranks' weights are equal after building the training step and after one step.
MindSpore 2.10 broadcasts nothing by default (neither DistributedGradReducer nor TrainOneStepCell does), so
ranks seeded differently stay different; with parameter_broadcast=True they are equal from the first step.
"""
import sys

import numpy as np

import mslab as ms
from mslab import nn, ops
from mslab.communication import get_rank, init

init()
rank = get_rank()
ms.set_seed(rank)
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                             parameter_broadcast=sys.argv[1] == "broadcast")
net = nn.Dense(3, 2)
train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))


def ranks_equal():
    weights = ops.AllGather()(net.weight).asnumpy()  # rank 0's rows, then rank 1's
    return bool(np.array_equal(weights[:2], weights[2:]))


built = ranks_equal()
train(ms.Tensor(np.ones((4, 3), np.float32)), ms.Tensor(np.zeros((4, 2), np.float32)))
stepped = ranks_equal()
if rank == 0:
    print(f"after building: {built}; after one step: {stepped}")
