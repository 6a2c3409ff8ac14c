"""Padding: ``ops.Pad`` / ``P.Pad`` (zeros, one (before, after) pair per axis) and ``ops.pad`` (torch-style
pairs from the last axis, modes constant / reflect / replicate / circular).

Built from getitem and concat, one axis at a time (as ``numpy.pad`` does), so gradients and GRAPH mode are
those ops': the gradient of a pad is dout with the padding cut off, plus, for the mirrored and repeated
modes, the copies' gradients added back onto the elements they copied.
"""
import numpy as np

from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor

__all__ = ["Pad", "MirrorPad"]

PAD_MODES = ("constant", "reflect", "replicate", "circular", "symmetric")


def _along(x, axis, part):
    """``x[:, ..., part, ...]`` with ``part`` (a slice) on ``axis``."""
    return op_table.getitem(x, (slice(None),) * axis + (part,))


def _edge_parts(x, axis, before, after, mode):
    """The pieces that go before and after x on ``axis`` (None where nothing is added)."""
    n = x.shape[axis]
    if mode in ("reflect", "symmetric"):
        skip = 1 if mode == "reflect" else 0  # reflect leaves the edge element out of the mirror
        if max(before, after) > n - skip:
            raise ValueError(f"{mode} padding must be less than the dimension size"
                             f"{'' if skip else ' or equal to it'}: ({before}, {after}) on axis {axis} of size {n}")
        stop = n - 1 - skip - after  # -1 would wrap to the end: None runs down to element 0
        first = slice(before - 1 + skip, skip - 1 if skip else None, -1)
        last = slice(n - 1 - skip, stop if stop >= 0 else None, -1)
    elif mode == "circular":
        if max(before, after) > n:  # MindSpore 2.10 gives [0 0 1 2 | 0 1 2] for 4 before [0 1 2]: not a wrap-around
            raise ValueError(f"circular padding must be no greater than the dimension size: ({before}, {after}) on "
                             f"axis {axis} of size {n}")
        first, last = slice(n - before, n), slice(0, after)
    else:  # replicate: the edge element, repeated
        shape = tuple(x.shape)
        edge = [_along(x, axis, slice(i, i + 1)) for i in (0, n - 1)]
        return [op_table.broadcast_to(e, shape[:axis] + (c,) + shape[axis + 1:]) if c else None
                for e, c in zip(edge, (before, after))]
    return [_along(x, axis, first) if before else None, _along(x, axis, last) if after else None]


def pad_axis(x, axis, before, after, mode="constant", value=0):
    """x with ``before`` / ``after`` elements added on ``axis``: ``value`` (constant), a mirror without the edge
    (reflect: [1 2 3] -> [3 2 | 1 2 3 | 2 1]), a mirror with it (symmetric: [2 1 | 1 2 3 | 3 2]), the edge
    repeated (replicate) or the other end (circular). A negative count cuts elements off instead, in every
    mode (as MindSpore 2.10's ops.pad)."""
    if before < 0 or after < 0:
        n = x.shape[axis]
        x = _along(x, axis, slice(max(-before, 0), n + min(after, 0)))
        before, after = max(before, 0), max(after, 0)
    if mode == "constant":
        shape = tuple(x.shape)
        parts = [op_table.fill(x.dtype, shape[:axis] + (c,) + shape[axis + 1:], value) if c else None
                 for c in (before, after)]
    else:
        parts = _edge_parts(x, axis, before, after, mode)
    pieces = [p for p in (parts[0], x, parts[1]) if p is not None]
    return op_table.concat(pieces, axis) if len(pieces) > 1 else x


class Pad:
    """``ops.Pad(paddings)(x)`` (also ``P.Pad``): ``paddings[i] = (before, after)`` zeros added on axis i.

    As MindSpore 2.10: paddings must be a tuple (a list is a TypeError), of pairs >= 0, one per axis.
    """

    def __init__(self, paddings):
        if not isinstance(paddings, tuple):
            raise TypeError(f"For 'Pad', the type of 'paddings' should be 'tuple', but got type "
                            f"'{type(paddings).__name__}'.")
        for i, p in enumerate(paddings):
            if not isinstance(p, (tuple, list)) or len(p) != 2 or not all(isinstance(v, (int, np.integer)) for v in p):
                raise TypeError(f"For 'Pad', each element of 'paddings' must be a pair of ints, got {p!r}")
            if min(p) < 0:
                raise ValueError(f"For 'Pad', all elements of 'paddings' must be >= 0, but got paddings[{i}][0] = "
                                 f"{p[0]}, paddings[{i}][1] = {p[1]}")
        self.paddings = tuple((int(a), int(b)) for a, b in paddings)

    def __call__(self, x):
        if len(self.paddings) != len(x.shape):
            raise ValueError(f"For 'Pad', the length of 'paddings' must be equal to the rank of 'input_x', but got "
                             f"{len(self.paddings)} vs {len(x.shape)}")
        for axis, (before, after) in enumerate(self.paddings):
            if before or after:
                x = pad_axis(x, axis, before, after)
        return x

    def __repr__(self):
        return f"Pad(paddings={self.paddings})"


class MirrorPad:
    """``P.MirrorPad(mode='REFLECT')(x, paddings)``: ``paddings`` an int Tensor of shape (rank, 2), one (before,
    after) pair per axis, mirrored without the edge (REFLECT: [1 2 3] -> [3 2 | 1 2 3 | 2 1]) or with it
    (SYMMETRIC: [2 1 | 1 2 3 | 3 2]), as ``numpy.pad``'s reflect and symmetric modes (checked on MindSpore 2.10)."""

    def __init__(self, mode="REFLECT"):
        if mode not in ("REFLECT", "SYMMETRIC"):
            raise ValueError(f"For 'MirrorPad', the 'mode' must be str and must be in '['REFLECT', 'SYMMETRIC']', but "
                             f"got {mode!r}.")
        self.mode = mode

    def __call__(self, x, paddings):
        pairs = paddings.asnumpy() if isinstance(paddings, Tensor) else np.asarray(paddings)
        if pairs.shape != (len(x.shape), 2) or pairs.dtype.kind not in "iu":
            raise ValueError(f"For 'MirrorPad', 'paddings' must be an int Tensor of shape ({len(x.shape)}, 2) for an "
                             f"input of rank {len(x.shape)}, but got {pairs.dtype} of shape {pairs.shape}")
        for axis, (before, after) in enumerate(pairs.tolist()):
            if before or after:
                x = pad_axis(x, axis, before, after, self.mode.lower())
        return x

    def __repr__(self):
        return f"MirrorPad(mode={self.mode!r})"


def _check_rank(mode, rank, pairs):
    """Ranks MindSpore 2.10's PadV3 takes for the non-constant modes (observed on CPU): the padded axes plus
    one or two leading ones (batch, channels); reflect pads at most two axes of an input of rank <= 4."""
    if rank not in (pairs + 1, pairs + 2) or (mode == "reflect" and rank > 4):
        limit = ", at most rank 4" if mode == "reflect" else ""
        raise ValueError(f"For 'pad', {mode} mode pads the last {pairs} axes of an input of rank {pairs + 1} or "
                         f"{pairs + 2} (batch and channel axes before them){limit}, but got an input of rank {rank}")


def pad(input_x, padding, mode="constant", value=None):
    """``ops.pad(x, padding, mode='constant', value=None)``: torch-style padding from the last axis on.

    ``padding = (left, right, top, bottom, ...)``: the first pair pads the last axis, the next pair the one
    before it. constant fills with ``value`` (0 when None), reflect mirrors without the edge, replicate
    repeats the edge, circular wraps around; a negative count cuts elements off. The non-constant modes need
    one or two leading axes before the padded ones, as MindSpore 2.10 on CPU.
    """
    if isinstance(padding, Tensor):
        padding = padding.asnumpy().tolist()
    if not isinstance(padding, (tuple, list)) or not all(isinstance(p, (int, np.integer)) for p in padding):
        raise TypeError(f"For 'pad', 'padding' must be a tuple or list of ints, got {padding!r}")
    if len(padding) % 2:
        raise ValueError(f"For 'pad', the size of padding must be divisible by 2, but got {len(padding)}")
    if not isinstance(mode, str) or mode not in PAD_MODES[:4]:
        raise ValueError(f"For 'pad', the 'mode' must be str and must be in {list(PAD_MODES[:4])}, but got {mode!r}.")
    rank, pairs = len(input_x.shape), len(padding) // 2
    if mode != "constant":
        if value is not None:
            raise ValueError(f"For 'pad', the padding mode '{mode}' can not set value, but got value {value}.")
        _check_rank(mode, rank, pairs)
    elif pairs > rank:
        raise ValueError(f"For 'pad', constant mode pads at most as many axes as the input has: {pairs} pairs for "
                         f"an input of rank {rank}")
    x = input_x
    for k in range(pairs):
        before, after = int(padding[2 * k]), int(padding[2 * k + 1])
        if before or after:
            x = pad_axis(x, rank - 1 - k, before, after, mode, 0 if value is None else value)
    return x


__all__ += ["pad", "pad_axis"]
op_table.register(globals(), __all__)
