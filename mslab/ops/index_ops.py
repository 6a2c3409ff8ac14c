"""Indexing ops: ``x[index]`` (GetItem) and its scatter-add gradient (GetItemGrad), Gather, OneHot.

``Tensor.__getitem__`` normalises any numpy-style index (ints, slices, None, Ellipsis, integer lists or
tensors) into a hashable constant that prints in the IR; the gradient scatters dout back into zeros.
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core.errors import GraphModeError
from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor
from mslab.ops.primitive import Primitive, instance, lift_scalars
from mslab.ops.shape_ops import _check_axis

__all__ = [
    "Gather",
    "GatherNd",
    "GatherV2",
    "GetItem",
    "GetItemGrad",
    "OneHot",
    "SetItem",
]



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


def _int_index_tensors(item):
    """Integer index Tensors from a Tensor / list / numpy array: one, or for a boolean mask of rank k the
    k position arrays of its True entries (``np.nonzero``), which index exactly as the mask does in numpy."""
    if isinstance(item, Tensor):
        if item._np_dtype == np.bool_:
            if item.is_symbolic:
                raise GraphModeError("indexing with a boolean tensor gives a result whose shape depends on the "
                                     "values; mslab's graphs have static shapes, so its GRAPH mode refuses it "
                                     "(MindSpore 2.10 compiles such dynamic shapes). Use ops.select(mask, x, zeros) "
                                     "or integer indices, or PYNATIVE mode")
            item = item.asnumpy()
        else:
            if item._np_dtype.kind not in "iu":
                raise TypeError(f"a tensor used as an index must be integer or bool, got {item.dtype}")
            return [item]
    arr = np.asarray(item)
    if arr.size == 0:
        arr = arr.astype(np.int64)
    if arr.dtype == np.bool_:
        if arr.ndim == 0:
            raise TypeError("a 0-d boolean mask is not a valid tensor index; use a mask with one entry per element")
        return [Tensor._wrap(a.astype(np.int64)) for a in np.nonzero(arr)]
    if arr.dtype.kind not in "iu":
        raise TypeError(f"an index list must hold integers or bools, got {arr.dtype}")
    return [Tensor._wrap(arr.astype(np.int64))]


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
            found = _int_index_tensors(i)
            tensors.extend(found)
            items.extend([TENSOR_INDEX] * len(found))
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
        *idx, spec, out, dout = rest
        return (getitem_grad(dout, tuple(idx), spec, x.shape), *(None for _ in idx), None)


class SetItem(Primitive):
    """A copy of x with ``value`` written at ``[index]``: ``x[index] = value`` inside a graph (MindSpore's
    graph gives the variable a new tensor; the caller's tensor is unchanged).

    Inputs: x, value (broadcast to the indexed region, cast to x's dtype), one integer tensor per tensor
    index, then the constant IndexSpec.
    d/dx = dout with zeros at [index] (those elements were overwritten); d/dvalue = dout[index].
    """

    n_tensors = None

    def infer(self, x, value, *rest):
        spec, idx = rest[-1], rest[:-1]
        region = _index_shape(x.shape, spec, idx)
        try:
            np.broadcast_shapes(tuple(value.shape), region)
        except ValueError:
            raise ValueError(f"cannot write a value of shape {tuple(value.shape)} into x{spec!r}, of shape "
                             f"{region}") from None
        return x.shape, x.dtype

    def compute(self, x, value, *rest):
        spec, idx = rest[-1], rest[:-1]
        out = np.array(x, copy=True)
        out[spec.key(idx)] = value
        return out

    def bprop(self, x, value, *rest):
        *idx, spec, out, dout = rest
        d_value = _getitem(dout, *idx, spec)
        d_x = _setitem(dout, op_table.zeros_like(d_value), *idx, spec)
        return (d_x, d_value, *(None for _ in idx), None)


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
        *idx, spec, out, d = rest
        return (_getitem(d, *idx, spec), *(None for _ in idx), None)


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
        return getitem_grad(dout, (indices,), spec, params.shape), None, None


class GatherV2(Gather):
    """``P.GatherV2``: Gather's name before MindSpore 1.1, deprecated and still in 2.10, called
    ``(params, indices, axis)``. MindSpore 2.10's PYNATIVE mode wants a fourth argument there (batch_dims:
    "the inputs number should be 4 but got 3") while its GRAPH mode takes three; mslab takes three in both,
    and an optional batch_dims of 0."""

    def __init__(self):
        super().__init__()

    def prepare(self, args):
        if len(args) == 4:
            if args[3] != 0:
                raise NotImplementedError("GatherV2: only batch_dims=0 is supported")
            args = args[:3]
        return args


class GatherNd(Primitive):
    """``P.GatherNd()(params, indices)``: the slices of ``params`` at the leading-axes positions in ``indices``.

    indices has shape (..., k): out[...] = params[indices[..., 0], ..., indices[..., k-1]], of shape
    indices.shape[:-1] + params.shape[k:]. d/d(params) = dout scattered back (GetItemGrad, added where
    positions repeat); indices get no gradient.
    """

    n_tensors = 2

    def infer(self, params, indices):
        if indices.dtype.kind not in "iu":
            raise TypeError(f"GatherNd needs integer indices, got {mstype.from_numpy(indices.dtype)}")
        k = indices.shape[-1] if indices.shape else None
        if k is None or k > len(params.shape):
            raise ValueError(f"GatherNd: indices of shape {tuple(indices.shape)} must end in a dimension of at most "
                             f"params' rank {len(params.shape)}")
        return tuple(indices.shape[:-1]) + tuple(params.shape[k:]), params.dtype

    def compute(self, params, indices):
        return params[tuple(np.moveaxis(indices, -1, 0))]

    def bprop(self, params, indices, out, dout):
        k = indices.shape[-1]
        columns = tuple(indices[..., j] for j in range(k))
        return getitem_grad(dout, columns, IndexSpec((TENSOR_INDEX,) * k), params.shape), None


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
        return op_table.zeros_like(indices), None, op_table.zeros_like(on_value), op_table.zeros_like(off_value)


# ---- functional forms ---------------------------------------------------------------------------------
_getitem = GetItem()
_setitem = SetItem()
_gather = Gather()
gather_nd = GatherNd()


def getitem(x, index):
    """``x[index]``: ints, slices (with steps), None, Ellipsis and integer tensors / lists (gathers)."""
    spec, tensors = normalize_index(index)
    return _getitem(x, *tensors, spec)


def setitem(x, index, value):
    """A copy of ``x`` with ``value`` at ``[index]`` (the functional form of ``x[index] = value``)."""
    spec, tensors = normalize_index(index)
    if not isinstance(value, Tensor):
        value = Tensor(np.asarray(value, x._np_dtype))
    return _setitem(x, value, *tensors, spec)


def getitem_grad(dout, index_tensors, spec, shape):
    """zeros(shape) with dout added at [spec] (GetItem's and Gather's backward: a scatter-add)."""
    return instance(GetItemGrad, tuple(shape))(dout, *index_tensors, spec)


def gather(input_params, input_indices, axis, batch_dims=0):
    """Slices of ``input_params`` along ``axis`` picked by integer ``input_indices``."""
    if batch_dims != 0:
        return instance(Gather, batch_dims)(input_params, input_indices, axis)
    return _gather(input_params, input_indices, axis)


def one_hot(indices, depth, on_value=1, off_value=0, axis=-1):
    """One-hot encoding along ``axis``; its dtype is on_value's (Python floats give Float32)."""
    return instance(OneHot, int(axis))(indices, depth, on_value, off_value)


__all__ += ["getitem", "getitem_grad", "gather", "gather_nd", "one_hot"]
op_table.register(globals(), __all__)
