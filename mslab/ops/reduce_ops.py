"""Reductions over axes: ReduceSum, ReduceMean, ReduceMax, ... (``keep_dims`` as in MindSpore), and Argmax.

An empty axis tuple means every axis. The bprop of a sum spreads dout back over the reduced axes
(reshape to keep the reduced axes as 1, then broadcast); a mean also divides by the count; a max
sends dout to the positions that hold the maximum, split evenly between ties.
"""
import math

import numpy as np

from mslab.core import dtype as mstype
from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor
from mslab.ops.primitive import Primitive, instance, normalize_axis, np_dtype

__all__ = [
    "ArgMaxWithValue",
    "ArgMinWithValue",
    "Argmax",
    "Argmin",
    "ReduceAll",
    "ReduceAny",
    "ReduceMax",
    "ReduceMean",
    "ReduceMin",
    "ReduceProd",
    "ReduceSum",
]



def _static_axes(ins):
    """The normalised axes of a reduction node, worked out once (the axis is a constant input)."""
    return normalize_axis(ins[1] if len(ins) > 1 else (), len(ins[0].shape))


def _kept_shape(x, axis, axes=None):
    """x's shape with the reduced axes kept as 1 (the shape of a ``keep_dims=True`` reduction); ``axes``: the
    normalised axes, when the caller has them already."""
    if axes is None:
        axes = normalize_axis(axis, len(x.shape))
    return tuple(1 if i in axes else s for i, s in enumerate(x.shape))


class _Reduce(Primitive):
    n_tensors = 1

    def __init__(self, keep_dims=False):
        super().__init__(keep_dims=bool(keep_dims))

    def prepare(self, args):
        if len(args) == 1:
            return (args[0], ())
        x, axis = args
        if axis is None:
            axis = ()
        elif isinstance(axis, list):
            axis = tuple(axis)
        return x, axis

    def _out_shape(self, x, axis):
        axes = normalize_axis(axis, len(x.shape), self.name)
        if self.keep_dims:
            return tuple(1 if i in axes else s for i, s in enumerate(x.shape)), axes
        return tuple(s for i, s in enumerate(x.shape) if i not in axes), axes

    def infer(self, x, axis=()):
        return self._out_shape(x, axis)[0], x.dtype

    def _spread(self, x, axis, dout, axes=None):
        """dout broadcast back to x's shape (``axes``: the normalised axes, when the caller has them)."""
        return op_table.broadcast_to(op_table.reshape(dout, _kept_shape(x, axis, axes)), tuple(x.shape))


class ReduceSum(_Reduce):
    """Sum over ``axis``.  d/dx = dout broadcast back over the summed axes."""

    def compute(self, x, axis=()):
        axes = normalize_axis(axis, x.ndim)
        return np.asarray(np.sum(x, axis=axes, keepdims=self.keep_dims, dtype=x.dtype))

    def kernel(self, ins):
        axes, keep, dt = _static_axes(ins), self.keep_dims, ins[0].dtype
        return lambda x: np.asarray(np.sum(x, axis=axes, keepdims=keep, dtype=dt))

    def bprop(self, x, axis, out, dout):
        return self._spread(x, axis, dout), None


class ReduceMean(_Reduce):
    """Mean over ``axis``.  d/dx = dout / count, broadcast back."""

    def compute(self, x, axis=()):
        return _mean(x, normalize_axis(axis, x.ndim), self.keep_dims)

    def kernel(self, ins):
        axes, keep = _static_axes(ins), self.keep_dims
        return lambda x: _mean(x, axes, keep)

    def bprop(self, x, axis, out, dout):
        axes = normalize_axis(axis, len(x.shape))
        count = math.prod(x.shape[i] for i in axes)
        return self._spread(x, axis, dout / float(count), axes), None


def _mean(x, axes, keep):
    """``np.mean(x, axes, dtype=x.dtype)`` as numpy computes it (a sum in x's dtype, then one division by the
    count), without np.mean's Python-level bookkeeping, which costs more than the sum on small inputs."""
    total = np.add.reduce(x, axis=axes, dtype=x.dtype, keepdims=keep)
    count = math.prod(x.shape[i] for i in axes)
    if x.dtype.kind not in "fc":  # integer means come back in x's dtype, truncated as np.mean's cast does
        return np.asarray(np.true_divide(total, count), x.dtype)
    return np.asarray(np.true_divide(total, np.asarray(count, x.dtype)), x.dtype)


class ReduceProd(_Reduce):
    """Product over ``axis`` (``ops.ReduceProd(keep_dims=False)(x, axis)``).

    d/dx_j = dout * (product of the other elements), computed without dividing by x_j (so zeros in x
    are fine): the reduced axes are moved last and flattened to n, x is repeated n times, and row j
    has its j-th entry replaced by 1 before the product.
    """

    def compute(self, x, axis=()):
        axes = normalize_axis(axis, x.ndim)
        return np.asarray(np.prod(x, axis=axes, keepdims=self.keep_dims, dtype=x.dtype))

    def bprop(self, x, axis, out, dout):
        axes = normalize_axis(axis, len(x.shape))
        kept = [i for i in range(len(x.shape)) if i not in axes]
        perm = tuple(kept) + axes
        moved = op_table.transpose(x, perm) if perm != tuple(range(len(perm))) else x
        rest = tuple(x.shape[i] for i in kept)
        n = int(np.prod([x.shape[i] for i in axes], dtype=np.int64))
        if n == 0:
            return op_table.zeros_like(x), None
        rows = op_table.broadcast_to(op_table.reshape(moved, rest + (1, n)), rest + (n, n))
        eye = Tensor._wrap(np.eye(n, dtype=np.bool_))
        others = op_table.reduce_prod(op_table.select(eye, op_table.ones_like(rows), rows), -1, False)
        others = op_table.reshape(others, tuple(x.shape[i] for i in perm))
        inverse = tuple(int(i) for i in np.argsort(perm))
        others = op_table.transpose(others, inverse) if perm != tuple(range(len(perm))) else others
        return others * self._spread(x, axis, dout), None


class _ReduceExtreme(_Reduce):
    """Max / min over ``axis``.  d/dx = dout at the positions holding the extreme, split evenly on ties."""

    _np = None

    def infer(self, x, axis=()):
        shape, axes = self._out_shape(x, axis)
        if any(x.shape[i] == 0 for i in axes):
            raise ValueError(f"cannot take the {self.name[6:].lower()} over an empty axis of shape {tuple(x.shape)}")
        return shape, x.dtype

    def compute(self, x, axis=()):
        axes = normalize_axis(axis, x.ndim)
        return np.asarray(type(self)._np(x, axis=axes, keepdims=self.keep_dims))

    def bprop(self, x, axis, out, dout):
        kept = _kept_shape(x, axis)
        hit = op_table.cast(x == out.reshape(kept), x.dtype)
        count = op_table.reduce_sum(hit, axis, True)
        return hit * dout.reshape(kept) / count, None


class ReduceMax(_ReduceExtreme):
    """Largest element over ``axis`` (``ops.ReduceMax(keep_dims=False)(x, axis)``)."""

    _np = np.max


class ReduceMin(_ReduceExtreme):
    """Smallest element over ``axis`` (``ops.ReduceMin(keep_dims=False)(x, axis)``)."""

    _np = np.min


class _ReduceLogical(_Reduce):
    """All / any over ``axis``: Bool results (non-zero counts as true); no gradient."""

    differentiable = False
    _np = None

    def infer(self, x, axis=()):
        return self._out_shape(x, axis)[0], np.dtype(np.bool_)

    def compute(self, x, axis=()):
        axes = normalize_axis(axis, x.ndim)
        return np.asarray(type(self)._np(x, axis=axes, keepdims=self.keep_dims))

    def bprop(self, x, axis, out, dout):
        return op_table.zeros_like(x), None


class ReduceAll(_ReduceLogical):
    """True where every element over ``axis`` is true (``ops.ReduceAll(keep_dims)(x, axis)``)."""

    _np = np.all


class ReduceAny(_ReduceLogical):
    """True where some element over ``axis`` is true (``ops.ReduceAny(keep_dims)(x, axis)``)."""

    _np = np.any


# ---- index of the extreme -----------------------------------------------------------------------
class Argmax(Primitive):
    """Index of the largest element along ``axis``: ``ops.Argmax(axis=-1, output_type=mstype.int32)(x)``.

    The first index wins on ties. Integer output, so no gradient.
    """

    n_tensors = 1
    differentiable = False
    _np = staticmethod(np.argmax)

    def __init__(self, axis=-1, output_type=mstype.int32):
        super().__init__(axis=int(axis), output_type=mstype.from_numpy(np_dtype(output_type)))
        if np_dtype(output_type).kind not in "iu":
            raise TypeError(f"{self.name}: output_type must be an integer type, got {output_type}")

    def _axis(self, x):
        nd = len(x.shape)
        if nd == 0:
            raise ValueError(f"{self.name} needs a tensor of rank >= 1, got a 0-d tensor")
        if not -nd <= self.axis < nd:
            raise ValueError(f"axis {self.axis} is out of range for a tensor of rank {nd}")
        return self.axis % nd

    def infer(self, x):
        axis = self._axis(x)
        if x.shape[axis] == 0:
            raise ValueError(f"cannot take {self.name} over an empty axis of shape {tuple(x.shape)}")
        return tuple(s for i, s in enumerate(x.shape) if i != axis), np_dtype(self.output_type)

    def compute(self, x):
        return np.asarray(type(self)._np(x, axis=self._axis(x)), np_dtype(self.output_type))

    def bprop(self, x, out, dout):
        return (op_table.zeros_like(x),)


class Argmin(Argmax):
    """Index of the smallest element along ``axis``: ``ops.Argmin(axis=-1, output_type=mstype.int32)(x)``."""

    _np = staticmethod(np.argmin)


class ArgMaxWithValue:
    """``ops.ArgMaxWithValue(axis=0, keep_dims=False)(x)`` -> (index Int32, value).

    Two outputs, so not one graph node: an Argmax and a ReduceMax (the value carries the gradient).
    """

    _arg, _reduce = Argmax, ReduceMax

    def __init__(self, axis=0, keep_dims=False):
        self.axis = int(axis)
        self.keep_dims = bool(keep_dims)

    def __call__(self, x):
        index = instance(self._arg, self.axis, mstype.int32)(x)
        value = instance(self._reduce, self.keep_dims)(x, self.axis)
        if self.keep_dims:
            index = op_table.expand_dims(index, self.axis)
        return index, value

    def __repr__(self):
        return f"{type(self).__name__}(axis={self.axis}, keep_dims={self.keep_dims})"


class ArgMinWithValue(ArgMaxWithValue):
    """``ops.ArgMinWithValue(axis=0, keep_dims=False)(x)`` -> (index Int32, value)."""

    _arg, _reduce = Argmin, ReduceMin


# ---- functional forms ---------------------------------------------------------------------------------
def reduce_sum(x, axis=(), keep_dims=False):
    """Sum over ``axis`` (every axis for ``()``)."""
    return instance(ReduceSum, keep_dims)(x, axis)


def reduce_mean(x, axis=(), keep_dims=False):
    """Mean over ``axis`` (every axis for ``()``)."""
    return instance(ReduceMean, keep_dims)(x, axis)


def reduce_prod(x, axis=(), keep_dims=False):
    """Product over ``axis`` (every axis for ``()``)."""
    return instance(ReduceProd, bool(keep_dims))(x, axis)


def reduce_max(x, axis=(), keep_dims=False):
    """Maximum over ``axis`` (every axis for ``()``)."""
    return instance(ReduceMax, bool(keep_dims))(x, axis)


def reduce_min(x, axis=(), keep_dims=False):
    """Minimum over ``axis`` (every axis for ``()``)."""
    return instance(ReduceMin, bool(keep_dims))(x, axis)


def reduce_all(x, axis=(), keep_dims=False):
    """Logical and over ``axis``."""
    return instance(ReduceAll, bool(keep_dims))(x, axis)


def reduce_any(x, axis=(), keep_dims=False):
    """Logical or over ``axis``."""
    return instance(ReduceAny, bool(keep_dims))(x, axis)


def _arg_extreme(cls, x, axis, keepdims):
    if axis is None:
        out = instance(cls, 0, mstype.int64)(op_table.reshape(x, (-1,)))
        return op_table.reshape(out, (1,) * len(x.shape)) if keepdims else out
    out = instance(cls, int(axis), mstype.int64)(x)
    return op_table.expand_dims(out, axis) if keepdims else out


def argmax(x, axis=None, keepdims=False):
    """Index (Int64) of the largest element along ``axis``; None means over the flattened tensor."""
    return _arg_extreme(Argmax, x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    """Index (Int64) of the smallest element along ``axis``; None means over the flattened tensor."""
    return _arg_extreme(Argmin, x, axis, keepdims)


def _dim(dim):
    return () if dim is None else tuple(dim) if isinstance(dim, list) else dim


def sum(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A001,A002 - MindSpore's names
    """Sum over ``dim`` (every axis for None), optionally cast to ``dtype`` first (``ops.sum``, ``mint.sum``).

    Bool and integer inputs sum to Int64 (observed on MindSpore 2.10 CPU, for bool, uint8 and int8..int64).
    """
    if dtype is None and input.dtype.np.kind in "biu":
        dtype = mstype.int64
    if dtype is not None:
        input = op_table.cast(input, dtype)
    return reduce_sum(input, _dim(dim), keepdim)


def prod(input, dim=None, keepdim=False, dtype=None):  # noqa: A002 - MindSpore's names
    """Product over ``dim`` (every axis for None), optionally cast to ``dtype`` first (``ops.prod``)."""
    if dtype is not None:
        input = op_table.cast(input, dtype)
    return reduce_prod(input, _dim(dim), keepdim)


def mean(x, axis=None, keep_dims=False):
    """Mean over ``axis`` (every axis for None), as ``ops.mean``: ReduceMean under MindSpore 2.10's name."""
    return reduce_mean(x, _dim(axis), keep_dims)


def max(input, axis=None, keepdims=False, *, initial=None, where=None):  # noqa: A001,A002 - MindSpore's names
    """(values, indices Int64) of the largest elements along ``axis`` (``ops.max``).

    Without an axis the value is the largest of all elements and the index is 0: that is what
    MindSpore 2.10 returns (observed on CPU), not the flat position.
    """
    if initial is not None or where is not None:
        raise NotImplementedError("ops.max: 'initial' and 'where' are not supported by mslab")
    if axis is None:
        value = reduce_max(input, (), keepdims)
        return value, op_table.zeros(tuple(value.shape), mstype.int64)
    index, value = ArgMaxWithValue(axis, keepdims)(input)
    return value, op_table.cast(index, mstype.int64)


def amax(input, axis=None, keepdims=False, *, initial=None, where=None):  # noqa: A002 - MindSpore's names
    """The largest element over ``axis`` (every axis for None or ()), as ``ops.amax``: ReduceMax under its 2.x
    name. On ties the gradient is split evenly among the tied elements (observed on MindSpore 2.10 CPU)."""
    if initial is not None or where is not None:
        raise NotImplementedError("ops.amax: 'initial' and 'where' are not supported by mslab")
    return reduce_max(input, _dim(axis), keepdims)


__all__ += ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_all", "reduce_any", "argmax", "argmin",
            "reduce_prod", "sum", "prod", "mean", "max", "amax"]
op_table.register(globals(), __all__)
