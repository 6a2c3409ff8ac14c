"""Data parallel on real MPI ranks: `mpiexec -n N python script.py` from pytest (scripts in tests/mpi/).

The proof of data parallelism: N ranks, each on its shard, with gradients_mean, end with the same
weights as one process on the whole batch (float32 tolerance). Also every collective's values and
gradients on 2 and 3 ranks, and a rank that fails stops the job with a message naming it.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "tests" / "mpi"
MPIEXEC = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or shutil.which("mpiexec")

pytestmark = pytest.mark.skipif(MPIEXEC is None, reason="no mpiexec: install MPI with `pip install mpi4py mpich`")


def run(n, script, *args, timeout=120, **env):
    """Run ``script`` on ``n`` ranks (or one plain process for n=None) with this worktree's mslab."""
    environ = dict(os.environ, PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1", **env)
    cmd = [sys.executable, str(SCRIPTS / script), *map(str, args)]
    if n is not None:
        cmd = [MPIEXEC, "-n", str(n), *cmd]
    return subprocess.run(cmd, env=environ, capture_output=True, text=True, timeout=timeout, cwd=ROOT)


@pytest.mark.parametrize("n,mode", [(2, "graph"), (3, "pynative")])
def test_n_ranks_on_n_shards_train_like_one_process_on_the_whole_batch(n, mode, tmp_path):
    steps = 4
    one = run(None, "dp_equivalence.py", tmp_path / "one.npz", mode, steps)
    assert one.returncode == 0, one.stderr
    many = run(n, "dp_equivalence.py", tmp_path / "many.npz", mode, steps)
    assert many.returncode == 0, many.stderr
    want, got = np.load(tmp_path / "one.npz"), np.load(tmp_path / "many.npz")
    assert sorted(want) == sorted(got)
    for name in want:
        np.testing.assert_allclose(got[name], want[name], rtol=1e-5, atol=1e-6, err_msg=name)


@pytest.mark.parametrize("setting,printed", [
    ("default", "after building: False; after one step: False"),  # MindSpore 2.10: nothing is broadcast
    ("broadcast", "after building: False; after one step: True"),  # parameter_broadcast=True: at the first step
])
def test_ranks_seeded_differently_start_equal_only_with_parameter_broadcast(setting, printed):
    out = run(2, "broadcast_default.py", setting)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == printed


@pytest.mark.parametrize("n", [2, 3])
def test_collectives_values_and_gradients_on_n_ranks(n):
    out = run(n, "collectives.py")
    assert out.returncode == 0, out.stderr
    assert sorted(out.stdout.split()) == sorted(["ok"] * n + [str(r) for r in range(n)]), out.stdout


@pytest.mark.parametrize("how,message", [
    ("raise", "rank 1 of 2 stopped with ValueError: rank 1 cannot read its shard; aborting the other ranks"),
    ("exit", "rank 1 exited while rank 0 waited for it in AllReduce"),
    ("stall", "rank 0 waited more than 2 s (MSLAB_COMM_TIMEOUT) in AllReduce"),
])
def test_a_failing_rank_stops_the_job_with_a_message_naming_it(how, message):
    out = run(2, "failing_rank.py", how, timeout=60, MSLAB_COMM_TIMEOUT="2")
    assert out.returncode != 0
    assert message in out.stderr, out.stderr


def test_seed001_style_example_trains_on_2_ranks_and_rank_0_reports():
    environ = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([MPIEXEC, "-n", "2", sys.executable, str(ROOT / "examples" / "train_dp.py")], env=environ,
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("run distribute!") == 2  # both ranks set up
    last = [line for line in out.stdout.splitlines() if line.startswith("epoch: 3 step: 23,")]
    assert len(last) == 1, out.stdout  # 1497 training digits: 749 a shard, 23 full batches of 32; printed by rank 0
    assert float(last[0].split("loss is ")[1]) < 0.6, out.stdout
