"""Every collective's values and gradients on N ranks, in both modes (run by tests/communication/test_data_parallel.py).

    mpiexec -n N python tests/mpi/collectives.py

Rank r holds x_r = r + 1 + [0.0, 0.5, 1.0, 1.5] (2x2 after a reshape) and back-propagates sens w_r = r + 2.
The gradient of a collective is the gradient of the sum of all ranks' outputs times their sens, so for
AllReduce(sum) every rank's dx is sum_r w_r. Prints "ok" on every rank when all hold.
"""
import sys

import numpy as np

import mslab as ms
from mslab import ops
from mslab.communication import get_group_size, get_rank, init
from mslab.ops import ReduceOp

init()
r, n = get_rank(), get_group_size()
xs = [k + 1 + np.arange(4, dtype=np.float32).reshape(2, 2) * 0.5 for k in range(n)]
ws = [np.float32(k + 2) for k in range(n)]
x, w = ms.Tensor(xs[r]), ms.Tensor(np.full((2, 2), ws[r], np.float32))
stack = np.stack(xs)
cases = {  # name: (op, expected output on this rank, expected dx on this rank)
    "sum": (ops.AllReduce(ReduceOp.SUM), stack.sum(0), np.full((2, 2), sum(ws))),
    "max": (ops.AllReduce(ReduceOp.MAX), stack.max(0), np.full((2, 2), sum(ws) * (r == n - 1))),
    "min": (ops.AllReduce(ReduceOp.MIN), stack.min(0), np.full((2, 2), sum(ws) * (r == 0))),
    "prod": (ops.AllReduce(ReduceOp.PROD), stack.prod(0), sum(ws) * stack.prod(0) / xs[r]),
    "gather": (ops.AllGather(), np.concatenate(xs), None),
    "bcast": (ops.Broadcast(0), xs[0], np.full((2, 2), ws[r])),
}
for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    for name, (op, want, dx_want) in cases.items():
        fn = (lambda a, op=op: op((a,))[0]) if name == "bcast" else (lambda a, op=op: op(a))
        got = (ms.jit(fn) if mode == ms.GRAPH_MODE else fn)(x).asnumpy()
        np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=f"{name} on rank {r}")
        if dx_want is not None:
            dx = ops.GradOperation(sens_param=True)(fn)(x, w).asnumpy()
            np.testing.assert_allclose(dx, dx_want, rtol=1e-6, err_msg=f"d {name} on rank {r}")
    # AllGather's gradient is a ReduceScatter: rank r's rows of the sum over ranks of the sens.
    sens = ms.Tensor(np.ones((2 * n, 2), np.float32) * ws[r])
    dx = ops.GradOperation(sens_param=True)(lambda a: ops.AllGather()(a))(x, sens).asnumpy()
    np.testing.assert_allclose(dx, np.full((2, 2), sum(ws)), err_msg=f"d gather on rank {r}")
    rs = ops.ReduceScatter()(ms.Tensor(np.concatenate(xs))).asnumpy()
    np.testing.assert_allclose(rs, n * np.concatenate(xs)[2 * r:2 * r + 2], err_msg=f"reduce_scatter on rank {r}")
sys.stdout.write(f"ok {r}\n")  # one write per rank: the ranks share stdout and must not interleave
sys.stdout.flush()
