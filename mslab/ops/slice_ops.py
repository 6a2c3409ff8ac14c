"""Slicing by numbers: ``P.Slice`` (begin and size), ``P.StridedSlice`` (begin, end, strides and five masks),
``ops.Unstack`` (one tensor per position along an axis), ``P.ReverseV2`` (axes read backwards).

None of them is a new graph node: each translates its numbers into the numpy-style index it stands for and
is a GetItem (``x[1:3, ..., ::2]``), so gradients, GRAPH mode and the IR printout are GetItem's. A learner
sees the slice MindSpore's numbers mean, and the gradient is dout scattered back into zeros.
"""
import numpy as np

from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor
from mslab.ops.shape_ops import _check_axis

__all__ = ["Slice", "StridedSlice", "Unstack", "ReverseV2"]

_slice_of = slice  # the builtin (this module's functional form ``slice`` shadows it below)


def _ints(values, op, what):
    """begin / size / strides as a tuple of Python ints (a constant Tensor or list is accepted too)."""
    if isinstance(values, Tensor):
        values = values.asnumpy().tolist()  # a traced (symbolic) Tensor raises: slice numbers must be constants
    if isinstance(values, (int, np.integer)):
        values = (values,)
    try:
        return tuple(int(v) for v in values)
    except TypeError:
        raise TypeError(f"For '{op}', '{what}' must be a tuple of ints, got {values!r}") from None


class Slice:
    """``P.Slice()(x, begin, size)``: ``size[i]`` elements of axis i from ``begin[i]`` (-1: to the end).

    The same as ``x[begin[0]:begin[0] + size[0], ...]``; as MindSpore 2.10, begin needs one entry per axis,
    none negative, and a slice may not run past the end of its axis.
    """

    def __call__(self, x, begin, size):
        begin, size = _ints(begin, "Slice", "begin"), _ints(size, "Slice", "size")
        shape = tuple(x.shape)
        if len(begin) != len(shape) or len(size) != len(shape) or any(b < 0 for b in begin):
            raise ValueError(f"For Slice, the begin is invalid: begin {begin} and size {size} need one entry >= 0 "
                             f"per axis of the input's shape {shape}")
        index = []
        for i, (b, s, n) in enumerate(zip(begin, size, shape)):
            if s < -1:
                raise RuntimeError(f"For Slice, the value in size should not be less than -1, but got {s}")
            stop = n if s == -1 else b + s
            if stop > n:
                raise ValueError(f"For Slice, the sum of begin_shape[{i}] and size_shape[{i}] must be no greater than "
                                 f"input_x_shape[{i}]: begin {b} + size {s} > {n}")
            index.append(_slice_of(b, stop))
        return op_table.getitem(x, tuple(index))

    def __repr__(self):
        return "Slice"


class StridedSlice:
    """``P.StridedSlice(begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)(x, begin, end, strides)``.

    Entry i of begin / end / strides is the slice ``begin[i]:end[i]:strides[i]``, and bit i of each mask
    changes it: begin_mask -> no begin (``:end``), end_mask -> no end, ellipsis_mask -> ``...`` (the axes not
    named), new_axis_mask -> ``None`` (a new axis of size 1), shrink_axis_mask -> the single index
    ``begin[i]`` (the axis goes away). Axes after the last entry are taken whole. Out-of-range bounds are
    clipped, as numpy's slices are.

    mslab follows MindSpore's documented meaning (numpy's). MindSpore 2.10's CPU kernel differs in corner
    cases (see docs/mindspore_observed/arrayops.md): with the ellipsis in the first entry it reads from the
    start of the later axes, new_axis_mask reads past the input, ``end_mask`` with a negative stride does not
    clip begin, the gradient is zero for negative strides and new axes; and shrink_axis_mask with the
    begin_mask bit set takes index 0, which mslab copies (the documentation does not say).
    """

    def __init__(self, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0):
        masks = dict(begin_mask=begin_mask, end_mask=end_mask, ellipsis_mask=ellipsis_mask,
                     new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask)
        for name, m in masks.items():
            if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 0:
                raise TypeError(f"For 'StridedSlice', '{name}' must be an int >= 0, got {m!r}")
        self.__dict__.update({k: int(v) for k, v in masks.items()})

    def index(self, begin, end, strides):
        """The numpy index these numbers and masks stand for (a tuple of slices, ints, None and ...)."""
        begin, end = _ints(begin, "StridedSlice", "begin"), _ints(end, "StridedSlice", "end")
        strides = _ints(strides, "StridedSlice", "strides")
        if not len(begin) == len(end) == len(strides):
            raise ValueError(f"For 'StridedSlice', 'begin', 'end' and 'strides' must have the same length, but got "
                             f"length of 'begin': {len(begin)}, 'end': {len(end)}, 'strides': {len(strides)}.")
        if 0 in strides:
            raise ValueError("For 'StridedSlice', input 'strides' can not contain 0.")
        if bin(self.ellipsis_mask).count("1") > 1:
            raise ValueError(f"For 'StridedSlice' only support one ellipsis in the index, but got {self.ellipsis_mask}")
        items = []
        for i, (b, e, s) in enumerate(zip(begin, end, strides)):
            bit = 1 << i
            if self.ellipsis_mask & bit:
                items.append(Ellipsis)
            elif self.new_axis_mask & bit:
                items.append(None)
            elif self.shrink_axis_mask & bit:
                items.append(0 if self.begin_mask & bit else b)  # observed on MindSpore 2.10 CPU: begin_mask wins
            else:
                items.append(_slice_of(None if self.begin_mask & bit else b, None if self.end_mask & bit else e, s))
        return tuple(items)

    def __call__(self, x, begin, end, strides):
        return op_table.getitem(x, self.index(begin, end, strides))

    def __repr__(self):
        masks = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")
        return "StridedSlice(" + ", ".join(f"{m}={getattr(self, m)}" for m in masks) + ")"


class Unstack:
    """``ops.Unstack(axis=0)(x)`` -> a tuple of the ``x.shape[axis]`` tensors along ``axis`` (Stack undone).

    Each is ``x[..., i, ...]`` (a GetItem), so the gradient of each goes back to its own position. ``num``
    is accepted and ignored, as MindSpore 2.10 does (observed: num=3 for an axis of size 1 gives one tensor).
    """

    def __init__(self, axis=0, num=None):
        self.axis = int(axis)
        self.num = num

    def __call__(self, x):
        nd = len(x.shape)
        if not -nd <= self.axis < nd:
            raise ValueError(f"Dimension out of range (expected to be in range of [{-nd}, {nd}), but got {self.axis})")
        axis = _check_axis(self.axis, nd)
        return tuple(op_table.getitem(x, (_slice_of(None),) * axis + (i,)) for i in range(x.shape[axis]))

    def __repr__(self):
        return f"Unstack(axis={self.axis})"


class ReverseV2:
    """``P.ReverseV2(axis)(x)``: x with each axis in ``axis`` read backwards (``x[:, ::-1]`` for axis=[1]).

    Axes may be negative; as MindSpore 2.10, one out of range is a ValueError and so is an axis named
    twice. The gradient is dout reversed along the same axes.
    """

    def __init__(self, axis):
        self.axis = _ints(axis, "ReverseV2", "axis")

    def __call__(self, x):
        nd = len(x.shape)
        for i, a in enumerate(self.axis):
            if not -nd <= a < nd:
                raise ValueError(f"For 'ReverseV2', the 'axis[{i}]' must be in range of [{-nd}, {nd}), but got {a} "
                                 f"with type 'int'.")
        axes = [a % nd for a in self.axis]
        if len(set(axes)) != len(axes):
            dup = next(a for a in axes if axes.count(a) > 1)
            raise ValueError(f"For ReverseV2, 'axis' cannot contain duplicate dimensions, but got {dup}")
        return op_table.getitem(x, tuple(_slice_of(None, None, -1 if i in axes else None) for i in range(nd)))

    def __repr__(self):
        return f"ReverseV2(axis={self.axis})"


# ---- functional forms ---------------------------------------------------------------------------------
_slice = Slice()


def slice(input_x, begin, size):  # noqa: A001 - MindSpore's name (ops.slice)
    """``size[i]`` elements of axis i of ``input_x`` from ``begin[i]`` (``ops.slice``; see ``Slice``)."""
    return _slice(input_x, begin, size)


def strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                  shrink_axis_mask=0):
    """``input_x[begin:end:strides]`` per axis with MindSpore's masks (``ops.strided_slice``; see ``StridedSlice``)."""
    op = StridedSlice(begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)
    return op(input_x, begin, end, strides)


def unstack(input_x, axis=0):
    """The tensors along ``axis`` of ``input_x``, as a tuple (``ops.unstack``)."""
    return Unstack(axis)(input_x)


__all__ += ["slice", "strided_slice", "unstack"]
op_table.register(globals(), __all__)
