"""How many threads numpy's BLAS (and any OpenMP runtime) may use: chosen once, when mslab is imported.

Mirrors MindSpore's ``set_context(runtime_num_threads=n)`` ("the thread pool number of cpu kernel used in
runtime"); ``get_context("runtime_num_threads")`` reads the count in effect.

Why mslab chooses at all: numpy's OpenBLAS starts one thread per core of the *host*, and a matrix product
split over all of them waits for whichever thread lost its core to another process, while the idle ones
spin. Beside one busy process on a shared 2-core machine, a LeNet step took 192-413 ms with numpy's
default and 16-18 ms with one thread (``benchmarks/threads.py``). Learners meet exactly this on shared
JupyterHub servers and on laptops with a browser open, so mslab takes

    count = max(1, usable_cpus // 2)

where ``usable_cpus`` is what the process may really run on: its CPU affinity (``os.sched_getaffinity``),
capped by a cgroup CPU quota (``cpu.max`` on cgroup v2, ``cpu.cfs_quota_us / cpu.cfs_period_us`` on v1),
never the host's core count. Half leaves room for the neighbour; on 2 cores it is one thread.

The count is global, not per product size, because that is what measured best: the LeNet step gained
about 10% from a second thread on a quiet machine, and a large product (1024x1024) that runs twice as
fast on two threads when the machine is quiet runs about twice as slow on them beside a busy process.
Switching per size would buy the small quiet-machine gain with the stall this module exists to avoid.

Whoever sets ``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS`` or ``MKL_NUM_THREADS`` wins: mslab then leaves
the thread pools exactly as the libraries configured them from that variable.
"""
import math
import os
import warnings

import threadpoolctl

USER_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
KEY = "runtime_num_threads"

# cgroup quota files, as seen from inside the process's own cgroup namespace (containers, JupyterHub pods).
CGROUP_V2_MAX = "/sys/fs/cgroup/cpu.max"
CGROUP_V1_DIRS = ("/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct")


def user_setting(environ=None):
    """``(name, count)`` of the first of ``USER_VARIABLES`` the user set, or None.

    ``count`` is the leading number (``OMP_NUM_THREADS="4,2"`` means 4 at the outer level), or None when
    the value is not a number the libraries would read as one.
    """
    environ = os.environ if environ is None else environ
    for name in USER_VARIABLES:
        value = environ.get(name, "").strip()
        if value:
            head = value.split(",")[0].strip()
            return name, int(head) if head.isdigit() and int(head) > 0 else None
    return None


def _read(path):
    try:
        with open(path) as f:
            return f.read().split()
    except OSError:
        return None


def cgroup_cpu_limit(v2_max=CGROUP_V2_MAX, v1_dirs=CGROUP_V1_DIRS):
    """The CPU quota of this process's cgroup as a number of CPUs (a float), or None when unlimited.

    cgroup v2 writes ``"<quota> <period>"`` (or ``"max <period>"``) in ``cpu.max``; v1 has
    ``cpu.cfs_quota_us`` (-1 when unlimited) beside ``cpu.cfs_period_us``. Both in microseconds.
    """
    fields = _read(v2_max)
    if fields and len(fields) == 2 and fields[0] != "max":
        quota, period = fields
    else:
        quota = period = None
        for d in v1_dirs:
            q, p = _read(os.path.join(d, "cpu.cfs_quota_us")), _read(os.path.join(d, "cpu.cfs_period_us"))
            if q and p:
                quota, period = q[0], p[0]
                break
    try:
        quota, period = int(quota), int(period)
    except (TypeError, ValueError):
        return None
    return quota / period if quota > 0 and period > 0 else None


def usable_cpus():
    """How many CPUs this process may run on: its affinity, capped by the cgroup quota (at least 1)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # macOS and Windows have no affinity call
        cpus = os.cpu_count() or 1
    limit = cgroup_cpu_limit()
    if limit is not None:
        cpus = min(cpus, math.ceil(limit))
    return max(1, cpus)


def automatic_count(cpus=None):
    """mslab's own choice: half of the usable CPUs, at least one (see the module docstring)."""
    return max(1, (usable_cpus() if cpus is None else cpus) // 2)


def check_count(value):
    """Validate a ``runtime_num_threads`` value as MindSpore does: an int (bool counts), at least 0."""
    if not isinstance(value, int):
        # MindSpore 2.10: TypeError "The parameter 'runtime_num_threads' must be <class 'int'>, but got ..."
        raise TypeError(f"set_context: {KEY} must be an int (a thread count; 0 lets mslab choose), "
                        f"got {type(value).__name__} {value!r}")
    if value < 0:
        # MindSpore 2.10: ValueError "The num of thread must bigger than or equal to 0."
        raise ValueError(f"set_context: {KEY} must be >= 0 (0 lets mslab choose), got {value}")
    return int(value)


def blas_threads():
    """The thread count numpy's BLAS reports now (threadpoolctl), or None when no BLAS it knows is loaded."""
    info = threadpoolctl.threadpool_info()
    counts = [i["num_threads"] for i in info if i.get("user_api") == "blas"]
    return counts[0] if counts else None


def set_count(value):
    """Apply a ``runtime_num_threads`` value and return the count in effect.

    0 means: let mslab choose (``automatic_count``). A thread-count variable in the environment wins over
    both; asking for another count then warns and changes nothing.
    """
    value = check_count(value)
    user = user_setting()
    if user is not None:
        name, count = user
        count = count if count is not None else blas_threads()
        if value and value != count:
            warnings.warn(f"set_context: {name}={os.environ[name]} is set in the environment and wins over "
                          f"{KEY}={value}; unset it to let mslab set the thread count.", stacklevel=3)
        return count
    count = value or automatic_count()
    # Every pool threadpoolctl finds among the loaded libraries: numpy's BLAS, and OpenMP if one is loaded.
    threadpoolctl.threadpool_limits(limits=count)
    return count
