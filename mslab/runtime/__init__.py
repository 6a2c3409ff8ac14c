"""The runtime: what runs compiled graphs and Cell calls (executor, compiled, cell_call), and
``mindspore.runtime``'s device settings.

MindSpore's ``mindspore.runtime`` configures the device: its memory pool, streams, kernel launching.
mslab computes with numpy on the host, synchronously, with numpy's own memory, so these names check
their arguments as MindSpore 2.10 does and otherwise change nothing; each says so below.
"""
import re

from mslab.core import log as _log
from mslab.core import missing_names as _missing_names

__all__ = ["set_memory", "synchronize", "current_stream", "launch_blocking"]

_MEMORY_PATTERN = r"[1-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB"
_RESERVE_PATTERN = r"[0-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB"
_memory: dict = {}  # what set_memory was given (set once per process, as in MindSpore)


def _check_size(value, pattern):
    if not isinstance(value, str) or not re.fullmatch(pattern, value, flags=re.ASCII):
        raise ValueError(f"The '{value}' is illegal, it must be match regular'{pattern}' by flags're.ASCII.'")
    return value


def set_memory(init_size="2GB", increase_size="2GB", max_size="1024GB", optimize_level="O0",
               huge_page_reserve_size="0GB"):
    """Record MindSpore's device memory-pool sizes ("xxGB"); once per process, as in MindSpore 2.10.

    mslab has no device memory pool (numpy allocates on the host), so the values are checked with
    MindSpore's messages and kept, and change nothing. A second call is MindSpore's RuntimeError.
    """
    if _memory:
        raise RuntimeError("The 'set_memory' can not be set repeatedly.")
    for size in (init_size, increase_size, max_size):
        _check_size(size, _MEMORY_PATTERN)
    _check_size(huge_page_reserve_size, _RESERVE_PATTERN)
    if optimize_level not in ["O0", "O1"]:
        raise ValueError(f"The optimize_level must be one of ['O0', 'O1'], but got {optimize_level}.")
    _memory.update(init_size=init_size, increase_size=increase_size, max_size=max_size,
                   optimize_level=optimize_level, huge_page_reserve_size=huge_page_reserve_size)


def synchronize():
    """Wait for the device's queued work; on CPU MindSpore 2.10 logs an ERROR and returns None (observed).

    mslab's ops finish before they return, so there is nothing to wait for; the ERROR line is MindSpore's.
    """
    _log.error("CPU device is not supported. Please use correct device")


def current_stream():
    """The device's current stream; on CPU MindSpore 2.10 logs an ERROR and returns None (observed)."""
    _log.error("CPU device is not supported. Please use correct device")


def launch_blocking():
    """Make kernel launches synchronous; MindSpore 2.10 returns None on CPU (observed), and mslab's ops
    already run synchronously: nothing to do."""


__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
