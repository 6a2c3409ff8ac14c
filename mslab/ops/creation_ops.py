"""Tensors made from numbers: ``ops.full``, ``ops.arange``, ``ops.linspace``, ``ops.eye``; ``ops.diag`` (a
vector on the diagonal of zeros) and ``F.make_range`` (a tuple of ints, for loops in construct).

They have no tensor inputs, so they are constants of a compiled graph (Fill and TupleToArray nodes).
dtypes as MindSpore 2.10 (observed on CPU): ``full`` without a dtype is Int64 whatever the fill value
(``full((2,), 0.5)`` is [0, 0]); ``arange`` is Int64 for integer arguments and Float32 as soon as one is
a float; ``linspace`` is Float32.
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor
from mslab.ops.primitive import Primitive, np_dtype

__all__ = ["Eye", "ScalarToArray"]


class Eye(Primitive):
    """``ops.Eye()(n, m, dtype)``: an n x m matrix with ones on its diagonal, zeros elsewhere (a constant).

    All three arguments are required, as MindSpore 2.10's ``Eye.__call__``; ``ops.eye(n, m=None,
    dtype=Float32)`` is the form with defaults.
    """

    n_tensors = 0
    differentiable = False

    def prepare(self, args):
        if len(args) != 3:
            raise TypeError(f"Eye.__call__() takes (n, m, dtype), got {len(args)} arguments; ops.eye(n) has defaults")
        n, m, dtype = args
        for name, v in (("n", n), ("m", m)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise TypeError(f"For 'Eye', '{name}' must be an int, got {type(v).__name__}")
            if v < 0:
                raise ValueError(f"Eye error: {name} value can not be negative.")
        return int(n), int(m), np_dtype(dtype)

    def infer(self, n, m, dtype):
        return (n, m), dtype

    def compute(self, n, m, dtype):
        return np.eye(n, m, dtype=dtype)

    def bprop(self, n, m, dtype, out, dout):
        return None, None, None


class ScalarToArray:
    """``P.ScalarToArray`` (deprecated since MindSpore 2.0): MindSpore 2.10 still has the name but cannot run
    it on CPU in either mode (observed: RuntimeError, "prim:ScalarToArray has no attr:__infer__" in PYNATIVE,
    "Operator 'ScalarToArray' is invalid" in GRAPH); mslab raises the same kind of error, saying what to use."""

    def __call__(self, *args):
        raise RuntimeError("ScalarToArray is deprecated since MindSpore 2.0 and MindSpore 2.10 cannot run it (it has "
                           "no shape inference rule); use ops.scalar_to_tensor(x, dtype) instead")

    def __repr__(self):
        return "ScalarToArray"


def scalar_to_array(input_x):
    """``F.scalar_to_array(x)``: ``P.ScalarToArray()(x)``, which MindSpore 2.10 cannot run (the same RuntimeError,
    observed for F.scalar_to_array too)."""
    return ScalarToArray()(input_x)


def full(size, fill_value, *, dtype=None):
    """A tensor of shape ``size`` filled with ``fill_value`` (Int64 unless ``dtype`` says otherwise)."""
    return op_table.fill(mstype.int64 if dtype is None else dtype, tuple(size), fill_value)


def _numbers(values, what):
    if not len(values):
        raise ValueError(f"{what} would give an empty tensor, which mslab cannot make as a constant")
    return op_table.tuple_to_array(tuple(v.item() for v in values))


def arange(start=0, end=None, step=1, *, dtype=None):
    """start, start + step, ... up to (not including) ``end``; ``arange(n)`` counts 0 .. n-1."""
    if end is None:
        start, end = 0, start
    if step == 0:
        raise ValueError("arange: step must not be 0")
    is_int = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in (start, end, step))
    values = np.arange(start, end, step, dtype=np.int64 if is_int else np.float64)
    out = _numbers(values if is_int else values.astype(np.float32), f"arange({start}, {end}, {step})")
    return out if dtype is None else op_table.cast(out, dtype)


def linspace(start, end, steps):
    """``steps`` evenly spaced Float32 values from ``start`` to ``end`` inclusive."""
    values = np.linspace(float(start), float(end), int(steps)).astype(np.float32)
    return _numbers(values.astype(np.float64), f"linspace({start}, {end}, {steps})")


_eye = Eye()


def eye(n, m=None, dtype=None):
    """An n x m (n x n when m is None) identity matrix, Float32 unless ``dtype`` says otherwise (``ops.eye``)."""
    return _eye(n, n if m is None else m, mstype.float32 if dtype is None else dtype)


def diag(input):  # noqa: A002 - MindSpore's argument name
    """A tensor with ``input`` on its diagonal and zeros elsewhere (``ops.diag``).

    For a vector of n elements: the n x n matrix diag(v). For any input of shape s the output has shape
    s + s, with out[i..., i...] = input[i...], as MindSpore 2.10. Built as flat(input) * eye broadcast, so
    d/d(input) is the diagonal of dout.
    """
    shape = tuple(input.shape)
    if not shape:
        raise ValueError("For primitive[Diag], the input rank must be greater than or equal to 1, but got 0.")
    n = int(np.prod(shape, dtype=np.int64))
    flat = op_table.reshape(input, (1, n))
    square = op_table.mul(op_table.broadcast_to(flat, (n, n)), eye(n, n, input.dtype))
    return op_table.reshape(square, shape + shape)


def make_range(start, limit=None, delta=1):
    """``F.make_range(start, limit, delta)``: the tuple ``tuple(range(start, limit, delta))`` of Python ints
    (``make_range(n)`` counts 0 .. n-1), for ``for i in F.make_range(n)`` loops inside construct."""
    if limit is None:
        start, limit = 0, start
    for i, v in enumerate((start, limit, delta)):
        if isinstance(v, (bool, Tensor)) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"For 'make_range', the {i}th input should be a int scalar but got {v!r}")
    if delta == 0:
        raise RuntimeError("For 'range', the argument 'step' could not be 0.")
    return tuple(range(int(start), int(limit), int(delta)))


__all__ += ["scalar_to_array", "full", "arange", "linspace", "eye", "diag", "make_range"]
op_table.register(globals(), __all__)
