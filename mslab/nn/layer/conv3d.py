"""3-D convolution, as ``mindspore.nn.Conv3d``, built from 2-D convolutions.

A kd x kh x kw kernel over (N, C, D, H, W) is kd 2-D kernels: output slice d is the sum, over kernel
depth i, of a 2-D convolution of input slice ``d * stride_d + i * dilation_d`` with the weight's
slice i. So the layer runs kd Conv2D nodes, each on every output depth at once (depth folded into the
batch axis), and its gradients are those of Conv2D, the slices and the reshapes.
"""
from mslab.core import dtype as mstype
from mslab.nn.layer.conv import Conv2d
from mslab.ops import functional as F

__all__ = ["Conv3d"]


def _depth_pads(pad_mode, padding, size, k, s, d):
    """(front, back) zero slices added on the depth axis; "same" puts the odd one at the back."""
    if pad_mode == "valid":
        return 0, 0
    if pad_mode == "same":
        total = max((-(-size // s) - 1) * s + d * (k - 1) + 1 - size, 0)
        return total // 2, total - total // 2
    return (padding, padding) if isinstance(padding, int) else tuple(padding[:2])


class Conv3d(Conv2d):
    """3-D convolution over an (N, C, D, H, W) input (``mindspore.nn.Conv3d``).

    ``weight`` has shape ``(out_channels, in_channels // group, kd, kh, kw)``; kernel_size, stride and
    dilation are an int or 3 ints. ``pad_mode`` "same" (the default: output ceil(size / stride) on
    each axis), "valid", or "pad" with ``padding`` an int or (head, tail, top, bottom, left, right).
    Initialisers as Conv2d.
    """

    _dims, _format = 3, "NCDHW"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, data_format="NCDHW", dtype=mstype.float32):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, data_format, dtype)

    def construct(self, x):
        name = type(self).__name__
        if len(x.shape) != 5 or x.shape[1] != self.in_channels:
            raise ValueError(f"For '{name}', the input must be (N, {self.in_channels}, D, H, W), got shape "
                             f"{tuple(x.shape)}")
        n, c, depth, h, w = x.shape
        (kd, _, _), (sd, sh, sw), (dd, dh, dw) = self.kernel_size, self.stride, self.dilation
        front, back = _depth_pads(self.pad_mode, self.padding, depth, kd, sd, dd)
        parts = [F.zeros((n, c, size, h, w), x.dtype) if size else None for size in (front, back)]
        if front or back:
            x = F.concat(tuple(p for p in (parts[0], x, parts[1]) if p is not None), 2)
        out_depth = (depth + front + back - dd * (kd - 1) - 1) // sd + 1
        if out_depth < 1:
            raise ValueError(f"For '{name}', the kernel (depth {kd}, dilation {dd}) does not fit the padded input "
                             f"depth {depth + front + back}")
        padding = self.padding if isinstance(self.padding, int) else self.padding[2:]
        out = None
        for i in range(kd):  # kernel depth i: every output depth's input slice at once, as a batch of 2-D images
            start = i * dd
            xs = F.transpose(x[:, :, start:start + (out_depth - 1) * sd + 1:sd], (0, 2, 1, 3, 4))
            y = F.conv2d(F.reshape(xs, (n * out_depth, c, h, w)), self.weight[:, :, i], stride=(sh, sw),
                         pad_mode=self.pad_mode, padding=padding if self.pad_mode == "pad" else 0, dilation=(dh, dw),
                         groups=self.group)
            out = y if out is None else F.add(out, y)
        out = F.transpose(F.reshape(out, (n, out_depth) + tuple(out.shape[1:])), (0, 2, 1, 3, 4))
        if self.has_bias:
            out = F.add(out, F.reshape(self.bias, (self.out_channels, 1, 1, 1)))
        return out
