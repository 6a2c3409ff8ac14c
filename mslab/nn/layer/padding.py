"""``mindspore.nn.Pad``: pad a tensor on every axis, with zeros or a mirror of its edges.

Built from concat and getitem, one axis at a time (as ``numpy.pad`` does; ``ops.pad_ops.pad_axis``, which
``ops.pad`` uses too), so gradients and GRAPH mode follow those ops: the gradient of a pad is dout with
the padding cut off (plus the mirrored parts added back for REFLECT / SYMMETRIC).
"""
from mslab.nn.cell import Cell
from mslab.ops.pad_ops import pad_axis

__all__ = ["Pad"]

_MODES = ("CONSTANT", "REFLECT", "SYMMETRIC")


class Pad(Cell):
    """``nn.Pad(paddings, mode="CONSTANT")``: paddings[i] = (before, after) elements added on axis i.

    CONSTANT adds zeros; REFLECT mirrors without repeating the edge ([1 2 3] -> [3 2 1 2 3]); SYMMETRIC
    mirrors with it ([1 2 3] -> [2 1 1 2 3]), as MindSpore 2.10's MirrorPad.
    """

    def __init__(self, paddings, mode="CONSTANT"):
        super().__init__()
        if not isinstance(mode, str) or mode.upper() not in _MODES:
            raise ValueError(f"For 'Pad', the 'mode' must be str and must be in '{list(_MODES)}', but got {mode!r}.")
        if not isinstance(paddings, (tuple, list)) or not all(
                isinstance(p, (tuple, list)) and len(p) == 2 and all(isinstance(v, int) and v >= 0 for v in p)
                for p in paddings):
            raise TypeError(f"For 'Pad', 'paddings' must be a tuple of (before, after) pairs of ints >= 0, "
                            f"got {paddings!r}")
        self.paddings = tuple(tuple(p) for p in paddings)
        self.mode = mode.upper()

    def _pad_axis(self, x, axis, before, after):
        n = x.shape[axis]
        limit = n - 1 if self.mode == "REFLECT" else n
        if self.mode != "CONSTANT" and (before > limit or after > limit):
            raise ValueError(f"For 'Pad', {self.mode} paddings must be no greater than the dimension size: "
                             f"({before}, {after}) on axis {axis} of size {n}")
        return pad_axis(x, axis, before, after, self.mode.lower())

    def construct(self, x):
        if len(self.paddings) != len(x.shape):
            raise ValueError(f"For 'Pad', the length of 'paddings' must be equal to the rank of 'input_x', "
                             f"but got {len(self.paddings)} vs {len(x.shape)}")
        for axis, (before, after) in enumerate(self.paddings):
            if before or after:
                x = self._pad_axis(x, axis, before, after)
        return x
