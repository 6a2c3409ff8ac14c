"""How the C allocator recycles the memory of numpy's arrays: glibc's trim and mmap thresholds, set once when the
speed layer is first turned on (at import, unless ``MSLAB_PLAIN=1``).

Why: an eager (PYNATIVE) training step frees all its activations at once when autodiff lets its tape go.
glibc then hands the freed top of its heap back to the operating system (its trim threshold follows the
largest block freed so far), and maps big blocks afresh on every call, so the next step faults every page in
again. On LeNet5 at batch 32 that made an eager step 3.2 -> 5.9 ms on a 2-core machine. mslab fixes the two
thresholds instead of letting glibc adapt them:

    M_MMAP_THRESHOLD = 32 MB   (glibc's own upper bound for the dynamic value; bigger blocks still map fresh)
    M_TRIM_THRESHOLD = 256 MB  (freed heap memory up to this stays in the process for the next step)

much as PyTorch's CPU allocator keeps freed blocks for reuse. The peak of memory in use is unchanged; the
process may keep up to 256 MB of freed memory mapped until it exits.

A user's ``MALLOC_TRIM_THRESHOLD_`` or ``MALLOC_MMAP_THRESHOLD_`` (glibc's own environment variables) wins:
mslab then changes nothing. Off glibc (macOS, Windows, musl) nothing is done either.
"""
from __future__ import annotations

import ctypes
import os
from typing import Mapping

USER_VARIABLES = ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TOP_PAD_")
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # mallopt parameter numbers in glibc's malloc.h
MMAP_BYTES, TRIM_BYTES = 32 << 20, 256 << 20


def glibc() -> bool:
    """True when this process runs on glibc (``os.confstr`` names its version there, nowhere else)."""
    try:
        return bool(os.confstr("CS_GNU_LIBC_VERSION"))
    except (AttributeError, ValueError, OSError):
        return False


def tune(environ: Mapping[str, str] | None = None) -> bool:
    """Fix the two thresholds (see the module docstring); returns whether they were set."""
    environ = os.environ if environ is None else environ
    if any(k in environ for k in USER_VARIABLES) or not glibc():
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_BYTES)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_BYTES))


_tuned: list[bool] = []  # the result of the one ``tune()`` this process makes


def tune_once() -> bool:
    """``tune()`` the first time the speed layer is turned on; later calls change nothing. The thresholds are the
    process's: turning the speed layer off does not set them back (glibc cannot return to its adaptive ones)."""
    if not _tuned:
        _tuned.append(tune())
    return _tuned[0]
