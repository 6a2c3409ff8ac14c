"""Pooling layers, as ``mindspore.nn``: MaxPool2d, AvgPool2d and AdaptiveAvgPool2d over (N, C, H, W) inputs,
MaxPool1d over (N, C, L)."""
import numpy as np

from mslab.core.tensor import Tensor
from mslab.nn.cell import Cell
from mslab.nn.layer.conv import _pair
from mslab.ops import functional as F

__all__ = ["MaxPool2d", "AvgPool2d", "MaxPool1d", "AdaptiveAvgPool2d"]


class _Pool2d(Cell):
    _fn = None

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, data_format="NCHW"):
        super().__init__()
        name = type(self).__name__
        self.kernel_size = _pair(kernel_size, "kernel_size", name)
        self.stride = _pair(stride, "stride", name)
        self._given = (kernel_size, stride)  # the repr shows them as given (``kernel_size=2``), as MindSpore
        if not isinstance(pad_mode, str) or pad_mode.upper() not in ("VALID", "SAME", "PAD"):
            raise ValueError(f"For '{name}', pad_mode must be 'valid', 'same' or 'pad', got {pad_mode!r}")
        self.pad_mode = pad_mode.upper()
        if data_format != "NCHW":
            raise ValueError(f"For '{name}', mslab supports data_format='NCHW' only, got {data_format!r}")
        if isinstance(padding, list):
            padding = tuple(padding)
        if padding not in (0, (0, 0), (0, 0, 0, 0)) and self.pad_mode == "SAME":
            raise ValueError(f"For '{name}', give padding={padding!r} with pad_mode 'pad' or 'valid', not 'same'")
        self.padding = padding

    def construct(self, x):
        if len(x.shape) != 4:
            raise ValueError(f"{type(self).__name__}: input must be (N, C, H, W), got shape {tuple(x.shape)}")
        pad_mode = "valid" if self.pad_mode == "PAD" else self.pad_mode.lower()
        return type(self)._fn(x, self.kernel_size, self.stride, padding=self.padding, pad_mode=pad_mode)

    def extend_repr(self):
        kernel_size, stride = self._given
        return f"kernel_size={kernel_size}, stride={stride}, pad_mode={self.pad_mode}"


class MaxPool2d(_Pool2d):
    """Maximum over each ``kernel_size`` window, moving by ``stride`` (``mindspore.nn.MaxPool2d``).

    Note MindSpore's default stride is 1, not kernel_size: LeNet writes ``MaxPool2d(kernel_size=2, stride=2)``.
    """

    _fn = staticmethod(F.max_pool2d)


class AvgPool2d(_Pool2d):
    """Mean over each ``kernel_size`` window, moving by ``stride`` (``mindspore.nn.AvgPool2d``)."""

    _fn = staticmethod(F.avg_pool2d)


class MaxPool1d(MaxPool2d):
    """Maximum over each ``kernel_size`` window of an (N, C, L) or (C, L) input (``mindspore.nn.MaxPool1d``).

    As MindSpore, a MaxPool2d with kernel (1, kernel_size) over (N, C, 1, L). pad_mode "valid" or
    "same"; MindSpore's pad_mode="pad" (padding, dilation, return_indices, ceil_mode) runs a 3-D
    argmax pooling that mslab does not implement.
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        for arg, value in (("kernel_size", kernel_size), ("stride", stride)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"For 'MaxPool1d', the '{arg}' must be int and must >= 1, but got {value!r}.")
        if str(pad_mode).upper() == "PAD":
            raise ValueError("For 'MaxPool1d', pad_mode='pad' (MindSpore's MaxPool3DWithArgmax path) is not "
                             "implemented in mslab; use pad_mode 'valid' or 'same'")
        if padding != 0 or dilation != 1 or return_indices or ceil_mode:
            raise ValueError(f"For MaxPool1d, the parameter 'padding', 'dilation', 'return_indices', 'ceil_mode' "
                             f"can not be set to non-default value when pad_mode is not 'pad', but got "
                             f"pad_mode:{pad_mode}.")
        super().__init__((1, kernel_size), (1, stride), pad_mode)

    def construct(self, x):
        unbatched = len(x.shape) == 2
        if unbatched:
            x = F.expand_dims(x, 0)
        if len(x.shape) != 3:
            raise ValueError(f"For 'MaxPool1d', the input must be (N, C, L) or (C, L), got shape {tuple(x.shape)}")
        out = F.squeeze(super().construct(F.expand_dims(x, 2)), 2)
        return F.squeeze(out, 0) if unbatched else out


def _averaging(size, out):
    """(size, out) matrix: column i averages positions floor(i * size / out) .. ceil((i + 1) * size / out)."""
    m = np.zeros((size, out), np.float32)
    for i in range(out):
        start, end = (i * size) // out, -(-((i + 1) * size) // out)
        m[start:end, i] = 1.0 / (end - start)
    return m


class AdaptiveAvgPool2d(Cell):
    """Average pooling to a fixed output size, ``AdaptiveAvgPool2d(output_size)`` (``mindspore.nn``).

    Output cell (i, j) of an (H, W) input averages rows floor(i H / oh) .. ceil((i + 1) H / oh) and
    the same columns for W; ``output_size`` is an int, (oh, ow), or None in a place to keep that
    size. Computed as two matmuls with constant averaging matrices, so the gradient spreads each
    output's gradient evenly over its window. Input (N, C, H, W) or (C, H, W).
    """

    def __init__(self, output_size):
        super().__init__()
        sizes = (output_size, output_size) if isinstance(output_size, int) or output_size is None else output_size
        if not isinstance(sizes, (tuple, list)) or len(sizes) != 2 or not all(
                s is None or (isinstance(s, int) and not isinstance(s, bool) and s > 0) for s in sizes):
            raise ValueError(f"For 'AdaptiveAvgPool2d', output_size must be an int > 0, None or a pair of them, got "
                             f"{output_size!r}")
        self.output_size = tuple(sizes)

    def construct(self, x):
        if len(x.shape) not in (3, 4):
            raise ValueError(f"For primitive[AdaptiveAvgPool2D], the dim of x must be in [3,4], but got "
                             f"{len(x.shape)}.")
        *lead, h, w = x.shape
        oh, ow = (h if self.output_size[0] is None else self.output_size[0],
                  w if self.output_size[1] is None else self.output_size[1])
        cols = F.matmul(F.reshape(x, (-1, w)), F.cast(Tensor(_averaging(w, ow)), x.dtype))  # (..., h, ow)
        rows = F.swapaxes(F.reshape(cols, tuple(lead) + (h, ow)), -1, -2)
        out = F.matmul(F.reshape(rows, (-1, h)), F.cast(Tensor(_averaging(h, oh)), x.dtype))  # (..., ow, oh)
        return F.swapaxes(F.reshape(out, tuple(lead) + (ow, oh)), -1, -2)
