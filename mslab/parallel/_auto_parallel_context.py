"""``mindspore.parallel._auto_parallel_context.auto_parallel_context()``: the settings object behind
``set_auto_parallel_context``, with one ``get_<key>()`` / ``set_<key>(value)`` pair per setting.

Model-zoo code calls it to read the parallel mode, the device count and the gradient averaging
(``auto_parallel_context().get_parallel_mode()``); the values live in mslab.core.context, so both
ways of setting and reading them agree.
"""
from mslab.core import comm
from mslab.core import context as _context

__all__ = ["auto_parallel_context"]


class _AutoParallelContext:
    """``get_parallel_mode()``, ``get_device_num()``, ``set_gradients_mean(True)``, ... over the context."""

    def get_device_num_is_set(self):
        return _context._auto_parallel.get("device_num") is not None

    def get_global_rank(self):
        return _context._auto_parallel.get("global_rank", comm.rank())

    def get_global_rank_is_set(self):
        return "global_rank" in _context._auto_parallel

    def reset(self):
        _context.reset_auto_parallel_context()

    def __getattr__(self, name):
        if name.startswith("get_"):
            return lambda: _context.get_auto_parallel_context(name[4:])
        if name.startswith("set_"):
            return lambda value: _context.set_auto_parallel_context(**{name[4:]: value})
        raise AttributeError(f"'_AutoParallelContext' object has no attribute '{name}'")


_INSTANCE = _AutoParallelContext()


def auto_parallel_context():
    """The one auto-parallel settings object (MindSpore's is a singleton too)."""
    return _INSTANCE
