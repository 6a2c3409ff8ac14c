"""Ordering along an axis: Argsort and GatherD, and sort / topk made of them.

sort and topk return (values, indices Int32), as MindSpore's ``ops.sort`` / ``ops.topk``. Ties keep their
original order (a stable sort). The values are GatherD of x at the indices, so the gradient
of x puts each dout element back where its value came from:

    dx[..., j] = sum_i dout[..., i] * (indices[..., i] == j)

written as a one-hot of the indices times dout, summed over the output positions (only ops with a
bprop of their own, so the rule also differentiates again).
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core.op_registry import op_table
from mslab.ops.nth_element import nth_element
from mslab.ops.primitive import Primitive, instance

__all__ = ["Argsort", "GatherD", "Sort", "TopK", "TopKIndices"]


def _axis(axis, ndim, name):
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ValueError(f"{name}: axis {axis} is out of range for a tensor of rank {ndim}")
    return axis % max(ndim, 1)


def _order(x, axis, descending):
    """Stable argsort of x along axis (descending keeps ties in their original order too)."""
    if descending:
        # argsort of the reversed array, mapped back, keeps equal values in first-come order
        flipped = np.flip(x, axis)
        n = x.shape[axis]
        return (n - 1 - np.flip(np.argsort(flipped, axis=axis, kind="stable"), axis)).astype(np.int32)
    return np.argsort(x, axis=axis, kind="stable").astype(np.int32)


def scatter_back(dout, indices, n, axis):
    """The gradient of taking ``indices`` (along ``axis``) out of an axis of size ``n``."""
    nd = len(dout.shape)
    last = nd - 1
    if axis != last:  # work on the last axis, then move it back
        perm = tuple(i for i in range(nd) if i != axis) + (axis,)
        dout, indices = op_table.transpose(dout, perm), op_table.transpose(indices, perm)
    hot = op_table.one_hot(indices, n, op_table.scalar_to_tensor(1, dout.dtype),
                           op_table.scalar_to_tensor(0, dout.dtype))
    dx = op_table.reduce_sum(op_table.mul(hot, op_table.expand_dims(dout, -1)), -2, False)
    if axis != last:
        back = tuple(range(axis)) + (last,) + tuple(range(axis, last))
        dx = op_table.transpose(dx, back)
    return dx


class Argsort(Primitive):
    """Indices (Int32) that sort x along ``axis`` (``ops.argsort(x, axis=-1, descending=False)``). No gradient."""

    n_tensors = 1
    differentiable = False

    def __init__(self, axis=-1, descending=False):
        super().__init__(axis=int(axis), descending=bool(descending))

    def infer(self, x):
        _axis(self.axis, len(x.shape), self.name)
        return tuple(x.shape), np.dtype(np.int32)

    def compute(self, x):
        if x.ndim == 0:
            return np.zeros((), np.int32)
        return _order(x, _axis(self.axis, x.ndim, self.name), self.descending)

    def bprop(self, x, out, dout):
        return (None,)


class TopKIndices(Primitive):
    """Indices (Int32) of the ``k`` largest (``largest=False``: smallest) of x along ``axis``, in MindSpore's order.

    MindSpore 2.10's CPU TopK, per row of n: with ``sorted`` and k > n // 2 a stable sort of the whole row;
    otherwise ``std::nth_element`` (nth_element.py), then, with ``sorted``, a stable sort of the k it put first.
    Without ``sorted`` the k come in the order nth_element leaves them: [1, 5, 3, 9, 2, 7] gives [7, 9, 5]
    (observed). Rows without repeated values need no emulation when sorted: every order agrees then.
    No gradient (topk's values are a GatherD at these indices, which carries it).
    """

    n_tensors = 1
    differentiable = False

    def __init__(self, k, axis=-1, sorted=True, largest=True):  # noqa: A002 - MindSpore's argument name
        super().__init__(k=int(k), axis=int(axis), sorted=bool(sorted), largest=bool(largest))

    def infer(self, x):
        shape = list(x.shape)
        shape[_axis(self.axis, len(shape), self.name)] = self.k
        return tuple(shape), np.dtype(np.int32)

    def compute(self, x):
        axis = _axis(self.axis, x.ndim, self.name)
        rows = np.moveaxis(x, axis, -1)
        flat = rows.reshape(-1, rows.shape[-1])
        out = np.stack([self._row(r) for r in flat]) if len(flat) else np.zeros((0, self.k), np.int32)
        return np.moveaxis(out.reshape(rows.shape[:-1] + (self.k,)), -1, axis).astype(np.int32)

    def _row(self, row):
        n, k = len(row), self.k
        if self.sorted and (k > n // 2 or len(np.unique(row)) == n):
            return _order(row, 0, self.largest)[:k]
        v = row.tolist()
        comp = (lambda a, b: v[a] > v[b]) if self.largest else (lambda a, b: v[a] < v[b])
        idx = list(range(n))
        nth_element(idx, k, comp)
        first = idx[:k]
        if self.sorted:  # Python's sort is stable, as std::stable_sort
            first.sort(key=(lambda i: -v[i]) if self.largest else (lambda i: v[i]))
        return np.asarray(first, np.int32)

    def bprop(self, x, out, dout):
        return (None,)


class GatherD(Primitive):
    """x's elements at ``index`` along ``dim`` (``ops.GatherD()(x, dim, index)``, numpy's take_along_axis).

    out[i][j] = x[index[i][j]][j] for dim 0, and so on. As MindSpore 2.10's CPU kernel, an index may be
    negative (counted from the end: -1 is the last) and must lie in [-n, n). d/dx puts each dout element
    back at the position it was taken from (summing where an index repeats); index gets no gradient.
    """

    n_tensors = None

    def infer(self, x, dim, index):
        axis = _axis(int(dim), len(x.shape), self.name)
        if index.dtype.kind not in "iu":
            raise TypeError(f"GatherD needs an integer index, got {mstype.from_numpy(index.dtype)}")
        if len(index.shape) != len(x.shape) or any(
                a != b for i, (a, b) in enumerate(zip(index.shape, x.shape)) if i != axis):
            raise ValueError(f"index shape {tuple(index.shape)} must match x shape {tuple(x.shape)} "
                             f"on every axis but {dim}")
        return tuple(index.shape), x.dtype

    def compute(self, x, dim, index):
        axis = _axis(int(dim), x.ndim, self.name)
        n = x.shape[axis]
        bad = index[(index < -n) | (index >= n)]
        if bad.size:  # MindSpore's message and kind (its CPU kernel checks when it runs)
            raise RuntimeError(f"For 'GatherD', the value of 'index' must be in [{-n}, {n}), but got: {bad[0]}")
        return np.take_along_axis(x, index % n if n else index, axis)

    def bprop(self, x, dim, index, out, dout):
        axis = _axis(int(dim), len(x.shape), self.name)
        n = x.shape[axis]
        wrapped = op_table.floor_mod(index, op_table.scalar_to_tensor(n, index.dtype)) if n else index  # -1 -> n - 1
        return scatter_back(dout, wrapped, n, axis), None, op_table.zeros_like(index)


class Sort:
    """``ops.Sort(axis=-1, descending=False)(x)`` -> (values, indices Int32).

    Two outputs, so not one graph node: an Argsort and a GatherD (see :func:`sort`).
    """

    def __init__(self, axis=-1, descending=False):
        self.axis, self.descending = int(axis), bool(descending)

    def __call__(self, x):
        return sort(x, self.axis, self.descending)

    def __repr__(self):
        return f"Sort(axis={self.axis}, descending={self.descending})"


class TopK:
    """``ops.TopK(sorted=True)(x, k)`` -> the k largest along the last axis: (values, indices Int32)."""

    def __init__(self, sorted=True):  # noqa: A002 - MindSpore's argument name
        self.sorted = bool(sorted)

    def __call__(self, x, k):
        return topk(x, k, None, True, self.sorted)

    def __repr__(self):
        return f"TopK(sorted={self.sorted})"


# ---- functional forms ---------------------------------------------------------------------------------
def argsort(input, axis=-1, descending=False):  # noqa: A002 - MindSpore's argument name
    """Indices (Int32) that sort ``input`` along ``axis``; ties keep their order."""
    return instance(Argsort, int(axis), bool(descending))(input)


def gather_d(x, dim, index):
    """``x``'s elements at ``index`` along ``dim`` (numpy's take_along_axis).

    As MindSpore 2.10, index may be shorter than x on the other axes: x is first cut to index's extent there
    (a slice, whose gradient puts dout back into zeros), so out[i][j] = x[i][index[i][j]] still holds.
    """
    dim = int(dim)
    xs, ix = tuple(x.shape), tuple(index.shape)
    if len(xs) == len(ix) and xs != ix:
        axis = _axis(dim, len(xs), "GatherD")
        if all(i <= n for a, (i, n) in enumerate(zip(ix, xs)) if a != axis):
            x = op_table.getitem(x, tuple(slice(None) if a == axis else slice(0, i) for a, i in enumerate(ix)))
    return instance(GatherD)(x, dim, index)


def gather_elements(input, dim, index):  # noqa: A002 - MindSpore's argument name
    """``input``'s elements at ``index`` along ``dim`` (``ops.gather_elements``: GatherD under its 2.x name)."""
    return gather_d(input, dim, index)


def sort(input_x, axis=-1, descending=False):
    """(values, indices Int32) of ``input_x`` sorted along ``axis`` (``ops.sort``); ties keep their order.

    Not one node: an Argsort, then a GatherD of the values (which carries the gradient).
    """
    if len(input_x.shape) == 0:
        return op_table.identity(input_x), argsort(input_x)
    index = argsort(input_x, axis, descending)
    return gather_d(input_x, axis, index), index


def topk(input, k, dim=None, largest=True, sorted=True):  # noqa: A002 - MindSpore's argument names
    """(values, indices Int32) of the ``k`` largest (``largest=False``: smallest) along ``dim`` (default: last).

    A TopKIndices (the k indices in the order MindSpore's CPU kernel gives them, also with ``sorted=False``),
    then a GatherD of the values.
    """
    axis = -1 if dim is None else int(dim)
    nd = len(input.shape)
    n = input.shape[_axis(axis, nd, "topk")] if nd else 1
    if not 0 <= int(k) <= n:
        raise ValueError(f"topk: k must be in [0, {n}] (the size of axis {axis}), got {k}")
    if nd == 0:
        return op_table.identity(input), argsort(input)
    index = instance(TopKIndices, int(k), axis, bool(sorted), bool(largest))(input)
    return gather_d(input, axis, index), index


__all__ += ["argsort", "gather_d", "gather_elements", "sort", "topk"]
op_table.register(globals(), __all__)
