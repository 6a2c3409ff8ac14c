"""Reshaping and joining, as ``mindspore.numpy``: tile, reshape, transpose, squeeze, concatenate, stack, split."""
import numpy as np

from mslab.numpy.convert import promote, to_tensor
from mslab.ops import functional as F

__all__ = ["tile", "reshape", "transpose", "squeeze", "expand_dims", "concatenate", "stack", "split"]


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
