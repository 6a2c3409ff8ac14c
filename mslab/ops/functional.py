"""Functional forms of the primitives: ``ops.add(x, y)``, ``ops.reduce_sum(x, axis, keep_dims)``, ...

Each function calls one primitive instance; instances with attributes are made once per attribute
set and reused, so calling a functional op costs no more than calling the primitive.
"""
from mslab.ops import array_ops as A
from mslab.ops import math_ops as M
from mslab.ops import reduce_ops as R

_instances = {}


def _prim(cls, *attrs):
    key = (cls, attrs)
    p = _instances.get(key)
    if p is None:
        p = _instances[key] = cls(*attrs)
    return p


# ---- math ---------------------------------------------------------------------------------------
add = M.Add()
sub = M.Sub()
mul = M.Mul()
div = M.RealDiv()
floor_div = M.FloorDiv()
floor_mod = M.FloorMod()
pow = M.Pow()
maximum = M.Maximum()
minimum = M.Minimum()
equal = M.Equal()
not_equal = M.NotEqual()
less = M.Less()
less_equal = M.LessEqual()
greater = M.Greater()
greater_equal = M.GreaterEqual()
logical_and = M.LogicalAnd()
logical_or = M.LogicalOr()
logical_not = M.LogicalNot()
neg = M.Neg()
exp = M.Exp()
log = M.Log()
sqrt = M.Sqrt()
square = M.Square()
abs = M.Abs()
sign = M.Sign()
floor = M.Floor()
tanh = M.Tanh()
sigmoid = M.Sigmoid()
relu = M.ReLU()
relu_grad = M.ReluGrad()
mul_ = mul
realdiv = div
negative = neg


def matmul(x, y, transpose_a=False, transpose_b=False):
    """op(x) @ op(y) for 2-D tensors; higher ranks use batch_matmul."""
    if len(x.shape) > 2 or len(y.shape) > 2:
        return _prim(M.BatchMatMul, transpose_a, transpose_b)(x, y)
    return _prim(M.MatMul, transpose_a, transpose_b)(x, y)


def batch_matmul(x, y, transpose_a=False, transpose_b=False):
    return _prim(M.BatchMatMul, transpose_a, transpose_b)(x, y)


# ---- arrays -------------------------------------------------------------------------------------
_reshape = A.Reshape()
_cast = A.Cast()
zeros_like = A.ZerosLike()
ones_like = A.OnesLike()
_fill = A.Fill()
select = A.Select()
_depend = A.Depend()
assign = A.Assign()
shape = A.Shape()
dtype = A.DType()


def reshape(x, shape):
    return _reshape(x, tuple(shape) if not isinstance(shape, int) else (shape,))


def cast(x, dtype):
    return _cast(x, dtype)


def fill(dtype, shape, value):
    """A tensor of ``shape`` filled with ``value`` (``ops.fill``)."""
    return _fill(dtype, shape, value)


def depend(value, expr):
    """Return ``value``, ordered after ``expr`` (a tensor or a tuple of tensors) has been computed."""
    from mslab.runtime.pytree import flatten
    effects, _ = flatten(expr)
    return _depend(value, *effects)


# ---- reductions -----------------------------------------------------------------------------------
def reduce_sum(x, axis=(), keep_dims=False):
    return _prim(R.ReduceSum, keep_dims)(x, axis)


def reduce_mean(x, axis=(), keep_dims=False):
    return _prim(R.ReduceMean, keep_dims)(x, axis)


def broadcast_to(x, shape):
    return _prim(A.BroadcastTo, tuple(shape))(x)
from mslab.ops.nn_functional import *  # noqa: E402,F401,F403
