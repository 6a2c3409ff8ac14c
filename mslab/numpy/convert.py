"""How ``mindspore.numpy`` turns its inputs into Tensors and picks result dtypes.

MindSpore's numpy takes a Tensor, a Python number, bool, list or tuple where numpy takes an
array_like (a numpy array is refused, as in MindSpore). A Python int becomes Int32 and a float
Float32 (``mnp.array([1, 2])`` is Int32, while ``Tensor([1, 2])`` is Int64). Two inputs of different
dtypes meet at numpy's promotion of the two (Int32 with Float32 -> Float32), and a Python number
takes the dtype of the tensor it meets (``mnp.where(x > 2, x, 0)`` keeps x's Float32).
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core.tensor import Tensor
from mslab.ops import functional as F

NUMBER = (bool, int, float)


def default_np_dtype(value):
    """numpy's dtype for a Python value, narrowed as MindSpore's numpy does (int64 -> int32, float64 -> float32)."""
    arr = np.asarray(value)
    if arr.dtype == np.float64:
        return np.float32
    if arr.dtype == np.int64:
        return np.int32
    return arr.dtype


def to_tensor(value, fn, name="a"):
    """``value`` as a Tensor: Tensors pass through; numbers, bools, lists and tuples are converted."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (*NUMBER, list, tuple)):
        arr = np.asarray(value)
        if arr.dtype == object:
            raise TypeError(f"mslab.numpy.{fn}: {name} must be a rectangular list of numbers, got {value!r}")
        return Tensor(arr.astype(default_np_dtype(value)))
    raise TypeError(f"mslab.numpy.{fn}: {name} should be int, float, bool, list, tuple or Tensor (as in "
                    f"mindspore.numpy), got {type(value).__name__}")


def np_dtype(dtype):
    """A MindSpore dtype, numpy dtype or Python type as a numpy dtype."""
    return np.dtype(mstype.to_numpy(dtype))


def ms_dtype(dtype):
    """A MindSpore dtype, numpy dtype or Python type as a MindSpore dtype."""
    return mstype.from_numpy(np_dtype(dtype))


def common_dtype(dtypes):
    """MindSpore's promotion of tensor dtypes: a float tensor wins over ints (Int32 with Float16 -> Float16),
    otherwise numpy's (Int32 with Int64 -> Int64; Bool with Int32 -> Int32)."""
    floats = [d for d in dtypes if d.kind == "f"]
    return np.result_type(*floats) if floats else np.result_type(*dtypes)


def promote(values, fn, numbers_take_tensor_dtype=False):
    """Tensors of one dtype from tensors and Python numbers.

    A number meeting an integer tensor makes the result Float32 if it is a float (``add(xi, 1.5)``),
    unless ``numbers_take_tensor_dtype`` (``maximum(xi, 2.5)`` is Int32 in MindSpore: 2.5 becomes 2).
    """
    tensors = [v for v in values if isinstance(v, Tensor)]
    if not tensors:
        return [to_tensor(v, fn) for v in values]
    common = common_dtype([np_dtype(t.dtype) for t in tensors])
    floats = any(isinstance(v, float) for v in values if not isinstance(v, Tensor))
    if common.kind in "biu" and floats and not numbers_take_tensor_dtype:
        common = np.dtype(np.float32)
    out = []
    for v in values:
        t = v if isinstance(v, Tensor) else Tensor(np.asarray(to_tensor(v, fn).asnumpy(), dtype=common))
        out.append(t if np_dtype(t.dtype) == common else F.cast(t, ms_dtype(common)))
    return out


def cast_to(t, dtype):
    """``t`` cast to ``dtype`` unless it already has it (``dtype=None`` keeps it)."""
    if dtype is None or np_dtype(t.dtype) == np_dtype(dtype):
        return t
    return F.cast(t, ms_dtype(dtype))


def as_float(t):
    """An integer or bool tensor as Float32 (``mnp.sqrt`` of Int32 is Float32); floats pass through."""
    return t if np_dtype(t.dtype).kind == "f" else F.cast(t, mstype.float32)


def axes(axis, ndim):
    """MindSpore's reduction axis: ``None`` or ``()`` -> every axis; an int or list -> a tuple."""
    if axis is None:
        return ()
    return (axis,) if isinstance(axis, int) else tuple(axis)
