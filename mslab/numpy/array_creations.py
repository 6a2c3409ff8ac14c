"""Array creation, as ``mindspore.numpy``: arange, linspace, zeros, ones, full, empty, the ``*_like`` forms, array.

Constants are made once in numpy and enter the computation as Tensors (in GRAPH mode, as constants
of the graph); ``zeros_like``/``ones_like``/``full_like`` of a Tensor go through mslab's ops, so
they depend on their input as MindSpore's do (with a zero gradient).
"""
import numpy as np

from mslab.core.dtype import float16, float32, float64
from mslab.core.tensor import Tensor
from mslab.numpy.convert import default_np_dtype, ms_dtype, np_dtype, to_tensor
from mslab.ops import functional as F

__all__ = ["arange", "linspace", "zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like",
           "array", "asarray", "rand"]


def _shape(shape):
    return (shape,) if isinstance(shape, int) else tuple(shape)


def _number(value, fn, name):
    if isinstance(value, Tensor):
        return value.asnumpy().item()
    if not isinstance(value, (bool, int, float)):
        raise TypeError(f"mslab.numpy.{fn}: {name} must be a number, got {type(value).__name__}")
    return value


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in ``[start, stop)``: Int32 when all bounds are ints, else Float32 (numpy's arange)."""
    bounds = [_number(v, "arange", n) for v, n in ((start, "start"), (stop, "stop"), (step, "step")) if v is not None]
    as_float = any(isinstance(v, float) for v in bounds) or isinstance(start, Tensor)
    out = np.arange(*bounds, dtype=np.float32 if as_float else np.int32)
    return Tensor(out if dtype is None else out.astype(np_dtype(dtype)))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """``num`` evenly spaced Float32 values from ``start`` to ``stop`` (included unless ``endpoint=False``)."""
    values, step = np.linspace(start, stop, num, endpoint=endpoint, retstep=True, axis=axis)
    out = Tensor(values.astype(np.float32 if dtype is None else np_dtype(dtype)))
    return (out, step) if retstep else out


def full(shape, fill_value, dtype=None):
    """A tensor of ``shape`` filled with ``fill_value``: Int32 for an int, Float32 for a float, Bool for a bool."""
    if isinstance(fill_value, Tensor):  # broadcast a tensor, as numpy does
        value = fill_value if dtype is None else F.cast(fill_value, ms_dtype(dtype))
        return F.broadcast_to(value, _shape(shape))
    np_type = default_np_dtype(fill_value) if dtype is None else np_dtype(dtype)
    return Tensor(np.full(_shape(shape), fill_value, dtype=np_type))


def zeros(shape, dtype=None):
    """A Float32 tensor of zeros (or of ``dtype``)."""
    return full(shape, 0, dtype if dtype is not None else np.float32)


def ones(shape, dtype=None):
    """A Float32 tensor of ones (or of ``dtype``)."""
    return full(shape, 1, dtype if dtype is not None else np.float32)


def empty(shape, dtype=None):
    """A Float32 tensor of ``shape``; mslab fills it with zeros (MindSpore's CPU kernel also gave zeros)."""
    return zeros(shape, dtype)


def full_like(a, fill_value, dtype=None, shape=None, fn="full_like"):
    """A tensor shaped (and typed) like ``a``, filled with ``fill_value``; ``dtype``/``shape`` override."""
    a = to_tensor(a, fn)
    dtype = a.dtype if dtype is None else dtype
    if shape is not None:
        return full(shape, fill_value, dtype)
    filled = F.add(F.zeros_like(a), Tensor(np.asarray(fill_value, dtype=np_dtype(a.dtype))))
    return filled if np_dtype(dtype) == np_dtype(a.dtype) else F.cast(filled, ms_dtype(dtype))


def zeros_like(a, dtype=None, shape=None):
    """Zeros shaped (and typed) like ``a``."""
    return full_like(a, 0, dtype, shape, "zeros_like")


def ones_like(a, dtype=None, shape=None):
    """Ones shaped (and typed) like ``a``."""
    return full_like(a, 1, dtype, shape, "ones_like")


def array(obj, dtype=None, copy=True, ndmin=0):
    """A Tensor from a Tensor, number, list or tuple (Python ints -> Int32, floats -> Float32)."""
    t = to_tensor(obj, "array", "obj")
    if ndmin > len(t.shape):
        t = F.reshape(t, (1,) * (ndmin - len(t.shape)) + tuple(t.shape))
    return t if dtype is None or np_dtype(dtype) == np_dtype(t.dtype) else F.cast(t, ms_dtype(dtype))


def asarray(a, dtype=None):
    """``a`` as a Tensor (Tensors come back as they are)."""
    return array(a, dtype)


def rand(*shape, dtype=float32):
    """Samples of U[0, 1) of shape ``shape`` (``rand(2, 3)`` or ``rand((2, 3))``; ``rand()`` has shape (1,), as
    MindSpore's); ``dtype`` float16, float32 or float64."""
    if dtype not in (float16, float32, float64):
        raise ValueError(f"The argument 'dtype' must be 'mindspore.float64', 'mindspore.float32' or "
                         f"'mindspore.float16', but got {dtype}")
    return F.rand(*(shape or (1,)), dtype=dtype)
