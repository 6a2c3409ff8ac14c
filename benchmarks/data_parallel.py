"""Data parallel on this machine: LeNet5 training steps per second on 1 and 2 MPI ranks, same global batch.

    python benchmarks/data_parallel.py            # launches `mpiexec -n 1` and `mpiexec -n 2` on itself

Each rank trains seed train.md's LeNet5 (GRAPH mode, sparse softmax cross-entropy, Momentum 0.01/0.9)
on its half of a global batch of 256 (1x32x32), with one BLAS thread per rank, and gradients averaged
by DistributedGradReducer's AllReduce. Prints steps/s for each, the scaling efficiency
(steps/s on N ranks / (N x steps/s on 1)) and the share of each step spent waiting in AllReduce.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GLOBAL_BATCH = 256


def worker(steps, warmup):
    import numpy as np

    import mslab as ms
    from mslab import nn
    from mslab.communication import get_group_size, get_rank, init
    from mslab.core import comm

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from lenet_digits import LeNet5

    init()
    rank, size = get_rank(), get_group_size()
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)
    if size > 1:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    rng = np.random.default_rng(rank)
    b = GLOBAL_BATCH // size
    x = ms.Tensor(rng.standard_normal((b, 1, 32, 32), dtype=np.float32))
    y = ms.Tensor(rng.integers(0, 10, b).astype(np.int32))
    for _ in range(warmup):
        train(x, y)
    comm.reset_stats()
    start = time.perf_counter()
    for _ in range(steps):
        train(x, y)
    seconds = time.perf_counter() - start
    if rank == 0:
        print(json.dumps({"ranks": size, "steps_per_s": steps / seconds, "allreduce_s": comm.stats.seconds,
                          "seconds": seconds, "allreduce_calls": comm.stats.calls}))


def launch(n, steps, warmup):
    mpiexec = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or shutil.which("mpiexec")
    if mpiexec is None:
        sys.exit("no mpiexec: install MPI with `pip install mpi4py mpich`")
    env = dict(os.environ, PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    out = subprocess.run([mpiexec, "-n", str(n), sys.executable, __file__, "--worker", "--steps", str(steps),
                          "--warmup", str(warmup)], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=3)
    a = ap.parse_args()
    if a.worker:
        return worker(a.steps, a.warmup)
    print(f"LeNet5, GRAPH mode, global batch {GLOBAL_BATCH}, {a.steps} steps after {a.warmup} warm-up, "
          f"1 BLAS thread per rank, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    one, two = launch(1, a.steps, a.warmup), launch(2, a.steps, a.warmup)
    for r in (one, two):
        share = r["allreduce_s"] / r["seconds"]
        print(f"{r['ranks']} rank{'s' if r['ranks'] > 1 else ' '}: {r['steps_per_s']:6.2f} steps/s  "
              f"({1000 / r['steps_per_s']:6.1f} ms a step; AllReduce {100 * share:4.1f}% of it, "
              f"{r['allreduce_calls'] // a.steps} calls a step)")
    print(f"speed-up {two['steps_per_s'] / one['steps_per_s']:.2f}x, scaling efficiency "
          f"{two['steps_per_s'] / (2 * one['steps_per_s']):.0%}")


if __name__ == "__main__":
    main()
