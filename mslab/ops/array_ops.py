"""Array ops: dtype casts, constant makers, selection, side effects (shapes: shape_ops; indexing: index_ops).

Shape-only ops (``Shape``, ``DType``) are not graph nodes: in GRAPH mode shapes and dtypes are known
while tracing, so they return Python values at once, as MindSpore resolves them at compile time.
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core import pytree
from mslab.core.op_registry import op_table
from mslab.core.tensor import Parameter, Tensor
from mslab.ops.primitive import Primitive, broadcast_shape, lift_scalars, np_dtype, write_in_place

__all__ = [
    "Assign",
    "Cast",
    "DType",
    "Depend",
    "Fill",
    "Identity",
    "Ones",
    "OnesLike",
    "Rank",
    "ScalarToTensor",
    "Select",
    "Shape",
    "Size",
    "StopGradient",
    "TupleToArray",
    "Zeros",
    "ZerosLike",
]


class Cast(Primitive):
    """x converted to another dtype (``ops.Cast()(x, mstype.float16)``).

    d/dx = cast(dout, x.dtype), for an integer x too (MindSpore: the gradient of ``cast(x, float32) * 4.7`` at
    int32 x is int32 [4]).
    """

    n_tensors = 1
    mixed_precision = False  # the cast that mixed precision inserts must not cast itself

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
        return cast(dout, x.dtype), None


class ZerosLike(Primitive):
    """Zeros of x's shape and dtype; zero gradient."""

    n_tensors = 1
    differentiable = False

    def infer(self, x):
        return x.shape, x.dtype

    def compute(self, x):
        return np.zeros(x.shape, x.dtype)

    def bprop(self, x, out, dout):
        return (op_table.zeros_like(x),)


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
        *inputs, out, dout = args
        return (None,) * len(inputs)


class Shape:
    """``ops.Shape()(x)`` -> the shape as a tuple (a Python value, known while tracing)."""

    def __call__(self, x):
        return tuple(x.shape)


class DType:
    """``ops.DType()(x)`` -> x's dtype (known while tracing)."""

    def __call__(self, x):
        return x.dtype


class Select(Primitive):
    """Where ``cond`` is true take x, else y (``ops.Select``).

    d/dx = select(cond, dout, 0), d/dy = select(cond, 0, dout); cond gets zeros.
    """

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
        zeros = zeros_like(dout)
        return zeros_like(cond), select(cond, dout, zeros), select(cond, zeros, dout)


class Depend(Primitive):
    """``depend(value, *effects)`` returns ``value`` and makes ``effects`` happen before it is used.

    TrainOneStepCell returns ``depend(loss, optimizer(grads))``: the loss, computed before the update.
d/dvalue = dout; the effects get zeros.
    """

    n_tensors = None

    def infer(self, value, *effects):
        return value.shape, value.dtype

    def compute(self, value, *effects):
        return value

    def bprop(self, value, *rest):
        *effects, out, dout = rest
        return (dout, *(zeros_like(e) for e in effects))


class Assign(Primitive):
    """Write ``value`` into Parameter ``variable`` in place and return it (``ops.Assign``).

    A side effect: every later read of the parameter (in this graph and later calls) sees the new value.
    """

    n_tensors = 2
    side_effect = True
    differentiable = False

    def prepare(self, args):
        variable, value = args
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
        write_in_place(variable, value)
        return variable

    def bprop(self, variable, value, out, dout):
        return None, None


# ---- constants and pass-throughs --------------------------------------------------------------------
def _shape_arg(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


class Zeros(Primitive):
    """``ops.Zeros()(shape, dtype)``: a tensor of zeros (no tensor inputs: a compiled graph folds it)."""

    n_tensors = 0
    differentiable = False
    _value = 0

    def prepare(self, args):
        if len(args) == 1:
            args = (args[0], mstype.float32)
        shape, dtype = args
        return _shape_arg(shape), np_dtype(dtype)

    def infer(self, shape, dtype):
        if any(s < 0 for s in shape):
            raise ValueError(f"shape {shape} has a negative size")
        return shape, dtype

    def compute(self, shape, dtype):
        return np.full(shape, self._value, dtype)

    def bprop(self, shape, dtype, out, dout):
        return None, None


class Ones(Zeros):
    """``ops.Ones()(shape, dtype)``: a tensor of ones."""

    _value = 1


class Identity(Primitive):
    """A copy of x (``ops.Identity()``).  d/dx = dout."""

    n_tensors = 1

    def infer(self, x):
        return x.shape, x.dtype

    def compute(self, x):
        return x.copy()

    def bprop(self, x, out, dout):
        return (dout,)


class StopGradient(Identity):
    """x itself, but no gradient flows back through it (``ops.stop_gradient``): autodiff skips the node."""

    differentiable = False

    def bprop(self, x, out, dout):
        return (op_table.zeros_like(x),)


class ScalarToTensor(Primitive):
    """``ops.ScalarToTensor()(3, mstype.float32)``: a Python number as a 0-d tensor (folded when compiled)."""

    n_tensors = 0
    differentiable = False

    def prepare(self, args):
        if len(args) == 1:
            args = (args[0], mstype.float32)
        value, dtype = args
        if isinstance(value, Tensor):
            raise TypeError("ScalarToTensor takes a Python number, got a Tensor")
        if not isinstance(value, (int, float, bool, np.number, np.bool_)):
            raise TypeError(f"ScalarToTensor takes a Python number, got {type(value).__name__}")
        return value, np_dtype(dtype)

    def infer(self, value, dtype):
        return (), dtype

    def compute(self, value, dtype):
        return np.array(value, dtype)

    def bprop(self, value, dtype, out, dout):
        return None, None


class TupleToArray(Primitive):
    """``ops.tuple_to_array((1, 2, 3))``: a tuple of constant numbers as a 1-D tensor.

    As MindSpore: Int64 if the first element is an int, else Float32.
    """

    n_tensors = 0
    differentiable = False

    def prepare(self, args):
        (values,) = args
        if not isinstance(values, (tuple, list)):
            raise TypeError(f"tuple_to_array takes a tuple of numbers, got {type(values).__name__}")
        if not values:
            raise ValueError("tuple_to_array needs at least one element")
        for v in values:
            if isinstance(v, Tensor) or not isinstance(v, (int, float, np.number)):
                raise TypeError(f"tuple_to_array takes constant numbers, got a {type(v).__name__}")
        first = values[0]
        is_int = isinstance(first, (int, np.integer)) and not isinstance(first, (bool, np.bool_))
        return tuple(values), np.dtype(np.int64 if is_int else np.float32)

    def infer(self, values, dtype):
        return (len(values),), dtype

    def compute(self, values, dtype):
        return np.array(values, dtype)

    def bprop(self, values, dtype, out, dout):
        return None, None


class Size:
    """``ops.Size()(x)`` -> the number of elements (a Python int, known while tracing)."""

    def __call__(self, x):
        return int(np.prod(x.shape, dtype=np.int64))


class Rank:
    """``ops.Rank()(x)`` -> the number of axes (a Python int, known while tracing)."""

    def __call__(self, x):
        return len(x.shape)


# ---- functional forms ---------------------------------------------------------------------------------
_cast = Cast()
zeros_like = ZerosLike()
ones_like = OnesLike()
_fill = Fill()
select = Select()
_depend = Depend()
assign = Assign()
shape = Shape()
dtype = DType()
_zeros = Zeros()
_ones = Ones()
_identity = Identity()
_stop_gradient = StopGradient()
_scalar_to_tensor = ScalarToTensor()
_tuple_to_array = TupleToArray()
size = Size()
rank = Rank()


def cast(x, dtype):
    """x converted to ``dtype`` (``ops.cast``)."""
    return _cast(x, dtype)


def mixed_precision_cast(dst_type, x):
    """Floating-point tensors in ``x`` (a tensor, or tuples/lists/dicts of them) cast to ``dst_type``;
    integer tensors and other values come back unchanged (``F.mixed_precision_cast``, used by WithEvalCell)."""
    leaves, tree = pytree.flatten(x)
    cast_leaves = [_cast(t, dst_type) if t._np_dtype.kind == "f" else t for t in leaves]
    return pytree.unflatten(tree, cast_leaves)


def where(condition, input, other):  # noqa: A002 - MindSpore's argument name
    """``input`` where ``condition`` is true, else ``other`` (broadcast; either may be a number): ``ops.where``."""
    return select(condition, input, other)


def fill(dtype, shape, value):
    """A tensor of ``shape`` filled with ``value`` (``ops.fill``)."""
    return _fill(dtype, shape, value)


def depend(value, expr):
    """Return ``value``, ordered after ``expr`` (a tensor or a tuple of tensors) has been computed."""
    return _depend(value, *pytree.leaves(expr))


def identity(x):
    """x itself (``ops.identity``); a tuple of tensors comes back as a tuple (TrainOneStepCell's grad_reducer)."""
    if isinstance(x, (tuple, list)):
        return type(x)(identity(v) for v in x)
    return _identity(x)


def zeros(size, dtype=None):
    """A tensor of zeros (Float32 unless ``dtype`` says otherwise)."""
    return _zeros(size, dtype if dtype is not None else mstype.float32)


def ones(shape, dtype=None):
    """A tensor of ones (Float32 unless ``dtype`` says otherwise)."""
    return _ones(shape, dtype if dtype is not None else mstype.float32)


def stop_gradient(x):
    """x, with no gradient flowing back through it (tuples are handled element by element)."""
    if isinstance(x, (tuple, list)):
        return type(x)(stop_gradient(v) for v in x)
    return _stop_gradient(x)


def tuple_to_array(input_x):
    """A constant tuple of numbers as a 1-D tensor (Int64 when the first is an int, else Float32)."""
    return _tuple_to_array(input_x)


def scalar_to_tensor(input_x, dtype=mstype.float32):
    """A Python number as a 0-d tensor of ``dtype`` (Float32 by default)."""
    return _scalar_to_tensor(input_x, dtype)


__all__ += ["cast", "zeros_like", "ones_like", "fill", "select", "depend", "assign", "shape", "dtype", "zeros", "ones",
            "identity", "stop_gradient", "scalar_to_tensor", "tuple_to_array", "size", "rank", "mixed_precision_cast",
            "where"]
op_table.register(globals(), __all__)
