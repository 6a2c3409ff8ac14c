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
sin = M.Sin()
cos = M.Cos()
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
    from mslab.core.pytree import flatten
    effects, _ = flatten(expr)
    return _depend(value, *effects)


_mstype = A.mstype
_transpose = A.Transpose()
_expand_dims = A.ExpandDims()
_flatten = A.Flatten()
_getitem = A.GetItem()
_tile = A.Tile()
_gather = A.Gather()
_zeros = A.Zeros()
_ones = A.Ones()
_scalar_to_tensor = A.ScalarToTensor()
_tuple_to_array = A.TupleToArray()
_identity = A.Identity()


def identity(x):
    """x itself (``ops.identity``); a tuple of tensors comes back as a tuple (TrainOneStepCell's grad_reducer)."""
    if isinstance(x, (tuple, list)):
        return type(x)(identity(v) for v in x)
    return _identity(x)
_stop_gradient = A.StopGradient()
size = A.Size()
rank = A.Rank()


def transpose(x, perm):
    """x with its axes permuted (``ops.transpose(x, perm)``)."""
    return _transpose(x, perm)


def expand_dims(x, axis):
    """x with a new axis of size 1 at ``axis``."""
    return _expand_dims(x, axis)


def squeeze(x, axis=()):
    """x without size-1 axes (all of them for ``axis=()`` / None, else the ones named)."""
    if axis is None:
        axis = ()
    return _prim(A.Squeeze, tuple(axis) if isinstance(axis, list) else axis)(x)


def flatten(x, order="C", *, start_dim=1, end_dim=-1):
    """(N, ...) -> (N, product of the rest); other ``start_dim``/``end_dim`` merge just those axes."""
    if order != "C":
        raise ValueError(f"flatten: only order='C' is supported, got {order!r}")
    nd = len(x.shape)
    if (start_dim, end_dim) == (1, -1) and nd >= 1:
        return _flatten(x)
    if nd == 0:
        return reshape(x, (1,))
    s, e = start_dim % nd, end_dim % nd
    if s > e:
        raise ValueError(f"flatten: start_dim {start_dim} comes after end_dim {end_dim} for rank {nd}")
    shape = tuple(x.shape)
    return reshape(x, shape[:s] + (-1,) + shape[e + 1:])


def getitem(x, index):
    """``x[index]``: ints, slices (with steps), None, Ellipsis and integer tensors / lists (gathers)."""
    spec, tensors = A.normalize_index(index)
    return _getitem(x, *tensors, spec)


def getitem_grad(dout, index_tensors, spec, shape):
    """zeros(shape) with dout added at [spec] (GetItem's and Gather's backward: a scatter-add)."""
    return _prim(A.GetItemGrad, tuple(shape))(dout, *index_tensors, spec)


def concat(tensors, axis=0):
    """Tensors joined along ``axis`` (``ops.concat((x, y), axis)``)."""
    return _prim(A.Concat, int(axis))(tensors)


cat = concat


def stack(tensors, axis=0):
    """Tensors of one shape stacked along a new ``axis``."""
    return _prim(A.Stack, int(axis))(tensors)


def split(tensor, split_size_or_sections=None, axis=0, *, output_num=None):
    """A tuple of slices of ``tensor`` along ``axis``: chunks of an int size (the last may be smaller),
    or a list of sizes; ``output_num=n`` (MindSpore 1.x) gives n equal parts. Each slice is a GetItem."""
    dim = tensor.shape[axis]
    if output_num is not None:
        return A.Split(axis, output_num)(tensor)
    if split_size_or_sections is None:
        raise TypeError("split needs split_size_or_sections (an int or a list of sizes)")
    if isinstance(split_size_or_sections, int):
        step = split_size_or_sections
        if step <= 0:
            raise ValueError(f"split: split_size must be positive, got {step}")
        sizes = [min(step, dim - s) for s in range(0, dim, step)]
    else:
        sizes = [int(s) for s in split_size_or_sections]
        if sum(sizes) != dim:
            raise ValueError(f"split: sections {sizes} add up to {sum(sizes)}, not to axis {axis}'s size {dim}")
    ax = axis % len(tensor.shape)
    out, start = [], 0
    for n in sizes:
        out.append(getitem(tensor, (slice(None),) * ax + (slice(start, start + n),)))
        start += n
    return tuple(out)


def tile(x, multiples):
    """x repeated ``multiples`` times along each axis."""
    return _tile(x, multiples)


def gather(input_params, input_indices, axis, batch_dims=0):
    """Slices of ``input_params`` along ``axis`` picked by integer ``input_indices``."""
    if batch_dims != 0:
        return _prim(A.Gather, batch_dims)(input_params, input_indices, axis)
    return _gather(input_params, input_indices, axis)


def one_hot(indices, depth, on_value=1, off_value=0, axis=-1):
    """One-hot encoding along ``axis``; its dtype is on_value's (Python floats give Float32)."""
    return _prim(A.OneHot, int(axis))(indices, depth, on_value, off_value)


def zeros(size, dtype=None):
    """A tensor of zeros (Float32 unless ``dtype`` says otherwise)."""
    return _zeros(size, dtype if dtype is not None else _mstype.float32)


def ones(shape, dtype=None):
    """A tensor of ones (Float32 unless ``dtype`` says otherwise)."""
    return _ones(shape, dtype if dtype is not None else _mstype.float32)


def stop_gradient(x):
    """x, with no gradient flowing back through it (tuples are handled element by element)."""
    if isinstance(x, (tuple, list)):
        return type(x)(stop_gradient(v) for v in x)
    return _stop_gradient(x)


def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """min(max(x, clip_value_min), clip_value_max), made of Maximum and Minimum so gradients follow them
    (dout passes where x is inside the range, including ties at the bounds); a bound of None is not applied."""
    if clip_value_min is None and clip_value_max is None:
        raise ValueError("clip_by_value needs clip_value_min or clip_value_max")
    if isinstance(x, (tuple, list)):
        return type(x)(clip_by_value(v, clip_value_min, clip_value_max) for v in x)
    out = x
    if clip_value_min is not None:
        out = maximum(out, clip_value_min)
    if clip_value_max is not None:
        out = minimum(out, clip_value_max)
    return out


def tuple_to_array(input_x):
    """A constant tuple of numbers as a 1-D tensor (Int64 when the first is an int, else Float32)."""
    return _tuple_to_array(input_x)


def scalar_to_tensor(input_x, dtype=_mstype.float32):
    """A Python number as a 0-d tensor of ``dtype`` (Float32 by default)."""
    return _scalar_to_tensor(input_x, dtype)


# ---- reductions -----------------------------------------------------------------------------------
def reduce_sum(x, axis=(), keep_dims=False):
    return _prim(R.ReduceSum, keep_dims)(x, axis)


def reduce_mean(x, axis=(), keep_dims=False):
    return _prim(R.ReduceMean, keep_dims)(x, axis)


def reduce_max(x, axis=(), keep_dims=False):
    return _prim(R.ReduceMax, bool(keep_dims))(x, axis)


def reduce_min(x, axis=(), keep_dims=False):
    return _prim(R.ReduceMin, bool(keep_dims))(x, axis)


def reduce_all(x, axis=(), keep_dims=False):
    return _prim(R.ReduceAll, bool(keep_dims))(x, axis)


def reduce_any(x, axis=(), keep_dims=False):
    return _prim(R.ReduceAny, bool(keep_dims))(x, axis)


def _arg_extreme(cls, x, axis, keepdims):
    if axis is None:
        out = _prim(cls, 0, _mstype.int64)(reshape(x, (-1,)))
        return reshape(out, (1,) * len(x.shape)) if keepdims else out
    out = _prim(cls, int(axis), _mstype.int64)(x)
    return expand_dims(out, axis) if keepdims else out


def argmax(x, axis=None, keepdims=False):
    """Index (Int64) of the largest element along ``axis``; None means over the flattened tensor."""
    return _arg_extreme(R.Argmax, x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    """Index (Int64) of the smallest element along ``axis``; None means over the flattened tensor."""
    return _arg_extreme(R.Argmin, x, axis, keepdims)


def broadcast_to(x, shape):
    return _prim(A.BroadcastTo, tuple(shape))(x)
from mslab.ops.composite_ops import partial  # noqa: E402,F401  (F.partial, as the seeds write it)
from mslab.ops.nn_functional import *  # noqa: E402,F401,F403
