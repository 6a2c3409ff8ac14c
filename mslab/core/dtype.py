"""Data types, as ``mindspore.common.dtype`` (imported as ``mstype``).

Each mslab type wraps one numpy dtype and prints the way MindSpore prints it: ``Float32``, ``Int64``,
``Bool``. ``mstype.float32 == np.float32`` holds so that numpy code and MindSpore-style code mix.
"""
import warnings

import numpy as np


class Type:
    """One element type, e.g. ``mstype.float32`` (prints ``Float32``)."""

    __slots__ = ("name", "np")

    def __init__(self, name, np_dtype):
        self.name = name
        self.np = np.dtype(np_dtype)

    def __repr__(self):
        return self.name

    __str__ = __repr__

    def __eq__(self, other):
        if isinstance(other, Type):
            return self.np == other.np
        try:
            return self.np == np.dtype(other)
        except TypeError:
            return False

    def __hash__(self):
        return hash(self.np)

    @property
    def is_float(self):
        return self.np.kind == "f"


float16 = Type("Float16", np.float16)
float32 = Type("Float32", np.float32)
float64 = Type("Float64", np.float64)
int8 = Type("Int8", np.int8)
int16 = Type("Int16", np.int16)
int32 = Type("Int32", np.int32)
int64 = Type("Int64", np.int64)
uint8 = Type("UInt8", np.uint8)
uint16 = Type("UInt16", np.uint16)
uint32 = Type("UInt32", np.uint32)
uint64 = Type("UInt64", np.uint64)
bool_ = Type("Bool", np.bool_)
half, single, double = float16, float32, float64
float_, int_, uint = float32, int32, uint32

_ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool_)
_BY_NP = {t.np: t for t in _ALL}
number_type = _ALL[:-1]
float_type = (float16, float32, float64)
int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)


def from_numpy(np_dtype):
    """The mslab type of a numpy dtype (``np.float32`` -> ``Float32``)."""
    try:
        return _BY_NP[np.dtype(np_dtype)]
    except (KeyError, TypeError):
        raise TypeError(f"mslab has no type for numpy dtype {np_dtype!r}; "
                        f"supported: {', '.join(t.name for t in _ALL)}") from None


def to_numpy(dtype):
    """The numpy dtype of an mslab type, numpy dtype or Python type (``float`` -> float32, as MindSpore)."""
    if isinstance(dtype, Type):
        return dtype.np
    if dtype is float:
        return float32.np
    if dtype is int:
        return int64.np
    if dtype is bool:
        return bool_.np
    return from_numpy(dtype).np


def dtype_to_nptype(dtype):
    """The numpy scalar type of ``dtype`` (``ms.dtype_to_nptype(ms.float32)`` is ``numpy.float32``).

    Deprecated in MindSpore since 2.7, and it warns so (observed on MindSpore 2.10); :func:`to_numpy`
    is mslab's own spelling.
    """
    warnings.warn("The interface 'mindspore.dtype_to_nptype' is deprecated from version 2.7 and will be removed "
                  "in a future version.", DeprecationWarning, stacklevel=2)
    return to_numpy(dtype).type


def pytype_to_dtype(obj):
    """MindSpore's name: Python/numpy type to mslab type."""
    return from_numpy(to_numpy(obj))
