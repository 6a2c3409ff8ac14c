"""The global random seed, as ``mindspore.set_seed`` / ``mindspore.get_seed``.

``set_seed(n)`` makes a run repeatable: it seeds numpy's global generator (``np.random``, which the
initialisers, other random ops and dataset shuffles draw from, as MindSpore's) and records ``n`` so that
other parts (datasets) can derive their own seeds from it.

    >>> import mslab
    >>> mslab.set_seed(1)
    >>> a = mslab.core.initializer.initializer("normal", (2,)).asnumpy()
    >>> mslab.set_seed(1)
    >>> b = mslab.core.initializer.initializer("normal", (2,)).asnumpy()
    >>> bool((a == b).all())
    True
"""
from typing import Callable

import numpy as np

_seed = None
# Functions set_seed calls with the new seed. mslab.dataset registers one to re-seed its shuffles
# (this module cannot import mslab.dataset: imports point down the chain, never up).
_set_seed_hooks: list[Callable[[int], None]] = []


def set_seed(seed):
    """Seed every random source mslab uses (initialisers, ``np.random``, dataset shuffles)."""
    global _seed
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"set_seed: seed must be an int, got {type(seed).__name__}")
    if seed < 0:
        raise ValueError(f"set_seed: seed must be >= 0, got {seed}")
    seed = int(seed)
    _seed = seed
    np.random.seed(seed % 2**32)
    for hook in _set_seed_hooks:  # e.g. mslab.dataset.config.set_seed
        hook(seed)


def get_seed():
    """The seed given to :func:`set_seed`, or None if it was never called."""
    return _seed
