"""``mindspore.parallel._utils``: the helpers model-zoo training scripts import to set up data parallelism.

As in MindSpore 2.10 (mindspore/parallel/_utils.py): stand-alone means one device and rank 0 whatever
else is set; otherwise the device count is ``device_num`` when set, else the number of ranks.
"""
from mslab.communication.management import get_group_size, get_rank
from mslab.parallel._auto_parallel_context import auto_parallel_context

__all__ = ["_get_device_num", "_get_global_rank", "_get_gradients_mean", "_get_parallel_mode"]


def _get_parallel_mode():
    """The parallel mode: ``"stand_alone"``, ``"data_parallel"``, ..."""
    return auto_parallel_context().get_parallel_mode()


def _get_gradients_mean():
    """Whether gradients are averaged (True) or summed (False) across devices."""
    return auto_parallel_context().get_gradients_mean()


def _get_device_num():
    """How many devices train: 1 stand-alone, else ``device_num`` if set, else the group size."""
    if _get_parallel_mode() == "stand_alone":
        return 1
    ctx = auto_parallel_context()
    return ctx.get_device_num() if ctx.get_device_num_is_set() else get_group_size()


def _get_global_rank():
    """This process's rank: 0 stand-alone, else ``global_rank`` if set, else the communication rank."""
    if _get_parallel_mode() == "stand_alone":
        return 0
    ctx = auto_parallel_context()
    return ctx.get_global_rank() if ctx.get_global_rank_is_set() else get_rank()
