"""Work buffers that the wide convolution kernels reuse from call to call.

A fresh array of many megabytes is mapped from the operating system on every call and each of its pages
faults when first written, which costs more than the arithmetic that fills it. The big temporaries of the
convolution kernels (padded images, columns, per-window gradients) live here instead.
"""
from __future__ import annotations

import threading
from typing import Any, Sequence

import numpy as np

_SCRATCH = threading.local()  # per thread: kernels running at once in two threads never share a buffer
SCRATCH_FROM = 4 << 20  # bytes: below this the allocator recycles freed blocks well enough; hold no memory for them


def scratch(role: str, shape: Sequence[int], dtype: Any) -> np.ndarray:
    """A work array of ``shape`` for one ``role`` inside a kernel, reused by later calls (contents undefined).

    One buffer per role and dtype, grown to the largest size asked for. Only for temporaries that never
    leave the kernel (a result handed back must be a fresh array) and never two live uses of one role.
    """
    size = int(np.prod(shape))
    dtype = np.dtype(dtype)
    if size * dtype.itemsize < SCRATCH_FROM:  # the allocator recycles small blocks itself: keep no memory for them
        return np.empty(shape, dtype)
    bufs: dict[Any, np.ndarray] = _SCRATCH.__dict__  # (role, dtype) -> buffer
    buf = bufs.get((role, dtype))
    if buf is None or buf.size < size:
        buf = bufs[role, dtype] = np.empty(size, dtype)
    return buf[:size].reshape(shape)
