"""Array ops: shape changes, dtype casts, constant makers, selection and side effects.

Shape-only ops (``Shape``, ``DType``) are not graph nodes: in GRAPH mode shapes and dtypes are known
while tracing, so they return Python values at once, as MindSpore resolves them at compile time.
"""
import numpy as np

from mslab.common import dtype as mstype
from mslab.common.tensor import Tensor
from mslab.ops.primitive import Primitive, broadcast_shape, check_same_dtype, lift_scalars, np_dtype

__all__ = [
    "Assign",
    "BroadcastTo",
    "Cast",
    "Concat",
    "DType",
    "Depend",
    "ExpandDims",
    "Fill",
    "Flatten",
    "Gather",
    "GetItem",
    "GetItemGrad",
    "Identity",
    "OneHot",
    "Ones",
    "OnesLike",
    "Rank",
    "Reshape",
    "ScalarToTensor",
    "Select",
    "Shape",
    "Size",
    "Split",
    "Squeeze",
    "Stack",
    "StopGradient",
    "Tile",
    "Transpose",
    "TupleToArray",
    "Zeros",
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
        # A copy, not a view: a view of a Parameter would change when an optimizer's Assign writes it.
        return np.reshape(x, shape).copy()

    def kernel(self, ins):
        shape = self.infer(*ins)[0]  # the -1 resolved once
        return lambda x: np.reshape(x, shape).copy()

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
        # A writable copy (np.broadcast_to alone gives a read-only view sharing x's memory).
        return np.broadcast_to(x, self.infer(x)[0]).copy()

    def kernel(self, ins):
        shape = self.infer(*ins)[0]
        return lambda x: np.broadcast_to(x, shape).copy()

    def bprop(self, x, out, dout):
        from mslab.ops.math_ops import sum_to
        return (sum_to(dout, x.shape),)


# ---- shape changes ------------------------------------------------------------------------------
def _check_axis(axis, ndim, what="axis"):
    """A single axis in [-ndim, ndim) as a non-negative int, or a ValueError that says the range."""
    if isinstance(axis, (bool, np.bool_)) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"{what} must be an int, got {type(axis).__name__}")
    axis = int(axis)
    if not -ndim <= axis < ndim:
        raise ValueError(f"{what} {axis} is out of range for a tensor of rank {ndim} (valid: {-ndim}..{ndim - 1})")
    return axis % ndim


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
        return _F().transpose(dout, inverse), None


class ExpandDims(Primitive):
    """x with a new axis of size 1 at ``axis`` (``ops.ExpandDims()(x, axis)``).  d/dx = reshape(dout)."""

    n_tensors = 1

    def infer(self, x, axis):
        nd = len(x.shape) + 1
        axis = _check_axis(axis, nd)
        shape = tuple(x.shape)
        return shape[:axis] + (1,) + shape[axis:], x.dtype

    def compute(self, x, axis):
        return np.expand_dims(x, _check_axis(axis, x.ndim + 1)).copy()

    def bprop(self, x, axis, out, dout):
        return _F().reshape(dout, x.shape), None


class Squeeze(Primitive):
    """x without axes of size 1 (``ops.Squeeze(axis=())``: () removes every size-1 axis)."""

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
        return (_F().reshape(dout, x.shape),)


class Flatten(Primitive):
    """(N, ...) -> (N, product of the rest) (``ops.Flatten()(x)``).  d/dx = reshape(dout, x.shape)."""

    n_tensors = 1

    def infer(self, x):
        if len(x.shape) == 0:
            raise ValueError("Flatten needs a tensor of rank >= 1, got a 0-d tensor")
        return (x.shape[0], int(np.prod(x.shape[1:], dtype=np.int64))), x.dtype

    def compute(self, x):
        return np.reshape(x, self.infer(x)[0]).copy()

    def bprop(self, x, out, dout):
        return (_F().reshape(dout, x.shape),)


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
        F = _F()
        padded = self._padded(x, multiples)
        split = tuple(d for m, s in zip(multiples, padded) for d in (m, s))
        g = F.reduce_sum(F.reshape(dout, split), tuple(range(0, len(split), 2)), False)
        return F.reshape(g, x.shape), None


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
        xs, dout = args[:-2], args[-1]
        F = _F()
        axis = self.axis % len(dout.shape)
        grads, start = [], 0
        for x in xs:
            n = x.shape[axis]
            grads.append(F.getitem(dout, (slice(None),) * axis + (slice(start, start + n),)))
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
        xs, dout = args[:-2], args[-1]
        F = _F()
        axis = self.axis % len(dout.shape)
        return tuple(F.getitem(dout, (slice(None),) * axis + (i,)) for i in range(len(xs)))


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
        return _F().split(x, size // n, self.axis)

    def __repr__(self):
        return f"Split(axis={self.axis}, output_num={self.output_num})"


# ---- indexing ----------------------------------------------------------------------------------------
class _Slice(tuple):
    """A slice as a hashable constant (Python 3.11 slices cannot be hashed, so CSE could not key them)."""

    __slots__ = ()

    def __new__(cls, s):
        return tuple.__new__(cls, (s.start, s.stop, s.step))

    def __getnewargs__(self):
        return (slice(*self),)

    def to_slice(self):
        return slice(*self)

    def __repr__(self):
        a, b, c = ("" if v is None else str(v) for v in self)
        return f"{a}:{b}" + (f":{c}" if c else "")


class _TensorIndex:
    """The place of a tensor (integer array) index in an IndexSpec; the tensor itself is a node input."""

    __slots__ = ()

    def __repr__(self):
        return "<tensor>"

    def __reduce__(self):
        return "TENSOR_INDEX"


TENSOR_INDEX = _TensorIndex()


class IndexSpec(tuple):
    """A normalised ``x[...]`` index: ints, _Slice, None, Ellipsis and TENSOR_INDEX placeholders."""

    __slots__ = ()

    def __repr__(self):
        return "[" + ", ".join("..." if i is Ellipsis else repr(i) for i in self) + "]"

    @property
    def n_tensors(self):
        return sum(1 for i in self if i is TENSOR_INDEX)

    def key(self, arrays=()):
        """The numpy index, with ``arrays`` in the tensor places."""
        it = iter(arrays)
        return tuple(next(it) if i is TENSOR_INDEX else i.to_slice() if isinstance(i, _Slice) else i for i in self)


def _slice_part(v):
    if v is None:
        return None
    if isinstance(v, (bool, np.bool_)):
        raise TypeError("a slice bound cannot be a bool")
    return int(v)  # a symbolic Tensor raises GraphModeError here: slice bounds must be constants


def _int_index_tensor(item):
    """An integer index Tensor from a Tensor / list / numpy array; a 1-D boolean mask becomes positions."""
    if isinstance(item, Tensor):
        if item._np_dtype == np.bool_:
            if item.is_symbolic:
                from mslab.errors import GraphModeError
                raise GraphModeError("indexing with a boolean tensor gives a result whose shape depends on the "
                                     "values, which GRAPH mode cannot know while tracing; use ops.select(mask, x, "
                                     "zeros) or integer indices")
            item = item.asnumpy()
        else:
            if item._np_dtype.kind not in "iu":
                raise TypeError(f"a tensor used as an index must be integer or bool, got {item.dtype}")
            return item
    arr = np.asarray(item)
    if arr.size == 0:
        arr = arr.astype(np.int64)
    if arr.dtype == np.bool_:
        if arr.ndim != 1:
            raise TypeError("only 1-D boolean masks are supported as an index")
        arr = np.flatnonzero(arr)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"an index list must hold integers or bools, got {arr.dtype}")
    return Tensor._wrap(arr.astype(np.int64))


def normalize_index(index):
    """``x[index]`` -> (IndexSpec, index tensors): the constant part and the tensor inputs of GetItem."""
    if not isinstance(index, tuple):
        index = (index,)
    items, tensors = [], []
    for i in index:
        if i is None or i is Ellipsis:
            items.append(i)
        elif isinstance(i, (bool, np.bool_)):
            raise TypeError("a Python bool is not a valid tensor index")
        elif isinstance(i, (int, np.integer)):
            items.append(int(i))
        elif isinstance(i, slice):
            items.append(_Slice(slice(_slice_part(i.start), _slice_part(i.stop), _slice_part(i.step))))
        elif isinstance(i, (Tensor, list, np.ndarray)):
            tensors.append(_int_index_tensor(i))
            items.append(TENSOR_INDEX)
        else:
            raise TypeError(f"unsupported index {i!r} of type {type(i).__name__}: use ints, slices, None, ..., "
                            f"or integer tensors / lists")
    return IndexSpec(items), tensors


def _index_shape(shape, spec, index_tensors):
    """The shape of ``x[spec]`` for an x of ``shape``, found by indexing a zero-size probe."""
    for t in index_tensors:
        if t.dtype.kind not in "iu":
            raise TypeError(f"an index tensor must be integer, got {mstype.from_numpy(t.dtype)}")
    probe = np.broadcast_to(np.zeros((), np.bool_), tuple(shape))
    try:
        return probe[spec.key([np.zeros(t.shape, np.intp) for t in index_tensors])].shape
    except IndexError as e:
        raise ValueError(f"index {spec!r} does not fit a tensor of shape {tuple(shape)}: {e}") from None


class GetItem(Primitive):
    """``x[index]`` (``Tensor.__getitem__``; functional ``getitem(x, index)``).

    Inputs: x, then one integer tensor per tensor/list index, then the constant IndexSpec.
    d/dx = dout scattered back into zeros of x's shape (GetItemGrad), adding where indices repeat.
    """

    n_tensors = None

    def infer(self, x, *rest):
        spec, idx = rest[-1], rest[:-1]
        return _index_shape(x.shape, spec, idx), x.dtype

    def compute(self, x, *rest):
        spec, idx = rest[-1], rest[:-1]
        out = x[spec.key(idx)]
        return out if idx else np.array(out)  # basic indexing gives a view: copy it

    def bprop(self, x, *rest):
        spec, idx = rest[-3], rest[:-3]
        dout = rest[-1]
        dx = _F().getitem_grad(dout, idx, spec, x.shape)
        return (dx,) + (None,) * len(idx) + (None,)


class GetItemGrad(Primitive):
    """zeros(shape) with ``dout`` added at ``[index]`` (scatter-add): the backward of GetItem and Gather.

    ``GetItemGrad(shape)(dout, *index_tensors, spec)``.  d/d(dout) = getitem(d, index).
    """

    n_tensors = None

    def __init__(self, shape):
        super().__init__(shape=tuple(int(s) for s in shape))

    def infer(self, dout, *rest):
        spec, idx = rest[-1], rest[:-1]
        want = _index_shape(self.shape, spec, idx)
        if tuple(dout.shape) != want:
            raise ValueError(f"dout has shape {tuple(dout.shape)} but {spec!r} of shape {self.shape} gives {want}")
        return self.shape, dout.dtype

    def compute(self, dout, *rest):
        spec, idx = rest[-1], rest[:-1]
        z = np.zeros(self.shape, dout.dtype)
        if idx:
            np.add.at(z, spec.key(idx), dout)
        else:
            z[spec.key()] = dout
        return z

    def bprop(self, dout, *rest):
        spec, idx = rest[-3], rest[:-3]
        d = rest[-1]
        return (_F()._getitem(d, *idx, spec),) + (None,) * len(idx) + (None,)


class Gather(Primitive):
    """Slices of ``params`` along ``axis`` picked by integer ``indices``: ``ops.Gather()(params, indices, axis)``.

    Output shape: params.shape[:axis] + indices.shape + params.shape[axis+1:].
    d/d(params) = dout scattered back (added where indices repeat); indices get no gradient.
    """

    n_tensors = 2

    def __init__(self, batch_dims=0):
        if batch_dims != 0:
            raise NotImplementedError("Gather: only batch_dims=0 is supported")
        super().__init__()

    def _spec(self, params, axis):
        axis = _check_axis(axis, len(params.shape))
        return IndexSpec((_Slice(slice(None)),) * axis + (TENSOR_INDEX,)), axis

    def infer(self, params, indices, axis):
        if indices.dtype.kind not in "iu":
            raise TypeError(f"Gather needs integer indices, got {mstype.from_numpy(indices.dtype)}")
        _, axis = self._spec(params, axis)
        s = tuple(params.shape)
        return s[:axis] + tuple(indices.shape) + s[axis + 1:], params.dtype

    def compute(self, params, indices, axis):
        return np.take(params, indices, axis=self._spec(params, axis)[1])

    def bprop(self, params, indices, axis, out, dout):
        spec, _ = self._spec(params, axis)
        return _F().getitem_grad(dout, (indices,), spec, params.shape), None, None


class OneHot(Primitive):
    """``ops.OneHot(axis=-1)(indices, depth, on_value, off_value)``: on_value where the position equals
    the index, off_value elsewhere (indices outside [0, depth) give a row of off_value). No gradient."""

    n_tensors = None
    differentiable = False

    def __init__(self, axis=-1):
        super().__init__(axis=int(axis))

    def prepare(self, args):
        indices, depth, on_value, off_value = args
        if isinstance(depth, Tensor):
            depth = int(depth)
        on_value, off_value = lift_scalars((on_value, off_value), 2)
        return indices, int(depth), on_value, off_value

    def _axis(self, nd):
        return _check_axis(self.axis, nd + 1)

    def infer(self, indices, depth, on_value, off_value):
        if indices.dtype.kind not in "iu":
            raise TypeError(f"OneHot needs integer indices, got {mstype.from_numpy(indices.dtype)}")
        if depth < 0:
            raise ValueError(f"depth must be >= 0, got {depth}")
        if tuple(on_value.shape) != () or tuple(off_value.shape) != ():
            raise ValueError(f"on_value and off_value must be scalars, got shapes {tuple(on_value.shape)} and "
                             f"{tuple(off_value.shape)}")
        shape = tuple(indices.shape)
        axis = self._axis(len(shape))
        return shape[:axis] + (depth,) + shape[axis:], on_value.dtype

    def compute(self, indices, depth, on_value, off_value):
        hot = np.expand_dims(indices, -1) == np.arange(depth)
        hot = np.moveaxis(hot, -1, self._axis(indices.ndim))
        return np.where(hot, on_value, off_value.astype(on_value.dtype))

    def bprop(self, indices, depth, on_value, off_value, out, dout):
        F = _F()
        return F.zeros_like(indices), None, F.zeros_like(on_value), F.zeros_like(off_value)


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
        return (_F().zeros_like(x),)


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
