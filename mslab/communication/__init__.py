"""``mindspore.communication`` on MPI: ``mpiexec -n N python train.py`` runs N data-parallel ranks.

``init()`` joins the ranks, ``get_rank()``/``get_group_size()`` say who this process is and how many
there are; without a launcher mslab is one process (rank 0 of 1), so a MindSpore training script runs unchanged.
"""
from mslab.communication.management import (
    HCCL_WORLD_COMM_GROUP,
    MCCL_WORLD_COMM_GROUP,
    NCCL_WORLD_COMM_GROUP,
    GlobalComm,
    create_group,
    get_group_size,
    get_local_rank,
    get_rank,
    init,
    release,
)
from mslab.core import missing_names as _missing_names

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
