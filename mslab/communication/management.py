"""Process-group queries for a single process (rank 0 of a group of 1)."""
from mslab.core import missing_names as _missing_names

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error


class GlobalComm:
    """Names MindSpore code reads; there is one group, the world."""

    BACKEND = "single-process"
    WORLD_COMM_GROUP = "world"
    INITED = False


def init(backend_name=None):
    """Accept the call: a single process needs no communication set-up."""
    GlobalComm.INITED = True


def release():
    GlobalComm.INITED = False


def get_rank(group=None):
    """This process's rank: always 0."""
    return 0


def get_local_rank(group=None):
    return 0


def get_group_size(group=None):
    """How many processes train together: always 1 in mslab."""
    return 1
