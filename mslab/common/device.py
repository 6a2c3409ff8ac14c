"""``mindspore.set_device``: choose the device target (and id) the way ``set_context`` does.

MindSpore 2.10 prefers ``set_device("CPU")`` to ``set_context(device_target="CPU")``; here it is the same
context key, so a device other than "CPU" is accepted with set_context's one warning (mslab computes on
the CPU; dataset sink mode runs on a simulated device) and an unknown name is a ValueError.
"""
from mslab.core.context import set_context

__all__ = ["set_device"]


def set_device(device_target, device_id=None):
    """Set ``device_target`` ("CPU", "GPU" or "Ascend") and, when given, ``device_id``."""
    set_context(device_target=device_target)
    if device_id is not None:
        set_context(device_id=device_id)
