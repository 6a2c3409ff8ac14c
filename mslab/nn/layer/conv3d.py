"""3-D convolutions, as ``mindspore.nn.Conv3d`` and ``nn.Conv3dTranspose``, built from 2-D ones.

A kd x kh x kw kernel over (N, C, D, H, W) is kd 2-D kernels: output slice d is the sum, over kernel
depth i, of a 2-D convolution of input slice ``d * stride_d + i * dilation_d`` with the weight's
slice i. So the layer runs kd Conv2D nodes, each on every output depth at once (depth folded into the
batch axis), and its gradients are those of Conv2D, the slices and the reshapes. The transposed
layer runs kd Conv2DTranspose nodes the same way, each input slice d scattering into output slices
``d * stride_d + i``, then crops the full result to MindSpore's output size.
"""
from mslab.core import dtype as mstype
from mslab.nn.layer.conv import Conv2d, _pair
from mslab.ops import conv_ops
from mslab.ops import functional as F

__all__ = ["Conv3d", "Conv3dTranspose"]


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

    def _input_shape(self, x):
        if len(x.shape) != 5 or x.shape[1] != self.in_channels:
            raise ValueError(f"For '{type(self).__name__}', the input must be (N, {self.in_channels}, D, H, W), got "
                             f"shape {tuple(x.shape)}")
        return x.shape

    def construct(self, x):
        n, c, depth, h, w = self._input_shape(x)
        (kd, _, _), (sd, sh, sw), (dd, dh, dw) = self.kernel_size, self.stride, self.dilation
        front, back = _depth_pads(self.pad_mode, self.padding, depth, kd, sd, dd)
        parts = [F.zeros((n, c, size, h, w), x.dtype) if size else None for size in (front, back)]
        if front or back:
            x = F.concat(tuple(p for p in (parts[0], x, parts[1]) if p is not None), 2)
        out_depth = (depth + front + back - dd * (kd - 1) - 1) // sd + 1
        if out_depth < 1:
            raise ValueError(f"For '{type(self).__name__}', the kernel (depth {kd}, dilation {dd}) does not fit the "
                             f"padded input depth {depth + front + back}")
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


def _crop(t, axis, start, length):
    """``t[start:start + length]`` along ``axis``, zeros where that runs past the end."""
    extra = start + length - t.shape[axis]
    if extra > 0:
        t = F.concat((t, F.zeros(t.shape[:axis] + (extra,) + t.shape[axis + 1:], t.dtype)), axis)
    return t[(slice(None),) * axis + (slice(start, start + length),)]


class Conv3dTranspose(Conv3d):
    """3-D transposed convolution of an (N, C_in, D, H, W) input (``mindspore.nn.Conv3dTranspose``).

    ``weight`` has shape ``(in_channels, out_channels // group, kd, kh, kw)``. Per axis, with
    k_eff = dilation * (k - 1) + 1 and the full scatter (size - 1) * stride + k_eff, the output is
    "valid": size * stride + max(k_eff - stride, 0) (zeros past the full scatter); "same": size *
    stride, cropping the odd extra at the end; "pad": the full scatter less ``padding`` (head, tail,
    top, bottom, left, right), plus ``output_padding`` at the end. Depth dilation must be 1 (MindSpore).
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, output_padding=0, has_bias=False, weight_init=None, bias_init=None, data_format="NCDHW",
                 dtype=mstype.float32):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, data_format, dtype)
        name = type(self).__name__
        self.output_padding = _pair(output_padding, "output_padding", name, minimum=0, n=3)
        if self.dilation[0] != 1:
            raise ValueError(f"For 'Conv3DTranspose', the depth of parameter 'dilation' must be 1, but got "
                             f"{self.dilation[0]}.")
        if any(self.output_padding) and self.pad_mode != "pad":
            raise ValueError(f"For '{name}', mslab applies output_padding with pad_mode='pad' only")
        g = self.group
        self.conv2d_transpose = conv_ops.Conv2DTranspose(in_channels // g, self.kernel_size[1:], pad_mode="pad",
                                                         stride=self.stride[1:], dilation=self.dilation[1:])

    def _weight_shape(self):
        return (self.in_channels, self.out_channels // self.group) + self.kernel_size

    def _window(self, axis, size):
        """(start, length) of the output within the full scatter along spatial axis 0, 1 or 2."""
        k, s = self.kernel_size[axis], self.stride[axis]
        k_eff = self.dilation[axis] * (k - 1) + 1
        if self.pad_mode == "valid":
            return 0, size * s + max(k_eff - s, 0)
        if self.pad_mode == "same":
            return max(k_eff - s, 0) // 2, size * s
        pads = (self.padding,) * 2 if isinstance(self.padding, int) else self.padding[2 * axis:2 * axis + 2]
        return pads[0], (size - 1) * s + k_eff - pads[0] - pads[1] + self.output_padding[axis]

    def construct(self, x):
        n, c, depth, h, w = self._input_shape(x)
        (kd, kh, kw), (sd, sh, sw), (_, dh, dw) = self.kernel_size, self.stride, self.dilation
        g, out_c = self.group, self.out_channels
        full_h, full_w = (h - 1) * sh + dh * (kh - 1) + 1, (w - 1) * sw + dw * (kw - 1) + 1
        flat = F.reshape(F.transpose(x, (0, 2, 1, 3, 4)), (n * depth, c, h, w))
        xs, size = F.split(flat, c // g, 1), (n * depth, out_c // g, full_h, full_w)
        full_d, out = (depth - 1) * sd + kd, None
        for i in range(kd):  # kernel depth i: input slice d lands on output slice d * sd + i
            ws = F.split(self.weight[:, :, i], c // g, 0)
            y = F.concat(tuple(self.conv2d_transpose(a, b, size) for a, b in zip(xs, ws)), 1)
            y = F.reshape(y, (n, depth, 1, out_c, full_h, full_w))
            if sd > 1:  # spread the slices sd apart
                y = F.concat((y, F.zeros((n, depth, sd - 1, out_c, full_h, full_w), y.dtype)), 2)
            y = _crop(F.reshape(y, (n, depth * sd, out_c, full_h, full_w)), 1, 0, (depth - 1) * sd + 1)
            parts = (F.zeros((n, i, out_c, full_h, full_w), y.dtype) if i else None, y,
                     F.zeros((n, kd - 1 - i, out_c, full_h, full_w), y.dtype) if kd - 1 - i else None)
            y = F.concat(tuple(p for p in parts if p is not None), 1) if i or kd - 1 - i else y
            out = y if out is None else F.add(out, y)
        out = F.transpose(F.reshape(out, (n, full_d, out_c, full_h, full_w)), (0, 2, 1, 3, 4))
        for axis, size in enumerate((depth, h, w)):
            out = _crop(out, axis + 2, *self._window(axis, size))
        if self.has_bias:
            out = F.add(out, F.reshape(self.bias, (out_c, 1, 1, 1)))
        return out
