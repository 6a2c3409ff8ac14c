"""Array ops: shape changes, dtype casts, constant makers, selection and side effects.

Shape-only ops (``Shape``, ``DType``) are not graph nodes: in GRAPH mode shapes and dtypes are known
while tracing, so they return Python values at once, as MindSpore resolves them at compile time.
"""
import numpy as np

from mslab.common import dtype as mstype
from mslab.common.tensor import Tensor
from mslab.ops.primitive import Primitive, broadcast_shape, lift_scalars, np_dtype

__all__ = [
    "Assign",
    "BroadcastTo",
    "Cast",
    "DType",
    "Depend",
    "Fill",
    "OnesLike",
    "Reshape",
    "Select",
    "Shape",
    "ZerosLike",
]


def _F():
    from mslab.ops import functional
    return functional


class Reshape(Primitive):
    """x viewed with a new shape (one -1 allowed).  d/dx = reshape(dout, x.shape)."""

    n_tensors = 1

    def infer(self, x, shape):
        shape = tuple(int(s) for s in shape)
        size = int(np.prod(x.shape, dtype=np.int64))
        if shape.count(-1) > 1:
            raise ValueError(f"Reshape: at most one -1 in the new shape {shape}")
        if -1 in shape:
            rest = int(np.prod([s for s in shape if s != -1], dtype=np.int64))
            if rest == 0 or size % rest:
                raise ValueError(f"Reshape: cannot reshape {tuple(x.shape)} ({size} elements) to {shape}")
            shape = tuple(size // rest if s == -1 else s for s in shape)
        elif int(np.prod(shape, dtype=np.int64)) != size:
            raise ValueError(f"Reshape: cannot reshape {tuple(x.shape)} ({size} elements) to {shape}")
        return shape, x.dtype

    def compute(self, x, shape):
        return np.reshape(x, shape)

    def bprop(self, x, shape, out, dout):
        return _F().reshape(dout, x.shape), None


class Cast(Primitive):
    """x converted to another dtype (``ops.Cast()(x, mstype.float16)``).  d/dx = cast(dout, x.dtype)."""

    n_tensors = 1

    def prepare(self, args):
        x, dtype = args
        if not isinstance(x, Tensor):
            x = Tensor(x)
        return x, np_dtype(dtype)

    def infer(self, x, dtype):
        return x.shape, dtype

    def compute(self, x, dtype):
        return x.astype(dtype)

    def bprop(self, x, dtype, out, dout):
        if x.dtype.is_float:
            return _F().cast(dout, x.dtype), None
        return _F().zeros_like(x), None


class ZerosLike(Primitive):
    """Zeros of x's shape and dtype; zero gradient."""

    n_tensors = 1
    differentiable = False

    def infer(self, x):
        return x.shape, x.dtype

    def compute(self, x):
        return np.zeros(x.shape, x.dtype)

    def bprop(self, x, out, dout):
        return (_F().zeros_like(x),)


class OnesLike(ZerosLike):
    """Ones of x's shape and dtype; zero gradient (the default *sens* of GradOperation)."""

    def compute(self, x):
        return np.ones(x.shape, x.dtype)


class Fill(Primitive):
    """A tensor of ``shape`` filled with ``value``: ``ops.Fill()(mstype.float32, (2, 2), 1.0)``.

    It has no tensor inputs, so a compiled graph computes it once (TrainOneStepCell's *sens*).
    """

    n_tensors = 0
    differentiable = False

    def prepare(self, args):
        dtype, shape, value = args
        if isinstance(value, Tensor):
            value = value.item()
        return np_dtype(dtype), tuple(int(s) for s in shape), value

    def infer(self, dtype, shape, value):
        return shape, dtype

    def compute(self, dtype, shape, value):
        return np.full(shape, value, dtype)

    def bprop(self, *args):
        return (None,) * (len(args) - 2)


class Shape:
    """``ops.Shape()(x)`` -> the shape as a tuple (a Python value, known while tracing)."""

    def __call__(self, x):
        return tuple(x.shape)


class DType:
    """``ops.DType()(x)`` -> x's dtype (known while tracing)."""

    def __call__(self, x):
        return x.dtype


class Select(Primitive):
    """Where ``cond`` is true take x, else y (``ops.Select``).  Gradients follow the same choice."""

    n_tensors = 3

    def prepare(self, args):
        cond, x, y = args
        x, y = lift_scalars((x, y), 2)
        return cond, x, y

    def infer(self, cond, x, y):
        if cond.dtype != np.bool_:
            raise TypeError(f"Select needs a Bool condition, got {mstype.from_numpy(cond.dtype)}")
        return broadcast_shape(self, cond.shape, x.shape, y.shape), x.dtype

    def compute(self, cond, x, y):
        return np.where(cond, x, y)

    def bprop(self, cond, x, y, out, dout):
        from mslab.ops.math_ops import sum_to
        F = _F()
        zeros = F.zeros_like(dout)
        return (F.zeros_like(cond), sum_to(F.select(cond, dout, zeros), x.shape),
                sum_to(F.select(cond, zeros, dout), y.shape))


class Depend(Primitive):
    """``depend(value, *effects)`` returns ``value`` and makes ``effects`` happen before it is used.

    TrainOneStepCell returns ``depend(loss, optimizer(grads))``: the loss, computed before the update.
    """

    n_tensors = None

    def infer(self, value, *effects):
        return value.shape, value.dtype

    def compute(self, value, *effects):
        return value

    def bprop(self, value, *rest):
        dout = rest[-1]
        F = _F()
        return (dout,) + tuple(F.zeros_like(e) for e in rest[:-2])


class Assign(Primitive):
    """Write ``value`` into Parameter ``variable`` in place and return it (``ops.Assign``).

    A side effect: every later read of the parameter (in this graph and later calls) sees the new value.
    """

    n_tensors = 2
    side_effect = True
    differentiable = False

    def prepare(self, args):
        variable, value = args
        from mslab.common.tensor import Parameter
        if not isinstance(variable, Parameter):
            raise TypeError(f"Assign writes into a Parameter, got {type(variable).__name__}")
        if not isinstance(value, Tensor):
            value = Tensor._wrap(np.asarray(value, variable._data.dtype))
        return variable, value

    def infer(self, variable, value):
        if tuple(value.shape) != tuple(variable.shape):
            raise ValueError(f"Assign: value shape {tuple(value.shape)} differs from the parameter's "
                             f"{tuple(variable.shape)}")
        return variable.shape, variable.dtype

    def compute(self, variable, value):
        np.copyto(variable, value, casting="unsafe")
        return variable

    def bprop(self, variable, value, out, dout):
        return None, None


class BroadcastTo(Primitive):
    """x broadcast to ``shape`` (``ops.BroadcastTo(shape)``).  d/dx = dout summed back to x's shape."""

    n_tensors = 1

    def __init__(self, shape):
        super().__init__(shape=tuple(shape))

    def infer(self, x):
        shape = tuple(x.shape[i - len(self.shape) + len(x.shape)] if s == -1 else s for i, s in enumerate(self.shape))
        if broadcast_shape(self, x.shape, shape) != shape:
            raise ValueError(f"BroadcastTo: cannot broadcast {tuple(x.shape)} to {self.shape}")
        return shape, x.dtype

    def compute(self, x):
        return np.broadcast_to(x, self.infer(x)[0])

    def bprop(self, x, out, dout):
        from mslab.ops.math_ops import sum_to
        return (sum_to(dout, x.shape),)
