"""Dataset settings, as ``mindspore.dataset.config``: the seed the shuffles draw from.

Every shuffle in a pipeline (``GeneratorDataset(shuffle=True)``, ``.shuffle(buffer_size)``,
``MnistDataset``, a ``RandomSampler``) draws from one dataset random generator. Each new iterator
takes a fresh base seed from it, and each epoch of that iterator reshuffles from that base seed.
``mslab.set_seed(n)`` re-seeds the generator (so does ``mslab.dataset.config.set_seed(n)``):
after it, the same sequence of pipelines produces the same orders, run after run.

    >>> import mslab, mslab.dataset as ds
    >>> mslab.set_seed(7)
    >>> a = [int(r[0]) for r in ds.GeneratorDataset(list(range(5)), ["x"])]
    >>> mslab.set_seed(7)
    >>> b = [int(r[0]) for r in ds.GeneratorDataset(list(range(5)), ["x"])]
    >>> a == b
    True
"""
import os

import numpy as np

from mslab.core import missing_names as _missing_names
from mslab.core import seed as _global_seed

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

_seed = None
_rng = np.random.default_rng()
_prefetch_size = 16  # MindSpore 2.10's default (observed)
_INT32_MAX = 2**31 - 1
_switches = {"enable_shared_mem": True, "numa_enable": False, "debug_mode": False, "enable_autotune": False,
             "autotune_interval": 0, "auto_offload": False}  # MindSpore 2.10's defaults (observed on CPU)
_workers = min(8, os.cpu_count() or 1)  # documented 8, capped at the cores (observed: 2 on a 2-core machine)


def set_seed(seed):
    """Re-seed the generator every dataset shuffle draws from (``mslab.set_seed`` calls this too)."""
    global _seed, _rng
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"dataset.config.set_seed: seed must be an int >= 0, got {seed!r}")
    _seed = int(seed)
    _rng = np.random.default_rng(_seed)


def get_seed():
    """The last seed given to :func:`set_seed` (or ``mslab.set_seed``), or None if there was none."""
    return _seed


def shared_seed():
    """The seed every data-parallel rank shuffles its shard's order with: the dataset seed, or MindSpore's
    default dataset seed 5489 (``get_seed()`` before any ``set_seed``, observed on MindSpore 2.10)."""
    return 5489 if _seed is None else _seed


def launch_seed():
    """A base seed for one new iterator, drawn from the dataset generator."""
    return int(_rng.integers(0, 2**32))


def set_prefetch_size(size):
    """How many rows MindSpore's pipeline threads read ahead; mslab reads on demand and only records it."""
    global _prefetch_size
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"dataset.config.set_prefetch_size: size isn't of type int, got {type(size).__name__}")
    if not 0 < size <= 2**31 - 1:
        raise ValueError(f"dataset.config.set_prefetch_size: size {size} is not within (0, 2147483647]")
    _prefetch_size = size


def get_prefetch_size():
    """The value last given to :func:`set_prefetch_size` (16 by default, as in MindSpore)."""
    return _prefetch_size


def set_num_parallel_workers(num):
    """How many threads MindSpore's pipeline operations use (1 to the CPU count); mslab reads in one thread
    and only records it."""
    global _workers
    if isinstance(num, bool) or not isinstance(num, int):
        raise TypeError("num isn't of type int.")  # MindSpore's messages
    if not 0 < num <= _INT32_MAX:
        raise ValueError("Number of parallel workers given is not within the required range "
                         "(0, INT32_MAX(2147483647)].")
    cpus = os.cpu_count() or 1
    if num > cpus:
        raise RuntimeError(f"Invalid Parameter, num_parallel_workers exceeds the boundary between 1 and {cpus}, "
                           f"as got {num}.")
    _workers = num


def get_num_parallel_workers():
    """The value last given to :func:`set_num_parallel_workers` (by default 2 on a 2-core machine, as observed)."""
    return _workers


def _bool_switch(name, message, doc):
    """``set_<name>(flag)`` (a bool, else MindSpore's TypeError ``message``) and ``get_<name>()``."""
    def set_switch(value, *args, **kwargs):
        if not isinstance(value, bool):
            raise TypeError(message)
        _switches[name] = value

    def get_switch():
        return _switches[name]

    set_switch.__doc__ = doc + " mslab only records it; ``get_" + name + "()`` returns it."
    get_switch.__doc__ = f"The value last given to ``set_{name}`` ({_switches[name]} by default, as in MindSpore 2.10)."
    set_switch.__name__, get_switch.__name__ = f"set_{name}", f"get_{name}"
    return set_switch, get_switch


# Settings of MindSpore's C++ pipeline (worker processes, threads, autotuning, offloading to the device):
# a one-process numpy pipeline has none of these, so they record the setting and change nothing.
set_enable_shared_mem, get_enable_shared_mem = _bool_switch(
    "enable_shared_mem", "enable must be of type bool.", "Whether worker processes pass rows through shared memory.")
set_numa_enable, get_numa_enable = _bool_switch(
    "numa_enable", "numa_enable must be a boolean dtype.", "Whether pipeline threads are bound to NUMA nodes.")
set_debug_mode, get_debug_mode = _bool_switch(
    "debug_mode", "debug_mode_flag isn't of type boolean.", "Whether the pipeline runs in MindSpore's debug mode.")
set_enable_autotune, get_enable_autotune = _bool_switch(
    "enable_autotune", "enable must be of type bool.", "Whether MindSpore tunes its pipeline while it runs.")
set_auto_offload, get_auto_offload = _bool_switch(
    "auto_offload", "offload must be a bool dtype", "Whether map operations are offloaded to the device.")


def set_autotune_interval(interval):
    """How often (in steps) MindSpore's autotuner looks at the pipeline (0: each epoch); recorded only."""
    if isinstance(interval, bool) or not isinstance(interval, int):
        raise TypeError("interval must be of type int.")  # MindSpore's message
    if not 0 <= interval <= _INT32_MAX:  # MindSpore's message
        raise ValueError("Interval given is not within the required range [0, INT32_MAX(2147483647)].")
    _switches["autotune_interval"] = interval


def get_autotune_interval():
    """The value last given to :func:`set_autotune_interval` (0 by default, as in MindSpore 2.10)."""
    return _switches["autotune_interval"]


_global_seed._set_seed_hooks.append(set_seed)
if _global_seed.get_seed() is not None:  # mslab.set_seed ran before this module was imported
    set_seed(_global_seed.get_seed())
