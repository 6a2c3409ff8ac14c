"""Reshaping, joining and rearranging, as ``mindspore.numpy``: tile, reshape, transpose, squeeze, concatenate,
stack, split, roll, flip, pad, diag, meshgrid.

All are slices, joins and broadcasts of mslab's ops, so their gradients put dout back where each element came from.
"""
import numpy as np

from mslab.core.tensor import Tensor
from mslab.numpy.convert import promote, to_tensor
from mslab.ops import functional as F

__all__ = ["tile", "reshape", "transpose", "squeeze", "expand_dims", "concatenate", "stack", "split", "roll", "flip",
           "pad", "diag", "meshgrid"]


def tile(a, reps):
    """``a`` repeated ``reps`` times along each axis (numpy's tile: ``reps`` may be longer or shorter than a.ndim)."""
    a = to_tensor(a, "tile")
    reps = (reps,) if isinstance(reps, int) else tuple(reps)
    ndim = max(len(a.shape), len(reps))
    if len(a.shape) < ndim:
        a = F.reshape(a, (1,) * (ndim - len(a.shape)) + tuple(a.shape))
    return F.tile(a, (1,) * (ndim - len(reps)) + reps)


def reshape(x, new_shape):
    """``x`` with shape ``new_shape`` (an int or a tuple; one entry may be -1)."""
    return F.reshape(to_tensor(x, "reshape", "x"), (new_shape,) if isinstance(new_shape, int) else tuple(new_shape))


def transpose(a, axes=None):
    """``a`` with its axes permuted (reversed when ``axes`` is None)."""
    a = to_tensor(a, "transpose")
    return F.transpose(a, tuple(reversed(range(len(a.shape)))) if axes is None else tuple(axes))


def squeeze(a, axis=None):
    """``a`` without its length-1 axes (or just ``axis``)."""
    a = to_tensor(a, "squeeze")
    return F.squeeze(a, () if axis is None else (axis,) if isinstance(axis, int) else tuple(axis))


def expand_dims(a, axis):
    """``a`` with a new length-1 axis at ``axis``."""
    return F.expand_dims(to_tensor(a, "expand_dims"), axis)


def concatenate(arrays, axis=0):
    """The tensors joined along an existing ``axis`` (dtypes promoted)."""
    return F.concat(tuple(promote(list(arrays), "concatenate")), axis)


def stack(arrays, axis=0):
    """The tensors stacked along a new ``axis`` (dtypes promoted)."""
    return F.stack(tuple(promote(list(arrays), "stack")), axis)


def split(x, indices_or_sections, axis=0):
    """numpy's split: an int ``n`` cuts ``x`` into n equal parts along ``axis``; a list gives the cut indices."""
    x = to_tensor(x, "split", "x")
    length = x.shape[axis]
    if isinstance(indices_or_sections, int):
        if length % indices_or_sections:
            raise ValueError(f"mslab.numpy.split: axis {axis} of length {length} does not split into "
                             f"{indices_or_sections} equal sections")
        sizes = [length // indices_or_sections] * indices_or_sections
    else:
        cuts = np.clip([0, *indices_or_sections, length], 0, length)
        sizes = np.diff(cuts).tolist()
    return F.split(x, sizes, axis)


def _axes(axis, ndim, fn):
    axes = tuple(range(ndim)) if axis is None else (axis,) if isinstance(axis, int) else tuple(axis)
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(f"mslab.numpy.{fn}: axis {a} is out of range for a tensor of rank {ndim}")
    return tuple(a % ndim for a in axes)


def roll(a, shift, axis=None):
    """``a`` shifted by ``shift`` places along ``axis``, elements leaving one end coming back at the other
    (``roll([0 1 2 3], 1)`` is [3 0 1 2]); without an axis, over the flattened array, shape kept."""
    a = to_tensor(a, "roll")
    if axis is None:
        return F.reshape(roll(F.reshape(a, (-1,)), shift, 0), tuple(a.shape))
    axes = _axes(axis, len(a.shape), "roll")
    shifts = (shift,) * len(axes) if isinstance(shift, int) else tuple(shift)
    if len(shifts) != len(axes):
        raise ValueError(f"mslab.numpy.roll: 'shift' {shift!r} and 'axis' {axis!r} must be as long")
    for ax, s in zip(axes, shifts):
        n = a.shape[ax]
        s = s % n if n else 0
        if s:  # the last s elements, then the rest
            head = (slice(None),) * ax
            a = F.concat((F.getitem(a, head + (slice(n - s, n),)), F.getitem(a, head + (slice(0, n - s),))), ax)
    return a


def flip(m, axis=None):
    """``m`` read backwards along ``axis`` (every axis by default)."""
    m = to_tensor(m, "flip", "m")
    axes = _axes(axis, len(m.shape), "flip")
    return F.getitem(m, tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(len(m.shape))))


_PAD_MODES = {"constant": "constant", "edge": "replicate", "reflect": "reflect", "symmetric": "symmetric",
              "wrap": "circular"}


def pad(arr, pad_width, mode="constant", stat_length=None, constant_values=0, end_values=0, reflect_type="even",
        **kwargs):
    """numpy's pad: ``pad_width`` is n (every side of every axis), (before, after) (every axis) or one pair per
    axis; modes 'constant' (``constant_values``), 'edge', 'reflect', 'symmetric' and 'wrap'."""
    arr = to_tensor(arr, "pad", "arr")
    if mode not in _PAD_MODES or reflect_type != "even" or isinstance(constant_values, (tuple, list)):
        raise NotImplementedError(f"mslab.numpy.pad: mode={mode!r} (reflect_type={reflect_type!r}, "
                                  f"constant_values={constant_values!r}) is not supported by mslab; it offers the "
                                  f"modes {sorted(_PAD_MODES)} with one constant value")
    nd = len(arr.shape)
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64).reshape(-1, 2) if np.ndim(pad_width) else
                             np.full((1, 2), pad_width), (nd, 2))
    for axis, (before, after) in enumerate(widths.tolist()):
        if before < 0 or after < 0:
            raise ValueError(f"mslab.numpy.pad: index can't contain negative values, got {pad_width!r}")
        if before or after:
            arr = F.pad_axis(arr, axis, before, after, _PAD_MODES[mode], constant_values)
    return arr


def diag(v, k=0):
    """A 1-D ``v`` on the k-th diagonal of a square matrix of zeros; of a 2-D ``v``, its k-th diagonal."""
    v = to_tensor(v, "diag", "v")
    if len(v.shape) == 1:
        square = F.diag(v)
        if k:  # moved k places right (k > 0) or down: rows of zeros on one side, columns on the other
            square = F.pad_axis(F.pad_axis(square, 0, max(-k, 0), max(k, 0)), 1, max(k, 0), max(-k, 0))
        return square
    if len(v.shape) != 2:
        raise ValueError(f"mslab.numpy.diag: input must be 1- or 2-d, got shape {tuple(v.shape)}")
    rows, cols = v.shape
    i = np.arange(max(0, -k), min(rows, cols - k))
    return F.gather_nd(v, Tensor(np.stack([i, i + k], -1).astype(np.int32).reshape(-1, 2)))


def meshgrid(*xi, sparse=False, indexing="xy"):
    """Coordinate grids from 1-D tensors, as a list (numpy's meshgrid; see ``ops.meshgrid``)."""
    if sparse:
        raise NotImplementedError("mslab.numpy.meshgrid: sparse=True is not supported by mslab")
    return list(F.meshgrid(*[to_tensor(x, "meshgrid", "xi") for x in xi], indexing=indexing))
