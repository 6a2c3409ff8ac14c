"""Tensors made from numbers: ``ops.full``, ``ops.arange``, ``ops.linspace``.

They have no tensor inputs, so they are constants of a compiled graph (Fill and TupleToArray nodes).
dtypes as MindSpore 2.10 (observed on CPU): ``full`` without a dtype is Int64 whatever the fill value
(``full((2,), 0.5)`` is [0, 0]); ``arange`` is Int64 for integer arguments and Float32 as soon as one is
a float; ``linspace`` is Float32.
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core.op_registry import F

__all__ = []


def full(size, fill_value, *, dtype=None):
    """A tensor of shape ``size`` filled with ``fill_value`` (Int64 unless ``dtype`` says otherwise)."""
    return F.fill(mstype.int64 if dtype is None else dtype, tuple(size), fill_value)


def _numbers(values, what):
    if not len(values):
        raise ValueError(f"{what} would give an empty tensor, which mslab cannot make as a constant")
    return F.tuple_to_array(tuple(v.item() for v in values))


def arange(start=0, end=None, step=1, *, dtype=None):
    """start, start + step, ... up to (not including) ``end``; ``arange(n)`` counts 0 .. n-1."""
    if end is None:
        start, end = 0, start
    if step == 0:
        raise ValueError("arange: step must not be 0")
    is_int = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in (start, end, step))
    values = np.arange(start, end, step, dtype=np.int64 if is_int else np.float64)
    out = _numbers(values if is_int else values.astype(np.float32), f"arange({start}, {end}, {step})")
    return out if dtype is None else F.cast(out, dtype)


def linspace(start, end, steps):
    """``steps`` evenly spaced Float32 values from ``start`` to ``end`` inclusive."""
    values = np.linspace(float(start), float(end), int(steps)).astype(np.float32)
    return _numbers(values.astype(np.float64), f"linspace({start}, {end}, {steps})")


__all__ += ["full", "arange", "linspace"]
F.register(globals(), __all__)
