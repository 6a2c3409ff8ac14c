"""``mindspore.communication`` for one process: mslab runs on a single (simulated) device.

``init()`` succeeds, ``get_rank()`` is 0 and ``get_group_size()`` is 1, so data-parallel code from
the seeds (DistributedGradReducer, device counts) runs unchanged with degree 1.
"""
from mslab.communication.management import GlobalComm, get_group_size, get_local_rank, get_rank, init, release
from mslab.core import missing_names as _missing_names

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
