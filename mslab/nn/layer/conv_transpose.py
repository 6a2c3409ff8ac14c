"""Transposed convolution layers, as ``mindspore.nn``: Conv2dTranspose and Conv1dTranspose.

A transposed convolution is the input gradient of a convolution used forwards: each input pixel
scatters ``pixel * kernel`` into a larger image (stride s spreads the scatters s pixels apart). As in
MindSpore it is the primitive Conv2DTranspose (= Conv2DBackpropInput) asked for an output of size

    valid: H * s + max(k_eff - s, 0)      same: H * s      pad: H * s - (top + bottom) + k_eff - s

with k_eff = dilation * (k - 1) + 1: the size of the convolution input whose output is H.
"""
from mslab.core import dtype as mstype
from mslab.nn.layer.conv import Conv2d, _conv1d_args, _over_length
from mslab.nn.layer.padding import Pad
from mslab.ops import conv_ops
from mslab.ops import functional as F

__all__ = ["Conv2dTranspose", "Conv1dTranspose"]


def _deconv_length(pad_mode, size, k, s, d, pad):
    """MindSpore's ``_deconv_output_length``: the output size along one axis (see the module docstring)."""
    k_eff = d * (k - 1) + 1
    if pad_mode == "valid":
        return size * s + max(k_eff - s, 0)
    if pad_mode == "same":
        return size * s
    return size * s - pad + k_eff - s


class Conv2dTranspose(Conv2d):
    """2-D transposed convolution ("deconvolution") of an (N, C_in, H, W) input (``mindspore.nn.Conv2dTranspose``).

    ``weight`` has shape ``(in_channels, out_channels // group, kh, kw)``: in_channels first, as the
    weight of the Conv2d it transposes. ``pad_mode`` "same" (the default: output H * stride), "valid"
    or "pad" (``padding`` int or (top, bottom, left, right) cropped from the full output);
    ``output_padding`` (pad_mode "pad" only) appends zero rows/columns at the bottom/right. A
    Conv2d with the same arguments maps the output's shape back to the input's.
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, output_padding=0,
                 dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None, dtype=mstype.float32):
        name = type(self).__name__
        if isinstance(padding, tuple) and len(padding) != 4:
            raise ValueError(f"For '{name}', the 'padding size' must be int and must = 4, but got '{len(padding)}'")
        output_pads = self._check_output_padding(output_padding, name)
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, "NCHW", dtype)
        self._output_padding = output_pads
        self.output_padding = output_padding
        pads = (self.padding,) * 4 if isinstance(self.padding, int) else self.padding
        self._pad_hw = (pads[0] + pads[1], pads[2] + pads[3])
        limits = tuple(max(s, d) for s, d in zip(self.stride, self.dilation))
        if any(not 0 <= p < m for p, m in zip(self._output_padding, limits)):
            raise ValueError(f"For '{name}', output_padding must be in range of [0, max(stride, dilation)) = "
                             f"[0, {limits}), got {output_padding!r}")
        if any(self._output_padding) and self.pad_mode != "pad":
            raise ValueError(f"For '{name}', when output_padding is not zero, pad_mode must be 'pad'")
        # the primitive's out_channel is that of the Conv2d being transposed: this layer's in_channels
        self.conv2d_transpose = conv_ops.Conv2DTranspose(in_channels // group, self.kernel_size, pad_mode=self.pad_mode,
                                                         pad=pads if self.pad_mode == "pad" else 0, stride=self.stride,
                                                         dilation=self.dilation)

    @staticmethod
    def _check_output_padding(output_padding, name):
        if isinstance(output_padding, int) and not isinstance(output_padding, bool):
            return (output_padding, output_padding)
        if isinstance(output_padding, tuple) and len(output_padding) == 2:
            return output_padding
        raise ValueError(f"For '{name}', output_padding must be an int or a tuple of 2 ints, got {output_padding!r}")

    def _weight_shape(self):
        return (self.in_channels, self.out_channels // self.group) + self.kernel_size

    def construct(self, x):
        if len(x.shape) != 4:
            raise ValueError(f"For '{type(self).__name__}', the input must be (N, C, H, W), got shape {tuple(x.shape)}")
        n, c, h, w = x.shape
        if c != self.in_channels:
            raise ValueError(f"For '{type(self).__name__}', the input has {c} channels but "
                             f"in_channels={self.in_channels}")
        size = tuple(_deconv_length(self.pad_mode, length, k, s, d, p) for length, k, s, d, p in
                     zip((h, w), self.kernel_size, self.stride, self.dilation, self._pad_hw))
        g = self.group
        out_size = (n, self.out_channels // g) + size
        if g == 1:
            out = self.conv2d_transpose(x, self.weight, out_size)
        else:  # group i's output channels come from group i's input channels only
            xs, ws = F.split(x, c // g, 1), F.split(self.weight, c // g, 0)
            out = F.concat(tuple(self.conv2d_transpose(a, b, out_size) for a, b in zip(xs, ws)), 1)
        if self.has_bias:
            out = F.bias_add(out, self.bias)
        if any(self._output_padding):
            out = Pad(((0, 0), (0, 0), (0, self._output_padding[0]), (0, self._output_padding[1])))(out)
        return out


class Conv1dTranspose(Conv2dTranspose):
    """1-D transposed convolution of an (N, C_in, L) input (``mindspore.nn.Conv1dTranspose``).

    As MindSpore, a Conv2dTranspose over (N, C, 1, L): the weight has shape (in_channels, out_channels //
    group, 1, kernel_size) (a 3-D ``weight_init`` tensor gets the axis of 1), ``padding`` p pads the
    length only ((0, 0, p, p) in the repr).
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, dtype=mstype.float32):
        weight_init = _conv1d_args(type(self).__name__, kernel_size, stride, dilation, padding, weight_init)
        super().__init__(in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode, (0, 0, padding, padding),
                         0, (1, dilation), group, has_bias, weight_init, bias_init, dtype)

    def construct(self, x):
        return _over_length(self, super().construct, x)
