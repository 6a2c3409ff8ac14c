"""Convolution layers, as ``mindspore.nn``: Conv2d and Conv1d."""
import functools
import math

from mslab.core import dtype as mstype
from mslab.core.initializer import HeUniform, Uniform, _calculate_fan_in_and_fan_out
from mslab.core.tensor import Parameter, Tensor, initializer
from mslab.nn.cell import Cell
from mslab.nn.layer.basic import _check_int, _init_repr
from mslab.ops import functional as F
from mslab.ops.nn_ops import BiasAdd

__all__ = ["Conv2d", "Conv1d"]


def _pair(value, name, cls_name, minimum=1, n=2):
    """An int or n ints (n = 2 for 2-D layers, 3 for 3-D) -> a tuple of n ints >= minimum."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * n
    if (not isinstance(value, (tuple, list)) or len(value) != n
            or any(isinstance(v, bool) or not isinstance(v, int) or v < minimum for v in value)):
        raise ValueError(f"For '{cls_name}', '{name}' must be an int or a tuple of {n} ints >= {minimum}, "
                         f"got {value!r}")
    return tuple(value)


def _padding(padding, pad_mode, cls_name, n=2):
    lengths = (2, 4) if n == 2 else (6,)
    if isinstance(padding, int) and not isinstance(padding, bool):
        ok = padding >= 0
    elif isinstance(padding, (tuple, list)) and len(padding) in lengths:
        padding = tuple(padding)
        ok = all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in padding)
    elif n == 3 and isinstance(padding, tuple):
        raise ValueError(f"For '{cls_name}', the 'padding size' must be int and must = 6, but got '{len(padding)}'")
    else:
        ok = False
    if not ok:
        raise ValueError(f"For '{cls_name}', padding must be an int >= 0 or a tuple of "
                         f"{' or '.join(map(str, lengths))} of them, got {padding!r}")
    if pad_mode != "pad" and padding not in (0, (0,) * 2, (0,) * 4, (0,) * 6):
        raise ValueError(f"For '{cls_name}', padding={padding!r} needs pad_mode='pad' (got pad_mode={pad_mode!r})")
    return padding


class Conv2d(Cell):
    """2-D convolution over an (N, C, H, W) input (``mindspore.nn.Conv2d``).

    ``weight`` has shape ``(out_channels, in_channels // group, kh, kw)``. ``pad_mode`` is "same"
    (output H = ceil(H / stride), the default), "valid" (no padding) or "pad" (``padding`` zeros:
    an int, (h, w) or (top, bottom, left, right)). Without bias by default. Initialisers default
    (None) to MindSpore 2.x's ``HeUniform(math.sqrt(5))`` and ``Uniform(1 / sqrt(fan_in))``.
    """

    _dims, _format = 2, "NCHW"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0,
                 dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None, data_format="NCHW",
                 dtype=mstype.float32):
        super().__init__()
        name = type(self).__name__
        self.in_channels = _check_int(in_channels, "in_channels", name)
        self.out_channels = _check_int(out_channels, "out_channels", name)
        n = self._dims
        self.kernel_size = _pair(kernel_size, "kernel_size", name, n=n)
        self.stride = _pair(stride, "stride", name, n=n)
        self.dilation = _pair(dilation, "dilation", name, n=n)
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("same", "valid", "pad"):
            raise ValueError(f"For '{name}', pad_mode must be 'same', 'valid' or 'pad', got {pad_mode!r}")
        self.pad_mode = pad_mode.lower()
        self.padding = _padding(padding, self.pad_mode, name, n)
        self.group = _check_int(group, "group", name)
        if in_channels % group or out_channels % group:
            raise ValueError(f"For '{name}', in_channels ({in_channels}) and out_channels ({out_channels}) must be "
                             f"divisible by group ({group})")
        if data_format != self._format:
            raise ValueError(f"For '{name}', mslab supports data_format={self._format!r} only, got {data_format!r}")
        self.data_format = data_format
        self.has_bias = bool(has_bias)
        self.weight_init, self.bias_init = weight_init, bias_init
        shape = self._weight_shape()
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != shape:
            raise ValueError(f"For '{name}', weight_init shape {tuple(weight_init.shape)} must be {shape}")
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)) if weight_init is None else weight_init,
                                            shape, dtype), name="weight")
        self.bias = None
        if self.has_bias:
            if bias_init is None:
                bias_init = Uniform(1 / math.sqrt(_calculate_fan_in_and_fan_out(shape)[0]))
            self.bias = Parameter(initializer(bias_init, (out_channels,), dtype), name="bias")
        # MindSpore's layer holds its operators under these names, and model code that subclasses the layer calls
        # them: ``self.conv2d(x, standardised_weight)`` (mindcv's BiT does). Here ``conv2d`` is the functional
        # convolution with this layer's settings (it also runs grouped convolutions, one Conv2D per group).
        self.conv2d = functools.partial(F.conv2d, stride=self.stride, pad_mode=self.pad_mode, padding=self.padding,
                                        dilation=self.dilation, groups=self.group)
        self.bias_add = BiasAdd()

    def _weight_shape(self):
        return (self.out_channels, self.in_channels // self.group) + self.kernel_size

    def construct(self, x):
        out = self.conv2d(x, self.weight)
        if self.has_bias:
            out = self.bias_add(out, self.bias)
        return out

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}, "
                f"padding={self.padding}, dilation={self.dilation}, group={self.group}, has_bias={self.has_bias}, "
                f"weight_init={_init_repr(self.weight_init)}, bias_init={_init_repr(self.bias_init)}, "
                f"format={self.data_format}")


class Conv1d(Conv2d):
    """1-D convolution over an (N, C, L) input (``mindspore.nn.Conv1d``).

    As MindSpore, it is a Conv2d over (N, C, 1, L): the weight has shape (out_channels, in_channels //
    group, 1, kernel_size) (a 3-D ``weight_init`` tensor gets the axis of 1), and ``padding`` p pads the
    length only ((0, 0, p, p) in the repr).
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, dtype=mstype.float32):
        weight_init = _conv1d_args(type(self).__name__, kernel_size, stride, dilation, padding, weight_init)
        super().__init__(in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode, (0, 0, padding, padding),
                         (1, dilation), group, has_bias, weight_init, bias_init, "NCHW", dtype)

    def construct(self, x):
        return _over_length(self, super().construct, x)


def _conv1d_args(name, kernel_size, stride, dilation, padding, weight_init):
    """Check a 1-D layer's int arguments; a 3-D ``weight_init`` tensor gets the axis of 1 (as MindSpore)."""
    for arg, value in (("kernel_size", kernel_size), ("stride", stride), ("dilation", dilation),
                       ("padding", padding)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"For '{name}', '{arg}' must be an int, got {value!r}")
    if isinstance(weight_init, Tensor):
        if len(weight_init.shape) != 3:
            raise ValueError(f"For '{name}', a weight_init tensor must be 3-D (channels, channels, kernel_size), "
                             f"got shape {tuple(weight_init.shape)}")
        weight_init = F.expand_dims(weight_init, 2)
    return weight_init


def _over_length(cell, construct_2d, x):
    """Run a 2-D layer's construct on (N, C, L) as (N, C, 1, L) and drop the axis of 1 again."""
    if len(x.shape) != 3:
        raise ValueError(f"For '{type(cell).__name__}', the input must be (N, C, L), got shape {tuple(x.shape)}")
    return F.squeeze(construct_2d(F.expand_dims(x, 2)), 2)
