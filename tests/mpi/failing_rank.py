"""Rank 1 fails in one of three ways while rank 0 waits in an AllReduce
(run by tests/communication/test_data_parallel.py).

    mpiexec -n 2 python tests/mpi/failing_rank.py raise|exit|stall
"""
import sys
import time

import numpy as np

import mslab as ms
from mslab import ops
from mslab.communication import get_rank, init

init()
if get_rank() == 1:
    how = sys.argv[1]
    if how == "raise":
        raise ValueError("rank 1 cannot read its shard")
    if how == "exit":
        sys.exit(0)
    time.sleep(30)  # stall: rank 0's collective times out first
print("rank", get_rank(), ops.AllReduce()(ms.Tensor(np.ones(3, np.float32))))
