"""Process-group set-up and queries (``mindspore.communication.management``), on MPI.

Launched with ``mpiexec -n N python train.py``, ``init()`` joins the N processes through mpi4py and
``get_rank()``/``get_group_size()`` are this process's rank and N. Without a launcher mslab is one
process: rank 0 of a group of 1, and every collective returns its input.
"""
from mslab.core import comm

# MindSpore's backends (observed on MindSpore 2.10): HCCL for Ascend, NCCL for GPU, MCCL for CPU.
# mslab runs every one of them on MPI, so code written for any device runs unchanged.
_WORLD_GROUPS = {"hccl": "hccl_world_group", "nccl": "nccl_world_group", "mccl": "mccl_world_group"}
HCCL_WORLD_COMM_GROUP = _WORLD_GROUPS["hccl"]
NCCL_WORLD_COMM_GROUP = _WORLD_GROUPS["nccl"]
MCCL_WORLD_COMM_GROUP = _WORLD_GROUPS["mccl"]


class GlobalComm:
    """Names MindSpore code reads: the backend and the world group's name (MindSpore's defaults)."""

    BACKEND = "hccl"
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False


def init(backend_name=None):
    """Join the processes mpiexec started (``init("hccl" | "nccl" | "mccl")``; None picks "hccl").

    The errors for a bad backend name are MindSpore's (observed on MindSpore 2.10).
    """
    if backend_name is None:
        backend_name = "hccl"
    if not isinstance(backend_name, str):
        raise TypeError(f"For 'init', the argument 'backend_name' must be a string, but got the type : "
                        f"{type(backend_name)}")
    if backend_name not in _WORLD_GROUPS:
        raise RuntimeError(f"For 'init', the argument 'backend_name' must be one of 'hccl', 'nccl' and 'mccl', "
                           f"but got 'backend_name' : {backend_name}")
    comm.start()
    GlobalComm.BACKEND = backend_name
    GlobalComm.WORLD_COMM_GROUP = _WORLD_GROUPS[backend_name]
    GlobalComm.INITED = True


def release():
    """Leave the process group; this process is then rank 0 of 1 again."""
    comm.stop()
    GlobalComm.INITED = False


# groups made by create_group over every rank: other names for the world group
_USER_GROUPS = {}


def create_group(group, rank_ids, options=None):
    """Name a group of ranks (``create_group("g", [0, 1])``); mslab offers groups of every rank only.

    Before ``init()`` this is MindSpore 2.10's RuntimeError (observed on CPU). mslab's world is one MPI
    communicator, so a group must hold every rank once; then ``group`` names the world group.
    """
    del options  # backend options (HCCL buffer sizes): nothing to tune on MPI
    if not GlobalComm.INITED:
        raise RuntimeError("Distributed Communication has not been inited.You can't invoke this interface yet. "
                           "Please call `init()` method first.")
    if not isinstance(group, str):
        raise TypeError(f"For 'create_group', the argument 'group' must be a str, but got {type(group).__name__}")
    if not isinstance(rank_ids, (list, tuple)) or sorted(rank_ids) != list(range(comm.size())):
        raise ValueError(f"create_group({group!r}): mslab offers only groups of every rank "
                         f"{list(range(comm.size()))}, got rank_ids {rank_ids!r}")
    _USER_GROUPS[group] = list(rank_ids)


def _check_group(group):
    if group is not None and group not in _WORLD_GROUPS.values() and group not in _USER_GROUPS:
        raise ValueError(f"mslab has only the world group ({GlobalComm.WORLD_COMM_GROUP!r}), got group {group!r}")


def get_rank(group=None):
    """This process's rank in the world group: 0 .. get_group_size() - 1."""
    _check_group(group)
    return comm.rank()


def get_local_rank(group=None):
    """The rank among the processes on this machine (mslab's ranks all run on one machine)."""
    _check_group(group)
    return comm.rank()


def get_group_size(group=None):
    """How many processes train together (N of ``mpiexec -n N``; 1 without a launcher)."""
    _check_group(group)
    return comm.size()
