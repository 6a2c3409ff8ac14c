"""What a learner waits for and what a step holds in memory (issue #16): StepThrough and peak memory.

* ``stepthrough(which, mode)``: seconds to create a ``TrainStepSession`` on a fresh training Cell (GRAPH
  mode compiles it) and the slowest ``next_stage`` advance through one step, measured from Python (no
  browser, no widget): the engine's share of what the step-through view shows. A session keeps every value
  of the step it shows (about 160 MB on the CNN), and the graph it holds is full of reference cycles: the
  previous repeat's session is dropped and collected before the next one is timed, as a learner who makes one
  session has no other in memory (left waiting for the cycle collector, it made the next session's fresh
  memory fault in page by page: 0.38 s instead of 0.15 s on the CNN, PYNATIVE).
* ``peak_memory(framework, mode)``: 100 LeNet5 steps at batch 128 in a fresh interpreter; returns the
  tracemalloc peak (numpy's buffers are traced; PyTorch's are not, so its figure is RSS only) and the
  growth of the process's peak resident set (VmHWM) over what it held before the first step.
"""
import gc
import json
import os
import subprocess
import sys
import time

import deep_nets
import nets
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _train_cell(which):
    if which == "cnn":
        return deep_nets.ms_train_cell("mslab", "cnn")
    return nets.ms_lenet_train_cell("mslab")


def stepthrough(which, mode, repeats=3):
    """``(create seconds, slowest stage advance seconds, stage count)``: medians over ``repeats`` fresh sessions."""
    import mslab
    from mslab.lab.stepping import TrainStepSession

    mode_id = mslab.GRAPH_MODE if mode == "graph" else mslab.PYNATIVE_MODE
    mslab.set_context(mode=mode_id)
    creates, slowest = [], []
    try:
        for _ in range(repeats):
            s = None
            gc.collect()
            train, inputs = _train_cell(which)
            t0 = time.perf_counter()
            s = TrainStepSession(train, *inputs, mode=mode_id)
            creates.append(time.perf_counter() - t0)
            worst, n = 0.0, 0
            while not s.done:
                t0 = time.perf_counter()
                s.next_stage()
                worst = max(worst, time.perf_counter() - t0)
                n += 1
            slowest.append(worst)
    finally:
        mslab.set_context(mode=mslab.PYNATIVE_MODE)
    return float(np.median(creates)), float(np.median(slowest)), n


_MEMORY = r"""
import json, sys, tracemalloc
sys.path[:0] = [{here!r}, {root!r}]
import deep_nets

def status(field):  # VmRSS now, VmHWM the peak: this process's own (getrusage's peak survives fork and exec)
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith(field + ":"))

framework, mode = {framework!r}, {mode!r}
if framework == "torch":
    import torch
    torch.set_num_threads(1)
    step = deep_nets.torch_step("lenet128")
else:
    step, _ = deep_nets.ms_step("mslab", "lenet128", mode)
# Measured from before the first step, so buffers a framework allocates once and keeps (mslab's convolution
# scratch, PyTorch's caches) count; the first step also compiles in GRAPH mode.
before = status("VmRSS")
tracemalloc.start()
for _ in range(100):
    step()
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
maxrss = status("VmHWM")
print(json.dumps({{"traced": peak, "rss_growth": max(maxrss - before, 0), "rss_peak": maxrss}}))
"""


def peak_memory(framework, mode="graph"):
    """``{"traced", "rss_growth", "rss_peak"}`` in bytes for 100 LeNet5 batch-128 steps in a fresh interpreter."""
    code = _MEMORY.format(here=HERE, root=ROOT, framework=framework, mode=mode)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        raise RuntimeError(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}")
    return json.loads(r.stdout.strip().splitlines()[-1])


_THREADS = r"""
import json, sys, time
sys.path[:0] = [{here!r}, {root!r}]
import numpy as np
import deep_nets

entries = {{"graph": deep_nets.ms_step("mslab", "cnn", "graph")[0]}}
if {torch!r}:
    import torch
    torch.set_num_threads({threads})
    entries["torch"] = deep_nets.torch_step("cnn")
for step in entries.values():
    step(), step()
samples = {{k: [] for k in entries}}
for _ in range({repeats}):
    for k, step in entries.items():  # the frameworks take turns
        t0 = time.perf_counter()
        step()
        samples[k].append(time.perf_counter() - t0)
print(json.dumps({{k: float(np.median(v)) for k, v in samples.items()}}))
"""


def blas_thread_gain(with_torch, repeats=7):
    """How much faster the CNN's GRAPH step (and PyTorch's) runs with 2 BLAS threads than with 1: ``{name: t1 / t2}``.

    Each count runs in a fresh interpreter, since OpenBLAS reads OPENBLAS_NUM_THREADS when numpy loads it
    (an explicit count always wins over mslab's own choice)."""
    times = {}
    for n in (1, 2):
        env = dict(os.environ, **{k: str(n) for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")})
        code = _THREADS.format(here=HERE, root=ROOT, torch=with_torch, threads=n, repeats=repeats)
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env)
        if r.returncode != 0:
            raise RuntimeError(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}")
        times[n] = json.loads(r.stdout.strip().splitlines()[-1])
    return {k: times[1][k] / times[2][k] for k in times[1]}
