"""A/B between two checkouts of mslab: one workload's step time, in alternating fresh interpreters.

A change worth 1-3% of a step drowns in the noise of a shared machine unless the two versions take turns.
This runs the same workload from two trees (say a `git worktree` of main and your working tree), one fresh
interpreter at a time, alternating which goes first, and prints each tree's median and the ratio.

    git worktree add ../old main
    python benchmarks/ab_trees.py ../old . mlp200 --mode pynative --rounds 6

Workloads are those of ``nets.py`` (linear, lenet) and ``deep_nets.py`` (cnn, lenet128, mlp200). Each process
pins one BLAS thread and unsets OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE, as ``bench.py`` does.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

CHILD = r"""
import json, sys, time
sys.path[:0] = [{root!r}, {root!r} + "/benchmarks"]
import deep_nets, nets
import mslab
assert mslab.__file__.startswith({root!r}), mslab.__file__  # the tree under test, not an installed copy
module = nets if {which!r} in ("linear", "lenet") else deep_nets
step, _ = module.ms_step("mslab", {which!r}, {mode!r})
step()
t0 = time.perf_counter()
n = 0
while time.perf_counter() - t0 < 0.2:  # enough steps for a 0.2 s block
    step()
    n += 1
times = []
for _ in range(5):
    t = time.perf_counter()
    for _ in range(n):
        step()
    times.append((time.perf_counter() - t) / n)
print(json.dumps(sorted(times)[2]))
"""


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("old", help="root of the first tree (the baseline)")
    p.add_argument("new", help="root of the second tree")
    p.add_argument("workload", choices=["linear", "lenet", "cnn", "lenet128", "mlp200"])
    p.add_argument("--mode", choices=["pynative", "graph"], default="pynative")
    p.add_argument("--rounds", type=int, default=6, help="fresh interpreters per tree")
    a = p.parse_args(argv)
    roots = [os.path.abspath(a.old), os.path.abspath(a.new)]
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    times = {r: [] for r in roots}
    for i in range(a.rounds):
        for root in roots if i % 2 == 0 else roots[::-1]:  # each tree goes first half of the time
            code = CHILD.format(root=root, which=a.workload, mode=a.mode)
            r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=root)
            if r.returncode != 0:
                sys.exit(f"{root}: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else r.returncode}")
            times[root].append(json.loads(r.stdout.strip().splitlines()[-1]))
    old, new = (statistics.median(times[r]) for r in roots)
    for root, label in zip(roots, ("old", "new")):
        print(f"{label} {root}: median {statistics.median(times[root]) * 1e3:.4f} ms "
              f"({', '.join(f'{t * 1e3:.3f}' for t in times[root])})")
    print(f"new / old = {new / old:.3f}")


if __name__ == "__main__":
    main()
