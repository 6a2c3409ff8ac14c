"""The process group under the collectives: MPI's COMM_WORLD when ``mpiexec`` started us, else one process.

``mpiexec -n N python train.py`` starts N copies of the script; each learns its rank from the
launcher's environment (MPICH sets ``PMI_RANK``/``PMI_SIZE``, Open MPI ``OMPI_COMM_WORLD_*``).
:func:`start` (called by ``mslab.communication.init``) joins them through mpi4py; until then, and
without a launcher, this is rank 0 of a group of 1 and every collective is the identity.

A collective waits for every rank. So that one rank's failure never leaves the others waiting for
ever: an uncaught exception on any rank aborts the whole job (after printing which rank failed),
a rank that exits tells the others it left, and a collective that waits longer than
``MSLAB_COMM_TIMEOUT`` seconds (default 300) aborts the job naming the rank that timed out.
"""
import atexit
import os
import sys
import time

import numpy as np

LAUNCHER_VARS = ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "PMIX_RANK")
_LEFT_TAG = 31001  # the message a rank sends the others when its process ends
_GRACE = 1.0  # seconds a collective may still finish after another rank said goodbye


class _World:
    comm = None  # mpi4py's COMM_WORLD once started with more than one rank
    rank = 0
    size = 1
    MPI = None
    blas_limit = None  # threadpoolctl's limit on BLAS threads while ranks share the machine


def launched():
    """True when an MPI launcher (mpiexec/mpirun) started this process."""
    return any(v in os.environ for v in LAUNCHER_VARS)


def rank():
    return _World.rank


def size():
    return _World.size


def started():
    return _World.comm is not None


def start():
    """Join the ranks that mpiexec started (a no-op without a launcher, or when already joined)."""
    if _World.comm is not None or not launched():
        return
    try:
        from mpi4py import MPI  # optional: only a launched process needs it
    except ImportError as e:
        raise RuntimeError("mslab.communication.init: this process was started by an MPI launcher but mpi4py "
                           "is not installed; install it with `pip install mpi4py mpich`") from e
    comm = MPI.COMM_WORLD
    if comm.Get_size() == 1:
        return
    _World.comm, _World.MPI = comm, MPI
    _World.rank, _World.size = comm.Get_rank(), comm.Get_size()
    _share_cores(comm.Split_type(MPI.COMM_TYPE_SHARED).Get_size())
    sys.excepthook = _abort_on_exception(sys.excepthook)
    atexit.register(_say_goodbye)


def _share_cores(local_ranks):
    """Give each rank on this machine its share of the cores for BLAS threads.

    Without this every rank starts one BLAS thread per core, and N ranks on N cores run N*N threads
    that take turns: LeNet's data-parallel step on 2 ranks ran 20x slower (40 ms -> 800 ms).
    """
    try:
        from threadpoolctl import threadpool_limits  # optional: without it BLAS keeps its own setting
    except ImportError:
        return
    _World.blas_limit = threadpool_limits(max(1, (os.cpu_count() or 1) // local_ranks), user_api="blas")


def stop():
    """Leave the group (``release()``): later collectives act on this process alone."""
    _World.comm = None
    _World.rank, _World.size = 0, 1


def abort(message):
    """Print ``message`` and end every rank of the job (MPI_Abort); never returns."""
    print(f"mslab: {message}", file=sys.stderr, flush=True)
    time.sleep(0.5)  # let the launcher pass the message on before it tears the job down
    _World.comm.Abort(1)
    os._exit(1)  # MPICH's Abort can return before the launcher ends this process


def _abort_on_exception(previous):
    def hook(kind, value, tb):
        previous(kind, value, tb)
        if _World.comm is not None:
            abort(f"rank {_World.rank} of {_World.size} stopped with {kind.__name__}: {value}; "
                  f"aborting the other ranks")
    return hook


def _say_goodbye():
    """At exit: tell every other rank this one is leaving, and collect their goodbyes.

    A rank still waiting in a collective sees the goodbye and stops (see :func:`_wait`). At a normal
    end every rank leaves, so every goodbye is received and MPI finalises with no message pending.
    """
    comm, MPI = _World.comm, _World.MPI
    if comm is None:
        return
    others = [r for r in range(_World.size) if r != _World.rank]
    sends = [comm.Isend(np.zeros(1, np.int8), dest=r, tag=_LEFT_TAG) for r in others]
    box = np.zeros(1, np.int8)
    deadline = time.monotonic() + _GRACE * 5
    pending = set(others)
    while pending and time.monotonic() < deadline:
        status = MPI.Status()
        if comm.Iprobe(source=MPI.ANY_SOURCE, tag=_LEFT_TAG, status=status):
            comm.Recv(box, source=status.Get_source(), tag=_LEFT_TAG)
            pending.discard(status.Get_source())
        else:
            time.sleep(0.001)
    if pending:  # a rank is still busy (it will time out or be aborted): do not wait in MPI_Finalize
        os._exit(0)
    MPI.Request.Waitall(sends)


def _timeout():
    return float(os.environ.get("MSLAB_COMM_TIMEOUT", "300"))


class stats:
    """Time this rank spent in collectives (waiting included) since the last :func:`reset_stats`."""

    calls = 0
    seconds = 0.0


def reset_stats():
    stats.calls, stats.seconds = 0, 0.0


def _wait(request, what):
    """Wait for a non-blocking collective, watching for ranks that left and for the timeout."""
    start = time.perf_counter()
    try:
        _wait_for(request, what)
    finally:
        stats.calls += 1
        stats.seconds += time.perf_counter() - start


def _wait_for(request, what):
    deadline = time.monotonic() + _timeout()
    spins, gone_at = 0, None
    while not request.Test():
        spins += 1
        if spins % 200:
            if spins > 1000:  # a short spin keeps fast collectives fast; then yield the core
                time.sleep(0.0005)
            continue
        status = _World.MPI.Status()
        if _World.comm.Iprobe(source=_World.MPI.ANY_SOURCE, tag=_LEFT_TAG, status=status):
            # A rank that did its part of this collective may leave before its data has arrived here:
            # only a collective still unfinished a moment after the goodbye waits for a rank that is gone.
            gone_at = gone_at or time.monotonic()
            if time.monotonic() - gone_at > _GRACE:
                abort(f"rank {status.Get_source()} exited while rank {_World.rank} waited for it in {what}")
        if time.monotonic() > deadline:
            abort(f"rank {_World.rank} waited more than {_timeout():g} s (MSLAB_COMM_TIMEOUT) in {what}: "
                  f"another rank stopped or is stuck")


_MPI_OPS = {"sum": "SUM", "max": "MAX", "min": "MIN", "prod": "PROD"}


def _buffer(x):
    # MPI has no float16 type: reduce in float32 and cast back. (ascontiguousarray makes a 0-d array 1-d: reshape.)
    return np.ascontiguousarray(x, np.float32 if x.dtype == np.float16 else x.dtype).reshape(np.shape(x))


def allreduce(x, op="sum", what="AllReduce"):
    """Element-wise ``op`` (sum, max, min, prod) of ``x`` over all ranks, on every rank."""
    if _World.comm is None:
        return np.array(x, copy=True)
    buf = _buffer(x)
    out = np.empty_like(buf)
    _wait(_World.comm.Iallreduce(buf, out, op=getattr(_World.MPI, _MPI_OPS[op])), what)
    return out.astype(x.dtype, copy=False)


def allgather(x, what="AllGather"):
    """Every rank's ``x`` stacked along axis 0, in rank order."""
    if _World.comm is None:
        return np.array(x, copy=True)
    buf = _buffer(x)
    out = np.empty((_World.size * buf.shape[0],) + buf.shape[1:], buf.dtype)
    _wait(_World.comm.Iallgather(buf, out), what)
    return out.astype(x.dtype, copy=False)


def reduce_scatter(x, op="sum", what="ReduceScatter"):
    """The ``op`` of ``x`` over all ranks, split along axis 0: rank r keeps the r-th block."""
    if _World.comm is None:
        return np.array(x, copy=True)
    buf = _buffer(x)
    out = np.empty((buf.shape[0] // _World.size,) + buf.shape[1:], buf.dtype)
    _wait(_World.comm.Ireduce_scatter_block(buf, out, op=getattr(_World.MPI, _MPI_OPS[op])), what)
    return out.astype(x.dtype, copy=False)


def broadcast(x, root=0, what="Broadcast"):
    """Rank ``root``'s ``x`` on every rank."""
    if _World.comm is None:
        return np.array(x, copy=True)
    buf = _buffer(x).copy()
    _wait(_World.comm.Ibcast(buf, root=root), what)
    return buf.astype(x.dtype, copy=False)
