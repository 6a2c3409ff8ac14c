"""BLAS threads: mslab's own choice at import, the set_context key, and the user's environment winning.

No timings here: benchmarks/threads.py measures what the choice is worth.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import mslab as ms
from mslab.core import threads

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json
import mslab as ms
from mslab.core import threads
print(json.dumps({"context": ms.get_context("runtime_num_threads"), "blas": threads.blas_threads(),
                  "automatic": threads.automatic_count()}))
"""


def probe(**env_vars):
    """``import mslab`` in a fresh interpreter whose thread variables are only ``env_vars``."""
    env = {k: v for k, v in os.environ.items() if k not in threads.USER_VARIABLES}
    env.update(env_vars)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    proc = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture
def restore_threads():
    saved = ms.get_context("runtime_num_threads")
    yield
    if threads.user_setting() is None:
        ms.set_context(runtime_num_threads=saved)


def test_import_chooses_the_count_and_get_context_shows_it():
    seen = probe()
    assert seen["context"] == seen["automatic"] >= 1
    assert seen["blas"] == seen["context"]  # numpy's OpenBLAS really runs that many


@pytest.mark.parametrize("variable", threads.USER_VARIABLES)
def test_the_users_environment_variable_wins(variable):
    wanted = 1 if threads.automatic_count() != 1 else 2  # a count mslab would not choose
    if wanted > (os.cpu_count() or 1):
        pytest.skip("needs 2 CPUs to tell the user's count from mslab's")
    seen = probe(**{variable: str(wanted)})
    assert seen["context"] == wanted
    if variable != "MKL_NUM_THREADS":  # OpenBLAS reads OPENBLAS_ and OMP_NUM_THREADS, not MKL's
        assert seen["blas"] == wanted


def test_set_context_sets_the_pool_and_get_context_reads_it(monkeypatch, restore_threads):
    for name in threads.USER_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    ms.set_context(runtime_num_threads=2)
    assert ms.get_context("runtime_num_threads") == 2
    assert threads.blas_threads() in (2, None)
    ms.set_context(runtime_num_threads=0)  # 0: mslab chooses again
    assert ms.get_context("runtime_num_threads") == threads.automatic_count()


def test_set_context_beside_a_user_variable_warns_and_keeps_the_users_count(monkeypatch, restore_threads):
    before = threads.blas_threads()
    for name in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):  # these would win over OMP_NUM_THREADS
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    with pytest.warns(UserWarning, match="OMP_NUM_THREADS=3 is set in the environment and wins"):
        ms.set_context(runtime_num_threads=1)
    assert ms.get_context("runtime_num_threads") == 3
    assert threads.blas_threads() == before  # the pools are the environment's business: left alone


@pytest.mark.parametrize("value, error", [
    # observed on MindSpore 2.10 CPU: 1.5 and "2" raise TypeError ("must be <class 'int'>"),
    # -1 raises ValueError ("The num of thread must bigger than or equal to 0."); 0 and True are accepted.
    (1.5, TypeError), ("2", TypeError), (None, TypeError), (-1, ValueError),
])
def test_set_context_rejects_what_mindspore_rejects(value, error):
    with pytest.raises(error, match="runtime_num_threads"):
        ms.set_context(runtime_num_threads=value)


@pytest.mark.parametrize("env, expected", [
    ({}, None),
    ({"OMP_NUM_THREADS": "4"}, ("OMP_NUM_THREADS", 4)),
    ({"OMP_NUM_THREADS": "4,2"}, ("OMP_NUM_THREADS", 4)),
    ({"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "4"}, ("OPENBLAS_NUM_THREADS", 1)),
    ({"MKL_NUM_THREADS": "auto"}, ("MKL_NUM_THREADS", None)),
    ({"OMP_NUM_THREADS": " "}, None),
])
def test_user_setting_reads_the_first_variable_set(env, expected):
    assert threads.user_setting(env) == expected


@pytest.mark.parametrize("v2, v1, expected", [
    ("max 100000", None, None),
    ("150000 100000", None, 1.5),
    (None, ("-1", "100000"), None),
    (None, ("200000", "100000"), 2.0),
    (None, None, None),
])
def test_cgroup_cpu_limit_reads_v2_then_v1(tmp_path, v2, v1, expected):
    if v2 is not None:
        (tmp_path / "cpu.max").write_text(v2 + "\n")
    v1_dir = tmp_path / "cpu"
    v1_dir.mkdir()
    if v1 is not None:
        (v1_dir / "cpu.cfs_quota_us").write_text(v1[0] + "\n")
        (v1_dir / "cpu.cfs_period_us").write_text(v1[1] + "\n")
    assert threads.cgroup_cpu_limit(str(tmp_path / "cpu.max"), (str(v1_dir),)) == expected


def test_usable_cpus_takes_the_quota_not_the_host(monkeypatch):
    monkeypatch.setattr(threads, "cgroup_cpu_limit", lambda: 0.5)
    assert threads.usable_cpus() == 1
    monkeypatch.setattr(threads, "cgroup_cpu_limit", lambda: None)
    assert threads.usable_cpus() == len(os.sched_getaffinity(0))


@pytest.mark.parametrize("cpus, count", [(1, 1), (2, 1), (3, 1), (4, 2), (16, 8)])
def test_automatic_count_is_half_the_usable_cpus(cpus, count):
    assert threads.automatic_count(cpus) == count
