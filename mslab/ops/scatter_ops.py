"""Scatters and unique: ``P.ScatterNd`` (updates added into zeros), ``P.ScatterNdUpdate`` (updates written
into a Parameter, in place), ``P.UnsortedSegmentSum`` (rows added up by segment id), ``ops.unique`` (the
distinct values and where each element went).

A scatter is GatherNd run backwards: ``indices`` has shape (..., k) and names positions of the first k axes.
So the gradient of the updates is the gather of dout at the same positions.
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core import state
from mslab.core.errors import GraphModeError
from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor
from mslab.ops.primitive import Primitive, instance

__all__ = ["ScatterNd", "ScatterNdUpdate", "ScatterAdd", "ScatterSub", "ScatterMul", "ScatterDiv", "ScatterUpdate",
           "ScatterMax", "ScatterMin", "UnsortedSegmentSum", "UnsortedSegmentMax", "UnsortedSegmentMin",
           "UnsortedSegmentProd", "Unique"]


def _check_scatter(op, shape, indices, updates):
    """MindSpore's shape rule: updates.shape == indices.shape[:-1] + shape[k:], k = indices.shape[-1]."""
    if indices.dtype.kind not in "iu":
        raise TypeError(f"For '{op}', 'indices' must be int32 or int64, got {mstype.from_numpy(indices.dtype)}")
    ishape = tuple(indices.shape)
    k = ishape[-1] if ishape else 0
    if not ishape or k > len(shape) or tuple(updates.shape) != ishape[:-1] + tuple(shape[k:]):
        raise ValueError(f"For '{op}', if the last dimension of 'indices' is 'N', the shape of 'updates' should be the "
                         f"concatenation of 'indices.shape[:-1]' and 'shape[N:]'. but got 'indices.shape' is {ishape}, "
                         f"'updates.shape' is {tuple(updates.shape)}, 'shape' is {tuple(shape)}.")


def _positions(op, indices, shape):
    """The index tuple ``indices`` names (one array per leading axis), refusing positions outside ``shape``
    with MindSpore's RuntimeError (numpy would wrap a negative one round silently)."""
    k = indices.shape[-1]
    for j in range(k):
        column = indices[..., j]
        if column.size and column.min() < 0:
            raise RuntimeError(f"For '{op}', each element in 'indice' must be greater than or equal to 0, but got "
                               f"{column.min()}")
        if column.size and column.max() >= shape[j]:
            raise RuntimeError(f"For '{op}', each element in 'indices' should be smaller than the value of shape, but "
                               f"got {column.max()} and got the value of shape {shape[j]}")
    return tuple(np.moveaxis(indices, -1, 0))


def _check_eagerly(op, indices, shape):
    """Check the positions before running, so a bad one is MindSpore's RuntimeError (once the op runs, errors
    become OpError, naming the op and shapes); a traced graph checks them when it runs."""
    if isinstance(indices, Tensor) and not indices.is_symbolic and indices._np_dtype.kind in "iu" and indices.shape:
        if indices.shape[-1] <= len(shape):
            _positions(op, indices.asnumpy(), shape)


class ScatterNd(Primitive):
    """``P.ScatterNd()(indices, updates, shape)``: zeros of ``shape`` with each update added at its position.

    Positions named twice add up ([[0, 1], [1, 1], [0, 1]] with [1, 2, 3] puts 4 at (0, 1)).
    d/d(updates) = GatherNd(dout, indices); indices get no gradient.
    """

    n_tensors = 2

    def prepare(self, args):
        indices, updates, shape = args
        if not isinstance(shape, tuple):
            raise TypeError(f"For 'ScatterNd', 'shape' must be a tuple of ints, got {type(shape).__name__}")
        shape = tuple(int(s) for s in shape)
        _check_eagerly("ScatterNd", indices, shape)
        return indices, updates, shape

    def infer(self, indices, updates, shape):
        _check_scatter("ScatterNd", shape, indices, updates)
        return shape, updates.dtype

    def compute(self, indices, updates, shape):
        out = np.zeros(shape, updates.dtype)
        np.add.at(out, _positions("ScatterNd", indices, shape), updates)
        return out

    def bprop(self, indices, updates, shape, out, dout):
        return None, op_table.gather_nd(dout, indices), None


class ScatterNdUpdate(Primitive):
    """``P.ScatterNdUpdate()(input_x, indices, updates)``: write each update at its position of Parameter
    ``input_x``, in place, and return it. A position named twice keeps the last update.

    A side effect, as ``Assign``: later reads of the Parameter (in this graph and later calls) see the new
    values. d/d(updates) = GatherNd(dout, indices) (observed on MindSpore 2.10: every update, also one
    overwritten by a later duplicate, gets dout at its position); input_x and indices get none.
    """

    n_tensors = 3
    side_effect = True

    def __init__(self, use_locking=True):
        super().__init__(use_locking=bool(use_locking))

    def prepare(self, args):
        input_x, indices, updates = args
        _check_eagerly("ScatterNdUpdate", indices, tuple(input_x.shape))
        return args

    def infer(self, input_x, indices, updates):
        _check_scatter("ScatterNdUpdate", tuple(input_x.shape), indices, updates)
        return input_x.shape, input_x.dtype

    def compute(self, input_x, indices, updates):
        state.before_write(input_x)  # an all-or-nothing step can put it back
        input_x[_positions("ScatterNdUpdate", indices, input_x.shape)] = updates.astype(input_x.dtype, copy=False)
        return input_x

    def bprop(self, input_x, indices, updates, out, dout):
        return None, None, op_table.gather_nd(dout, indices)


class ScatterAdd(Primitive):
    """``P.ScatterAdd()(input_x, indices, updates)``: input_x[indices[...]] += updates, row by row, in place.

    ``indices`` name rows of axis 0 and ``updates`` has shape indices.shape + input_x.shape[1:]; a row named
    twice takes each of its updates in turn ([[0, 1], [1, 1]] adds 3, 7 and 9 to row 1). The same holds for
    ScatterSub, ScatterMul, ScatterDiv (integers divide towards zero: -7 / 2 is -3), ScatterMax, ScatterMin and
    ScatterUpdate (the last update wins), all observed on MindSpore 2.10 CPU. The updated input_x is returned.
    As MindSpore 2.10, ScatterAdd / Sub / Mul / Div have no gradient (a RuntimeError); ScatterMax / Min / Update
    give updates dout at the rows they name, and input_x none.
    """

    n_tensors = 3
    side_effect = True

    def __init__(self, use_locking=False):
        super().__init__(use_locking=bool(use_locking))

    def prepare(self, args):
        input_x, indices, _ = args
        if isinstance(indices, Tensor) and not indices.is_symbolic and indices._np_dtype.kind in "iu":
            self.check_rows(indices.asnumpy(), input_x.shape[0])  # before running: MindSpore's RuntimeError
        return args

    def check_rows(self, indices, n):
        if indices.size and (indices.min() < 0 or indices.max() >= n):
            bad = indices[(indices < 0) | (indices >= n)].flat[0]
            raise RuntimeError(f"For '{self.name}', the value of indices should be in [0, {n}), but got '{bad}' in "
                               f"indices.")

    def infer(self, input_x, indices, updates):
        if indices.dtype.kind not in "iu":
            raise TypeError(f"For '{self.name}', 'indices' must be int32 or int64, got "
                            f"{mstype.from_numpy(indices.dtype)}")
        want = tuple(indices.shape) + tuple(input_x.shape[1:])
        if tuple(updates.shape) != want:
            raise ValueError(f"For '{self.name}', 'updates' must have the shape indices.shape + input_x.shape[1:] = "
                             f"{want}, but got {tuple(updates.shape)}")
        return input_x.shape, input_x.dtype

    def compute(self, input_x, indices, updates):
        self.check_rows(indices, input_x.shape[0])
        state.before_write(input_x)  # an all-or-nothing step can put it back
        rows = updates.astype(input_x.dtype, copy=False).reshape((-1,) + input_x.shape[1:])
        for i, row in zip(indices.reshape(-1), rows):  # one update after another, as the kernel runs them
            input_x[i] = self.combine(input_x[i], row)
        return input_x

    def combine(self, old, new):
        return old + new

    def bprop(self, input_x, indices, updates, out, dout):
        raise RuntimeError(f"Illegal primitive: Primitive {self.name}'s bprop not defined.")  # MindSpore 2.10's words


class ScatterSub(ScatterAdd):
    """``P.ScatterSub()``: input_x[indices] -= updates, in place (see ScatterAdd)."""
    def combine(self, old, new): return old - new


class ScatterMul(ScatterAdd):
    """``P.ScatterMul()``: input_x[indices] *= updates, in place (see ScatterAdd)."""
    def combine(self, old, new): return old * new


class ScatterDiv(ScatterAdd):
    """``P.ScatterDiv()``: input_x[indices] /= updates, in place; integers divide towards zero (see ScatterAdd)."""
    def combine(self, old, new):
        if old.dtype.kind in "iu":
            return (np.trunc(old / new)).astype(old.dtype)
        return old / new


class ScatterUpdate(ScatterAdd):
    """``P.ScatterUpdate()``: input_x[indices] = updates, in place; the last of a repeated row wins. d/d(updates) =
    dout at the rows they name (also an update a later one overwrote), as MindSpore 2.10 gives."""
    def __init__(self, use_locking=True):
        super().__init__(use_locking)

    def combine(self, old, new): return new

    def bprop(self, input_x, indices, updates, out, dout):
        return None, None, op_table.gather(dout, indices, 0)


class ScatterMax(ScatterUpdate):
    """``P.ScatterMax()``: input_x[indices] = max(input_x[indices], updates), in place; gradient as ScatterUpdate."""
    def combine(self, old, new): return np.maximum(old, new)


class ScatterMin(ScatterUpdate):
    """``P.ScatterMin()``: input_x[indices] = min(input_x[indices], updates), in place; gradient as ScatterUpdate."""
    def combine(self, old, new): return np.minimum(old, new)


class UnsortedSegmentSum(Primitive):
    """``P.UnsortedSegmentSum()(x, segment_ids, num_segments)``: out[s] = the sum of the x[i] with
    segment_ids[i] == s, for s in 0 .. num_segments - 1 (zeros for a segment nobody names).

    segment_ids covers the leading axes of x (its shape is x.shape[:k]); the output has shape
    (num_segments,) + x.shape[k:]. As MindSpore 2.10 on CPU, a negative id drops its row and an id >=
    num_segments fails (a RuntimeError). d/dx = dout gathered at each row's segment (zero for dropped rows).
    """

    n_tensors = 2

    def prepare(self, args):
        x, ids, num = args
        if isinstance(num, Tensor):
            num = num.asnumpy().item()  # a constant count (a traced one cannot give the output's shape)
        if isinstance(num, bool) or not isinstance(num, (int, np.integer)) or num <= 0:
            raise ValueError(f"For '{self.name}', 'num_segments' must be an int > 0, got {num!r}")
        return x, ids, int(num)

    def infer(self, x, ids, num):
        if ids.dtype.kind not in "iu":
            raise TypeError(f"For '{self.name}', 'segment_ids' must be int32 or int64, got "
                            f"{mstype.from_numpy(ids.dtype)}")
        k = len(ids.shape)
        if tuple(ids.shape) != tuple(x.shape[:k]):
            raise ValueError(f"For '{self.name}', the whose shape of 'segment_ids' must equal to the shape of "
                             f"'input_x', got {tuple(ids.shape)} for an input of shape {tuple(x.shape)}")
        return (num,) + tuple(x.shape[k:]), x.dtype

    def compute(self, x, ids, num):
        if ids.size and ids.max() >= num:
            raise RuntimeError(f"For '{self.name}', segment_ids must be < num_segments ({num}), got "
                               f"{ids.max()} (MindSpore 2.10's CPU kernel fails to launch: 'Launch kernel failed')")
        out = np.full((num,) + x.shape[ids.ndim:], self.empty(x.dtype), x.dtype)
        keep = ids >= 0
        self.ufunc.at(out, ids[keep], x[keep])
        return out

    ufunc = np.add

    def empty(self, dtype):
        """What a segment no row names holds."""
        return 0

    def bprop(self, x, ids, num, out, dout):
        rows = op_table.gather(dout, op_table.maximum(ids, op_table.scalar_to_tensor(0, ids.dtype)), 0)
        kept = op_table.cast(ids >= op_table.scalar_to_tensor(0, ids.dtype), dout.dtype)  # a dropped row gets 0
        kept = kept.reshape(tuple(ids.shape) + (1,) * (len(x.shape) - len(ids.shape)))
        return rows * kept, None, None


def _per_row(t, ids, x):
    """``t`` (one entry per segment) gathered to x's rows, zero for the rows a negative id drops."""
    rows = op_table.gather(t, op_table.maximum(ids, op_table.scalar_to_tensor(0, ids.dtype)), 0)
    kept = op_table.cast(ids >= op_table.scalar_to_tensor(0, ids.dtype), t.dtype)
    return rows * kept.reshape(tuple(ids.shape) + (1,) * (len(x.shape) - len(ids.shape)))


def _lowest(dtype):
    return np.finfo(dtype).min if dtype.kind == "f" else np.iinfo(dtype).min


def _highest(dtype):
    return np.finfo(dtype).max if dtype.kind == "f" else np.iinfo(dtype).max


class UnsortedSegmentMax(UnsortedSegmentSum):
    """``P.UnsortedSegmentMax()(x, segment_ids, num_segments)``: out[s] = the largest x[i] with segment_ids[i] == s.

    A segment no row names holds the dtype's lowest value (-3.4028235e+38 for float32), as MindSpore 2.10's CPU
    kernel gives. d/dx = dout of the row's segment where x is the segment's maximum, split evenly between the
    rows that tie for it (observed: 0.5 each for two).
    """

    ufunc = np.maximum

    def empty(self, dtype):
        return _lowest(dtype)

    def bprop(self, x, ids, num, out, dout):
        hit = op_table.cast(op_table.equal(x, _per_row(out, ids, x)), dout.dtype)
        ties = _per_row(unsorted_segment_sum(hit, ids, num), ids, x)
        return _per_row(dout, ids, x) * hit / op_table.maximum(ties, 1.0), None, None


class UnsortedSegmentMin(UnsortedSegmentMax):
    """``P.UnsortedSegmentMin()``: the smallest x[i] of each segment; the dtype's largest value for an empty one.
    Its gradient is UnsortedSegmentMax's, for the minimum."""

    ufunc = np.minimum

    def empty(self, dtype):
        return _highest(dtype)


class UnsortedSegmentProd(UnsortedSegmentSum):
    """``P.UnsortedSegmentProd()``: out[s] = the product of the x[i] with segment_ids[i] == s; 1 for an empty one.

    d/dx[i] = dout of the segment times the product of the segment's other rows: out / x[i] where no row is 0;
    where one is, that row gets the product of the rest and the others 0 (observed: [0, 2, 3] gives [6, 0, 0]).
    """

    ufunc = np.multiply

    def empty(self, dtype):
        return 1

    def bprop(self, x, ids, num, out, dout):
        zero = op_table.equal(x, op_table.zeros_like(x))
        nonzero_product = _per_row(unsorted_segment_prod(op_table.select(zero, op_table.ones_like(x), x), ids, num),
                                   ids, x)  # the product of the segment's rows that are not 0
        zeros = _per_row(unsorted_segment_sum(op_table.cast(zero, x.dtype), ids, num), ids, x)
        none_zero, one_zero = op_table.equal(zeros, 0.0), op_table.equal(zeros, 1.0)
        nothing, safe_x = op_table.zeros_like(x), op_table.select(zero, op_table.ones_like(x), x)
        others = op_table.select(zero, op_table.select(one_zero, nonzero_product, nothing),
                                 op_table.select(none_zero, nonzero_product / safe_x, nothing))
        return _per_row(dout, ids, x) * others, None, None


class _UniqueValues(Primitive):
    """The distinct elements of x in order of first appearance (a shape that depends on the values)."""

    n_tensors = 1

    def infer(self, x):
        if not isinstance(x, np.ndarray):
            raise GraphModeError("unique gives a result whose shape depends on the values; mslab's graphs have static "
                                 "shapes, so its GRAPH mode refuses it (MindSpore 2.10 compiles such dynamic shapes). "
                                 "Call it in PYNATIVE mode, or outside the compiled construct")
        if x.dtype == np.bool_:
            raise TypeError("Select CPU operator[Unique] fail! Unsupported data type: Bool (MindSpore 2.10 takes "
                            "int8/16/32/64, uint8/16 and float16/32/64)")
        return _UniqueValues.compute(self, x).shape, x.dtype

    def compute(self, x):
        flat = x.reshape(-1)
        _, first = np.unique(flat, return_index=True)
        return flat[np.sort(first)]

    def bprop(self, x, out, dout):
        raise RuntimeError("Unsupported op [UniqueGrad] on CPU: MindSpore 2.10 cannot differentiate unique on CPU; "
                           "wrap it in ops.stop_gradient")


class _UniqueIndex(_UniqueValues):
    """For each element of x, the position of its value in unique's output (x's shape; Int64 for an Int64
    input, Int32 otherwise, as MindSpore 2.10's CPU kernel)."""

    differentiable = False

    def infer(self, x):
        super().infer(x)
        return x.shape, np.dtype(np.int64 if x.dtype == np.int64 else np.int32)

    def compute(self, x):
        flat = x.reshape(-1)
        values, first, inverse = np.unique(flat, return_index=True, return_inverse=True)
        rank = np.empty(len(values), np.int64)
        rank[np.argsort(first)] = np.arange(len(values))  # sorted position -> order of first appearance
        return rank[inverse].reshape(x.shape).astype(np.int64 if x.dtype == np.int64 else np.int32)

    def bprop(self, x, out, dout):
        return (op_table.zeros_like(x),)


class Unique:
    """``P.Unique()(x)`` -> (output, idx): x's distinct values in order of first appearance (flattened), and for
    each element of x the position of its value in output, so ``output[idx]`` rebuilds x.

    ([3, 1, 2, 3, 1, 5] -> [3, 1, 2, 5], [0, 1, 2, 0, 1, 3].) Not differentiable on CPU (a RuntimeError, as
    MindSpore 2.10); PYNATIVE only in mslab (the output's shape depends on the values).
    """

    def __call__(self, x):
        return _unique_values(x), _unique_index(x)

    def __repr__(self):
        return "Unique"


# ---- functional forms ---------------------------------------------------------------------------------
_scatter_nd = ScatterNd()
_unique_values = _UniqueValues()
_unique_index = _UniqueIndex()
_unique = Unique()


def scatter_nd(indices, updates, shape):
    """Zeros of ``shape`` with ``updates`` added at ``indices`` (``ops.scatter_nd``; see ``ScatterNd``)."""
    return _scatter_nd(indices, updates, shape)


def scatter_nd_update(input_x, indices, updates):
    """Write ``updates`` into Parameter ``input_x`` at ``indices`` in place (``ops.scatter_nd_update``)."""
    return ScatterNdUpdate()(input_x, indices, updates)


def scatter_add(input_x, indices, updates):
    """``ops.scatter_add``: input_x[indices] += updates in place (see ``ScatterAdd``)."""
    return ScatterAdd()(input_x, indices, updates)


def scatter_sub(input_x, indices, updates):
    """``ops.scatter_sub``: input_x[indices] -= updates in place (see ``ScatterAdd``)."""
    return ScatterSub()(input_x, indices, updates)


def scatter_mul(input_x, indices, updates):
    """``ops.scatter_mul``: input_x[indices] *= updates in place (see ``ScatterAdd``)."""
    return ScatterMul()(input_x, indices, updates)


def scatter_div(input_x, indices, updates):
    """``ops.scatter_div``: input_x[indices] /= updates in place (see ``ScatterAdd``)."""
    return ScatterDiv()(input_x, indices, updates)


def scatter_max(input_x, indices, updates):
    """``ops.scatter_max``: input_x[indices] = max(input_x[indices], updates) in place (see ``ScatterAdd``)."""
    return ScatterMax()(input_x, indices, updates)


def scatter_min(input_x, indices, updates):
    """``ops.scatter_min``: input_x[indices] = min(input_x[indices], updates) in place (see ``ScatterAdd``)."""
    return ScatterMin()(input_x, indices, updates)


def scatter_update(input_x, indices, updates):
    """``ops.scatter_update``: input_x[indices] = updates in place (see ``ScatterAdd``)."""
    return ScatterUpdate()(input_x, indices, updates)


def unsorted_segment_sum(input_x, segment_ids, num_segments):
    """The rows of ``input_x`` added up by segment id (``ops.unsorted_segment_sum``; see ``UnsortedSegmentSum``)."""
    return instance(UnsortedSegmentSum)(input_x, segment_ids, num_segments)


def unsorted_segment_max(x, segment_ids, num_segments):
    """The largest row of each segment (``ops.unsorted_segment_max``; see ``UnsortedSegmentMax``)."""
    return instance(UnsortedSegmentMax)(x, segment_ids, num_segments)


def unsorted_segment_min(x, segment_ids, num_segments):
    """The smallest row of each segment (``ops.unsorted_segment_min``; see ``UnsortedSegmentMin``)."""
    return instance(UnsortedSegmentMin)(x, segment_ids, num_segments)


def unsorted_segment_prod(x, segment_ids, num_segments):
    """The product of the rows of each segment (``ops.unsorted_segment_prod``; see ``UnsortedSegmentProd``)."""
    return instance(UnsortedSegmentProd)(x, segment_ids, num_segments)


def unique(input):  # noqa: A002 - MindSpore's argument name
    """(distinct values in order of first appearance, the position of each element's value): ``ops.unique``."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'unique', the input must be a Tensor, got {type(input).__name__}")
    return _unique(input)


__all__ += ["scatter_nd", "scatter_nd_update", "scatter_add", "scatter_sub", "scatter_mul", "scatter_div",
            "scatter_max", "scatter_min", "scatter_update", "unsorted_segment_sum", "unsorted_segment_max",
            "unsorted_segment_min", "unsorted_segment_prod", "unique"]
op_table.register(globals(), __all__)
