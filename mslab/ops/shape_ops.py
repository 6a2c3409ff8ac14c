"""Shape-changing array ops: Reshape, BroadcastTo, Transpose, ExpandDims, Squeeze, Flatten, Tile, Concat, Stack, Split.

Each moves or copies elements without computing new values, so each bprop moves the gradient back:
a transpose by the inverse permutation, a concat by slicing, a tile by summing the copies.
"""
import math

import numpy as np

from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor
from mslab.ops.primitive import Primitive, broadcast_shape, check_same_dtype, instance, sum_to

__all__ = [
    "BroadcastTo",
    "Reshape",
    "Concat",
    "ExpandDims",
    "Flatten",
    "Split",
    "Squeeze",
    "Stack",
    "Tile",
    "Transpose",
]



# ---- shape changes ------------------------------------------------------------------------------
def _check_axis(axis, ndim, what="axis"):
    """A single axis in [-ndim, ndim) as a non-negative int, or a ValueError that says the range."""
    if isinstance(axis, (bool, np.bool_)) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"{what} must be an int, got {type(axis).__name__}")
    axis = int(axis)
    if not -ndim <= axis < ndim:
        raise ValueError(f"{what} {axis} is out of range for a tensor of rank {ndim} (valid: {-ndim}..{ndim - 1})")
    return axis % ndim


class Reshape(Primitive):
    """x viewed with a new shape (one -1 allowed).  d/dx = reshape(dout, x.shape)."""

    n_tensors = 1

    def infer(self, x, shape):
        shape = tuple(map(int, shape))
        size = math.prod(x.shape)  # Python ints: exact, and a tenth of np.prod's cost on a short tuple
        if shape.count(-1) > 1:
            raise ValueError(f"Reshape: at most one -1 in the new shape {shape}")
        if -1 in shape:
            rest = math.prod(s for s in shape if s != -1)
            if rest == 0 or size % rest:
                raise ValueError(f"Reshape: cannot reshape {tuple(x.shape)} ({size} elements) to {shape}")
            shape = tuple(size // rest if s == -1 else s for s in shape)
        elif math.prod(shape) != size:
            raise ValueError(f"Reshape: cannot reshape {tuple(x.shape)} ({size} elements) to {shape}")
        return shape, x.dtype

    def compute(self, x, shape):
        # A copy, not a view: a view of a Parameter would change when an optimizer's Assign writes it.
        return x.reshape(shape).copy()

    def kernel(self, ins):
        shape = self.infer(*ins)[0]  # the -1 resolved once
        return lambda x: np.reshape(x, shape).copy()

    def bprop(self, x, shape, out, dout):
        return dout.reshape(x.shape), None



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
        return _broadcast_copy(x, self.infer(x)[0] if -1 in self.shape else self.shape)

    def kernel(self, ins):
        shape = self.infer(*ins)[0]
        return lambda x: _broadcast_copy(x, shape)

    def bprop(self, x, out, dout):
        return (sum_to(dout, x.shape),)


def _broadcast_copy(x, shape):
    """x broadcast to ``shape`` as a writable copy (np.broadcast_to alone gives a read-only view of x's memory),
    written into an empty array: broadcasting assignment costs less than np.broadcast_to on small inputs."""
    out = np.empty(shape, x.dtype)
    out[...] = x
    return out


class Transpose(Primitive):
    """x with its axes permuted: ``ops.Transpose()(x, perm)``.  d/dx = transpose(dout, inverse(perm))."""

    n_tensors = 1

    def prepare(self, args):
        x, perm = args
        return x, tuple(int(p) for p in perm)

    def _perm(self, x, perm):
        nd = len(x.shape)
        if len(perm) != nd:
            raise ValueError(f"perm {perm} has {len(perm)} entries but the input has rank {nd}")
        norm = tuple(_check_axis(p, nd, "perm entry") for p in perm)
        if sorted(norm) != list(range(nd)):
            raise ValueError(f"perm {perm} is not a permutation of the axes 0..{nd - 1}")
        return norm

    def infer(self, x, perm):
        perm = self._perm(x, perm)
        return tuple(x.shape[p] for p in perm), x.dtype

    def compute(self, x, perm):
        return np.transpose(x, self._perm(x, perm)).copy()

    def kernel(self, ins):
        perm = self._perm(*ins)
        return lambda x: np.transpose(x, perm).copy()

    def bprop(self, x, perm, out, dout):
        perm = self._perm(x, perm)
        inverse = tuple(int(i) for i in np.argsort(perm))
        return dout.transpose(inverse), None


class ExpandDims(Primitive):
    """x with a new axis of size 1 at ``axis`` (``ops.ExpandDims()(x, axis)``).  d/dx = reshape(dout, x.shape)."""

    n_tensors = 1

    def infer(self, x, axis):
        nd = len(x.shape) + 1
        axis = _check_axis(axis, nd)
        shape = tuple(x.shape)
        return shape[:axis] + (1,) + shape[axis:], x.dtype

    def compute(self, x, axis):
        return np.expand_dims(x, _check_axis(axis, x.ndim + 1)).copy()

    def bprop(self, x, axis, out, dout):
        return dout.reshape(x.shape), None


class Squeeze(Primitive):
    """x without axes of size 1 (``ops.Squeeze(axis=())``: () removes every size-1 axis).

    d/dx = reshape(dout, x.shape).
    """

    n_tensors = 1

    def __init__(self, axis=()):
        if axis is None:
            axis = ()
        if isinstance(axis, (list, tuple)):
            axis = tuple(int(a) for a in axis)
        else:
            axis = int(axis)
        super().__init__(axis=axis)

    def _axes(self, shape):
        nd = len(shape)
        if self.axis == ():
            return tuple(i for i, s in enumerate(shape) if s == 1)
        axes = (self.axis,) if isinstance(self.axis, int) else self.axis
        axes = tuple(sorted({_check_axis(a, nd) for a in axes}))
        for a in axes:
            if shape[a] != 1:
                raise ValueError(f"cannot squeeze axis {a} of shape {tuple(shape)}: its size is {shape[a]}, not 1")
        return axes

    def infer(self, x):
        axes = self._axes(tuple(x.shape))
        return tuple(s for i, s in enumerate(x.shape) if i not in axes), x.dtype

    def compute(self, x):
        return np.squeeze(x, self._axes(x.shape)).copy()

    def bprop(self, x, out, dout):
        return (dout.reshape(x.shape),)


class Flatten(Primitive):
    """(N, ...) -> (N, product of the rest) (``ops.Flatten()(x)``).  d/dx = reshape(dout, x.shape)."""

    n_tensors = 1

    def infer(self, x):
        if len(x.shape) == 0:
            raise ValueError("Flatten needs a tensor of rank >= 1, got a 0-d tensor")
        return (x.shape[0], math.prod(x.shape[1:])), x.dtype

    def compute(self, x):
        return np.reshape(x, self.infer(x)[0]).copy()

    def bprop(self, x, out, dout):
        return (dout.reshape(x.shape),)


class Tile(Primitive):
    """x repeated ``multiples`` times along each axis (``ops.Tile()(x, multiples)``).

    d/dx: view dout as (m0, s0, m1, s1, ...) and sum over the repeat axes m_i.
    """

    n_tensors = 1

    def prepare(self, args):
        x, multiples = args
        if isinstance(multiples, (int, np.integer)):
            multiples = (multiples,)
        return x, tuple(int(m) for m in multiples)

    def _padded(self, x, multiples):
        shape = tuple(x.shape)
        if len(multiples) < len(shape):
            raise ValueError(f"multiples {multiples} has {len(multiples)} entries, fewer than the input's rank "
                             f"{len(shape)}")
        if any(m < 1 for m in multiples):
            raise ValueError(f"multiples must be positive, got {multiples}")
        return (1,) * (len(multiples) - len(shape)) + shape

    def infer(self, x, multiples):
        padded = self._padded(x, multiples)
        return tuple(s * m for s, m in zip(padded, multiples)), x.dtype

    def compute(self, x, multiples):
        self._padded(x, multiples)
        return np.tile(x, multiples)

    def bprop(self, x, multiples, out, dout):
        padded = self._padded(x, multiples)
        split = tuple(d for m, s in zip(multiples, padded) for d in (m, s))
        g = dout.reshape(split).sum(tuple(range(0, len(split), 2)))
        return g.reshape(x.shape), None


# ---- joining and splitting ------------------------------------------------------------------------
class _Join(Primitive):
    """Concat / Stack: called with ONE tuple of tensors, recorded with the tensors as separate inputs."""

    n_tensors = None

    def __init__(self, axis=0):
        super().__init__(axis=int(axis))

    def __call__(self, tensors):
        if isinstance(tensors, Tensor) or not isinstance(tensors, (tuple, list)):
            raise TypeError(f"{self.name} takes a tuple or list of tensors: ops.{self.name}(axis)((x, y)), "
                            f"got {type(tensors).__name__}")
        if not tensors:
            raise ValueError(f"{self.name} needs at least one tensor, got an empty {type(tensors).__name__}")
        tensors = tuple(t if isinstance(t, Tensor) else Tensor(t) for t in tensors)
        return super().__call__(*tensors)

    def _check(self, xs):
        check_same_dtype(self, *xs)


class Concat(_Join):
    """Tensors joined along an existing axis: ``ops.Concat(axis)((x, y))``.  d/dx_i = dout's slice for x_i."""

    def infer(self, *xs):
        self._check(xs)
        first = tuple(xs[0].shape)
        if not first:
            raise ValueError("Concat cannot join 0-d tensors (use Stack)")
        axis = _check_axis(self.axis, len(first))
        for i, x in enumerate(xs[1:], 1):
            s = tuple(x.shape)
            if len(s) != len(first) or s[:axis] + s[axis + 1:] != first[:axis] + first[axis + 1:]:
                raise ValueError(f"input {i} has shape {s}, which does not match input 0's {first} "
                                 f"outside axis {self.axis}")
        total = sum(x.shape[axis] for x in xs)
        return first[:axis] + (total,) + first[axis + 1:], xs[0].dtype

    def compute(self, *xs):
        return np.concatenate(xs, axis=self.axis)

    def bprop(self, *args):
        *xs, out, dout = args
        axis = self.axis % len(dout.shape)
        grads, start = [], 0
        for x in xs:
            n = x.shape[axis]
            grads.append(dout[(slice(None),) * axis + (slice(start, start + n),)])
            start += n
        return tuple(grads)


class Stack(_Join):
    """Tensors of one shape stacked along a new axis: ``ops.Stack(axis)((x, y))``.  d/dx_i = dout[..., i, ...]."""

    def infer(self, *xs):
        self._check(xs)
        first = tuple(xs[0].shape)
        for i, x in enumerate(xs[1:], 1):
            if tuple(x.shape) != first:
                raise ValueError(f"Stack needs tensors of one shape: input {i} has shape {tuple(x.shape)}, "
                                 f"input 0 has {first}")
        axis = _check_axis(self.axis, len(first) + 1)
        return first[:axis] + (len(xs),) + first[axis:], xs[0].dtype

    def compute(self, *xs):
        return np.stack(xs, axis=self.axis)

    def bprop(self, *args):
        *xs, out, dout = args
        axis = self.axis % len(dout.shape)
        return tuple(dout[(slice(None),) * axis + (i,)] for i in range(len(xs)))


class Split:
    """``ops.Split(axis=0, output_num=1)(x)`` -> a tuple of ``output_num`` equal slices along ``axis``.

    Primitives have one output, so this is not a graph node of its own: it is several GetItem slices.
    """

    def __init__(self, axis=0, output_num=1):
        self.axis = int(axis)
        self.output_num = int(output_num)

    def __call__(self, x):
        n = self.output_num
        size = x.shape[_check_axis(self.axis, len(x.shape))]
        if n < 1 or size % n:
            raise ValueError(f"Split: axis {self.axis} of shape {tuple(x.shape)} has size {size}, "
                             f"which cannot be split into {n} equal parts")
        return op_table.split(x, size // n, self.axis)

    def __repr__(self):
        return f"Split(axis={self.axis}, output_num={self.output_num})"


# ---- functional forms ---------------------------------------------------------------------------------
_reshape = Reshape()
_transpose = Transpose()
_expand_dims = ExpandDims()
_flatten = Flatten()
_tile = Tile()


def reshape(x, shape):
    """x with a new shape (one -1 allowed)."""
    return _reshape(x, tuple(shape) if not isinstance(shape, int) else (shape,))


def broadcast_to(x, shape):
    """x broadcast to ``shape`` (a -1 keeps that axis of x)."""
    return instance(BroadcastTo, tuple(shape))(x)


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
    return instance(Squeeze, tuple(axis) if isinstance(axis, list) else axis)(x)


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


def concat(tensors, axis=0):
    """Tensors joined along ``axis`` (``ops.concat((x, y), axis)``)."""
    return instance(Concat, int(axis))(tensors)


cat = concat


def stack(tensors, axis=0):
    """Tensors of one shape stacked along a new ``axis``."""
    return instance(Stack, int(axis))(tensors)


def hstack(tensors):
    """Tensors joined column-wise (``ops.hstack``): along axis 1, or axis 0 for 1-D tensors, as numpy's hstack."""
    tensors = tuple(tensors)
    return concat(tensors, 0 if all(len(t.shape) == 1 for t in tensors) else 1)


def vstack(inputs):
    """Tensors joined row-wise (``ops.vstack``): along axis 0, a 1-D tensor (n,) taken as a row (1, n)."""
    return concat(tuple(reshape(t, (1, -1)) if len(t.shape) == 1 else t for t in inputs), 0)


def split(tensor, split_size_or_sections=None, axis=0, *, output_num=None):
    """A tuple of slices of ``tensor`` along ``axis``: chunks of an int size (the last may be smaller),
    or a list of sizes; ``output_num=n`` (MindSpore 1.x) gives n equal parts. Each slice is a GetItem."""
    dim = tensor.shape[axis]
    if output_num is not None:
        return Split(axis, output_num)(tensor)
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
        out.append(op_table.getitem(tensor, (slice(None),) * ax + (slice(start, start + n),)))
        start += n
    return tuple(out)


def swapaxes(input, axis0, axis1):  # noqa: A002 - MindSpore's argument name
    """``input`` with axes ``axis0`` and ``axis1`` exchanged (a Transpose)."""
    nd = len(input.shape)
    perm = list(range(nd))
    a, b = _check_axis(axis0, nd), _check_axis(axis1, nd)
    perm[a], perm[b] = perm[b], perm[a]
    return transpose(input, tuple(perm))


def chunk(input, chunks, axis=0):  # noqa: A002 - MindSpore's argument name
    """``input`` cut into ``chunks`` slices along ``axis``, each ceil(size / chunks) long (the last may be
    shorter, and there may be fewer): ``ops.chunk``."""
    if int(chunks) <= 0:
        raise ValueError(f"chunk: chunks must be positive, got {chunks}")
    dim = input.shape[_check_axis(axis, len(input.shape))]
    return split(input, max(-(-dim // int(chunks)), 1), axis)


def tile(x, multiples):
    """x repeated ``multiples`` times along each axis."""
    return _tile(x, multiples)


__all__ += ["reshape", "broadcast_to", "transpose", "expand_dims", "squeeze", "flatten", "concat", "cat", "stack",
            "hstack", "vstack", "split", "tile", "chunk", "swapaxes"]
op_table.register(globals(), __all__)
