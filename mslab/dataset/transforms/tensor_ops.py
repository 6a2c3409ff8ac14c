"""Column transforms, as ``mindspore.dataset.transforms``: Duplicate, Fill, PadEnd.

    >>> import numpy as np
    >>> PadEnd([4], 9)(np.array([1, 2], np.int32))
    array([1, 2, 9, 9], dtype=int32)
"""
import numpy as np

from mslab.dataset.transforms.transforms import Transform


class Duplicate(Transform):
    """The input and a copy of it: ``map(Duplicate(), input_columns=["x"], output_columns=["x", "y"])``."""

    def apply(self, x):
        return x, x.copy()


class Fill(Transform):
    """An array of the input's shape and dtype, every element ``fill_value`` (cast as numpy casts: 2.5 -> 2)."""

    def __init__(self, fill_value):
        self.fill_value = fill_value

    def apply(self, x):
        if x.dtype.kind in "US":
            return np.full(x.shape, str(self.fill_value))
        return np.full(x.shape, self.fill_value).astype(x.dtype)


class PadEnd(Transform):
    """Pad (or cut) the input at the end of each axis to ``pad_shape``, with ``pad_value`` (0, or "" for text)."""

    def __init__(self, pad_shape, pad_value=None):
        self.pad_shape, self.pad_value = [int(n) for n in pad_shape], pad_value

    def apply(self, x):
        if len(self.pad_shape) != x.ndim:  # MindSpore's message
            raise RuntimeError(f"PadEnd: invalid pad shape, as rank of input is: {x.ndim}, and rank of pad value: "
                               f"{len(self.pad_shape)}")
        x = x[tuple(slice(0, n) for n in self.pad_shape)]
        widths = [(0, n - s) for n, s in zip(self.pad_shape, x.shape)]
        if x.dtype.kind in "US":
            value = "" if self.pad_value is None else str(self.pad_value)
            return np.pad(x.astype(np.result_type(x.dtype, np.array(value).dtype)), widths, constant_values=value)
        return np.pad(x, widths, constant_values=0 if self.pad_value is None else self.pad_value)
