"""BLAS threads on an idle and on a busy machine: mslab's own choice against numpy's default and fixed counts.

    python benchmarks/threads.py            # about three minutes on 2 cores
    python benchmarks/threads.py --quick    # fewer repeats

Workloads: lesson 00's training (LeNet-5 on the shipped digits, ``Model.train`` for two epochs in GRAPH
mode, as notebooks/00_welcome.ipynb runs it, without the live plot), the LeNet step of ``make bench``
(benchmarks/nets.py), and one large float32 matrix product (to show what more threads buy where they
can). Each runs with every thread count from 1 to the usable CPUs, numpy's default (what OpenBLAS
starts with) and mslab's choice, on the machine as it is ("idle") and beside a synthetic busy
process: ``--burners`` Python processes this script starts, each spinning on one core for at most
``--burn-limit`` seconds, and stops when each busy half ends. The counts take turns within each repeat
(``set_context(runtime_num_threads=n)``), and the idle and busy halves alternate within each repeat;
every figure is a median.

Targets (issue 17): with mslab's choice the busy time stays within 2x of the idle time, and on the idle
machine mslab's choice is at most 10% slower than the best fixed count.

The user's OPENBLAS/OMP/MKL_NUM_THREADS would fix the count for the whole run (and so win over
``set_context``), so this script unsets them for itself, as it does OPENBLAS_CORETYPE and
OPENBLAS_L2_SIZE (which slow a current numpy down; see benchmarks/bench.py).
"""
import argparse
import os
import subprocess
import sys
import time

# All before numpy (and so OpenBLAS) is loaded: it reads them once, when it starts.
UNSET = {k: os.environ.pop(k) for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                                        "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE") if k in os.environ}

import numpy as np  # noqa: E402
import threadpoolctl  # noqa: E402

# What OpenBLAS started with, read before anything imports mslab (which sets its own count).
NUMPY_DEFAULT = next(i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import bench  # noqa: E402
import nets  # noqa: E402
from lenet_digits import LeNet5  # noqa: E402  (lesson 00's LeNet5: Flatten, MindSpore's default inits)

import mslab as ms  # noqa: E402
import mslab.dataset as ds  # noqa: E402
from mslab import nn  # noqa: E402
from mslab.core import threads  # noqa: E402
from mslab.dataset import transforms, vision  # noqa: E402

MSLAB_CHOICE = ms.get_context("runtime_num_threads")
BURN = "import time\nend = time.monotonic() + {s}\nwhile time.monotonic() < end:\n    pass\n"


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeats", type=int, default=5, help="timed repeats per workload and count (median)")
    p.add_argument("--quick", action="store_true", help="3 repeats, no large matrix product")
    p.add_argument("--burners", type=int, default=1, help="busy processes beside the busy half")
    p.add_argument("--burn-limit", type=float, default=600, help="seconds after which a burner stops by itself")
    return p.parse_args(argv)


# ---- workloads: each returns a step() that does one unit of work ---------------------------------------------
def lesson00_training():
    """Lesson 00's pipeline, LeNet5, loss and optimizer; one step() is ``model.train(2, ds_train)``."""
    def create_dataset(usage="train", batch_size=32):
        data = ds.MnistDataset(ds.digits_path(), usage=usage)
        data = data.map(operations=transforms.TypeCast(ms.int32), input_columns="label")
        data = data.map(operations=[vision.Resize((32, 32)), vision.Rescale(1.0 / 255.0, 0.0),
                                    vision.Rescale(1 / 0.3081, -0.1307 / 0.3081), vision.HWC2CHW()],
                        input_columns="image")
        if usage == "train":
            data = data.shuffle(buffer_size=1000)
        return data.batch(batch_size, drop_remainder=True)

    ms.set_context(mode=ms.GRAPH_MODE)
    network = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = ms.Model(network, loss, nn.Momentum(network.trainable_params(), learning_rate=0.01, momentum=0.9))
    ds_train = create_dataset("train")
    return lambda: model.train(2, ds_train)


def lenet_step():
    return nets.ms_step("mslab", "lenet", "graph")[0]


def large_matmul(n=1024):
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((n, n), dtype=np.float32), rng.standard_normal((n, n), dtype=np.float32)
    return lambda: a @ b


# ---- measuring ------------------------------------------------------------------------------------------------
def seconds_per_call(step, block_s=0.2):
    """Mean seconds of ``step()`` over a block of at least ``block_s`` seconds (and at least one call)."""
    calls, t0 = 0, time.perf_counter()
    while True:
        step()
        calls += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= block_s:
            return elapsed / calls


def burners(how_many, limit):
    procs = [subprocess.Popen([sys.executable, "-c", BURN.format(s=limit)]) for _ in range(how_many)]
    time.sleep(0.5)  # let them take their cores
    return procs


def stop(procs):
    for p in procs:
        p.kill()
        p.wait()


def measure(workloads, counts, reps, args):
    """{(condition, workload): {count: median seconds}}, and the load average at each busy/idle start.

    The idle and busy halves alternate within each repeat, and the counts take turns within each half,
    so a change in the rest of the machine's load reaches every figure alike.
    """
    for _, step in workloads:
        for count in counts:  # warm-up: compile, fill caches, start the BLAS threads
            ms.set_context(runtime_num_threads=count)
            step()
    samples, loads = {}, {"idle": [], "busy": []}
    for rep in range(reps):
        for condition in ("idle", "busy"):
            print(f"repeat {rep + 1}/{reps}, {condition} ...", file=sys.stderr, flush=True)
            loads[condition].append(os.getloadavg()[0])
            procs = burners(args.burners, args.burn_limit) if condition == "busy" else []
            try:
                for name, step in workloads:
                    for count in counts:
                        ms.set_context(runtime_num_threads=count)
                        samples.setdefault((condition, name), {}).setdefault(count, []).append(
                            seconds_per_call(step))
            finally:
                stop(procs)
    ms.set_context(runtime_num_threads=0)
    medians = {key: {c: float(np.median(v)) for c, v in by_count.items()} for key, by_count in samples.items()}
    return medians, {k: float(np.median(v)) for k, v in loads.items()}


def label(count):
    notes = [n for n, c in (("mslab's choice", MSLAB_CHOICE), ("numpy's default", NUMPY_DEFAULT)) if c == count]
    return f"{count} thread{'s' if count != 1 else ''}" + (f" ({', '.join(notes)})" if notes else "")


def main(args):
    cpus = threads.usable_cpus()
    counts = sorted(set(range(1, cpus + 1)) | {NUMPY_DEFAULT, MSLAB_CHOICE})
    reps = 3 if args.quick else args.repeats
    workloads = [("lesson 00 training (Model.train, 2 epochs)", lesson00_training()),
                 ("LeNet5 step (batch 32, GRAPH)", lenet_step())]
    if not args.quick:
        workloads.append(("1024x1024 float32 matmul", large_matmul()))
    results, loads = measure(workloads, counts, reps, args)
    report(results, loads, workloads, counts, cpus, reps, args)
    return 0 if targets_met(results, workloads[:2]) else 1


def targets_met(results, workloads):
    ok = True
    for name, _ in workloads:
        idle, busy = results["idle", name], results["busy", name]
        ratio, vs_best = busy[MSLAB_CHOICE] / idle[MSLAB_CHOICE], idle[MSLAB_CHOICE] / min(idle.values())
        met = ratio <= 2.0 and vs_best <= 1.10
        ok &= met
        print(f"- {name}: mslab's choice busy/idle {ratio:.2f}x (target <= 2x), idle against the best fixed "
              f"count {vs_best:.2f}x (target <= 1.10x): {'met' if met else 'NOT met'}")
    return ok


def report(results, loads, workloads, counts, cpus, reps, args):
    print(f"| workload | threads | idle | beside {args.burners} busy process{'es' if args.burners > 1 else ''} "
          "| busy / idle |")
    print("|---|---|---|---|---|")
    for name, _ in workloads:
        idle, busy = results["idle", name], results["busy", name]
        for c in counts:
            print(f"| {name} | {label(c)} | {bench.fmt_time(idle[c])} | {bench.fmt_time(busy[c])} "
                  f"| {busy[c] / idle[c]:.2f}x |")
    print()
    print("- Machine: " + "; ".join(bench.machine()) + f"; {cpus} usable CPUs (affinity "
          f"{len(os.sched_getaffinity(0))}, cgroup quota {threads.cgroup_cpu_limit() or 'none'}).")
    print(f"- Load average (1 min, median over the repeats) when a half began: idle {loads['idle']:.1f}, "
          f"busy {loads['busy']:.1f}; it counts this script and, lagging, its burners.")
    print(f"- Medians of {reps} repeats after a warm-up, each a block of at least 0.2 s; idle and busy halves "
          "alternate within a repeat, the thread counts take turns within a half.")
    if UNSET:
        print("- Unset for this run: " + ", ".join(f"{k}={v}" for k, v in UNSET.items()) + ".")


if __name__ == "__main__":
    sys.exit(main(parse_args()))
