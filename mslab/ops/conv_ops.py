"""Convolution primitives (NCHW): Conv2D and its two backward kernels.

The backward work is a primitive of its own (``Conv2DBackpropInput``, ``Conv2DBackpropFilter``), as in
MindSpore, so a backward graph shows them as nodes. The numpy kernels (im2col + one BLAS matmul) live in
``conv_kernels``; the geometry (padding, output size) is worked out once per node at compile time.
"""

from mslab.core.op_registry import op_table
from mslab.ops import conv_kernels as K
from mslab.ops.primitive import Primitive, check_float, check_same_dtype, hashable, instance

__all__ = [
    "Conv2D",
    "Conv2DBackpropFilter",
    "Conv2DBackpropInput",
    "Conv2DTranspose",
]



def _shape(v):
    return tuple(v.shape)


# ---- convolution ----------------------------------------------------------------------------------------
class _ConvBase(Primitive):
    """Attributes and geometry shared by Conv2D and its two backward kernels."""

    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1, dilation=1, group=1,
                 data_format="NCHW", pad_list=None):
        name = type(self).__name__
        pad_mode = K.pad_mode_of(pad_mode, ("valid", "same", "pad"))
        if pad_list is not None and pad_mode == "pad":
            pad = pad_list
        pad = K.four_pads(pad)
        if pad_mode != "pad" and any(pad):
            raise ValueError(f"{name}: pad={pad} needs pad_mode='pad' (got pad_mode={pad_mode!r})")
        if group != 1:
            raise ValueError(f"{name}: group={group} is not supported; mslab implements only group=1 (no grouped or "
                             f"depthwise convolution)")
        if mode != 1:
            raise ValueError(f"{name}: only mode=1 (cross-correlation) exists, got mode={mode}")
        if data_format != "NCHW":
            raise ValueError(f"{name}: only data_format='NCHW' is supported, got {data_format!r}")
        super().__init__(out_channel=int(out_channel), kernel_size=K.pair(kernel_size, f"{name} kernel_size"),
                         mode=mode, pad_mode=pad_mode, pad=pad, stride=K.pair(stride, f"{name} stride"),
                         dilation=K.pair(dilation, f"{name} dilation"), group=group, data_format=data_format)

    def _sibling(self, cls):
        cache = self.__dict__.setdefault("_siblings", {})
        p = cache.get(cls)
        if p is None:
            a = self.attrs
            p = cache[cls] = cls(a["out_channel"], a["kernel_size"], mode=1, pad_mode=a["pad_mode"], pad=a["pad"],
                                 stride=a["stride"], dilation=a["dilation"])
        return p

    def _geometry(self, x_shape):
        """(pads, (OH, OW)) for an input of shape x_shape."""
        return K.window_geometry(x_shape, self.kernel_size, self.stride, self.dilation, self.pad_mode, self.pad)

    def _check(self, x_shape, w_shape, what_x="x"):
        if len(x_shape) != 4:
            raise ValueError(f"needs {what_x} of shape (N, C, H, W), got {x_shape}")
        if len(w_shape) != 4:
            raise ValueError(f"needs a weight of shape (out_channel, in_channel, kh, kw), got {w_shape}")
        if x_shape[1] != w_shape[1]:
            raise ValueError(f"{what_x} has {x_shape[1]} input channels ({what_x} shape {x_shape}) "
                             f"but the weight expects {w_shape[1]} (weight shape {w_shape} = (out, in, kh, kw))")
        if w_shape[0] != self.out_channel:
            raise ValueError(f"weight shape {w_shape} has {w_shape[0]} output channels, but "
                             f"out_channel={self.out_channel}")
        if tuple(w_shape[2:]) != self.kernel_size:
            raise ValueError(f"weight shape {w_shape} has a {w_shape[2]}x{w_shape[3]} kernel, but "
                             f"kernel_size={self.kernel_size}")
        pads, (oh, ow) = self._geometry(x_shape)
        return pads, (x_shape[0], self.out_channel, oh, ow)


class Conv2D(_ConvBase):
    """2-D convolution (cross-correlation) ``Conv2D(out_channel, kernel_size, ...)(x, weight)``, NCHW.

    x (N, C, H, W), weight (out_channel, C, kh, kw) -> (N, out_channel, OH, OW). pad_mode "valid" (no
    padding), "same" (output ceil(H / stride); the odd padding pixel goes bottom/right) or "pad"
    (``pad``: int or (top, bottom, left, right)). Only group=1. Computed as im2col + one matmul.
    Gradients: Conv2DBackpropInput (for x) and Conv2DBackpropFilter (for weight).
    """

    n_tensors = 2

    def infer(self, x, w):
        check_float(self, x, w)
        check_same_dtype(self, x, w)
        return self._check(_shape(x), _shape(w))[1], x.dtype

    def compute(self, x, w):
        pads, out_hw = self._geometry(x.shape)
        return K.conv2d(x, w, self.stride, self.dilation, pads, out_hw)

    def kernel(self, ins):
        (pads, out_hw), stride, dilation = self._geometry(tuple(ins[0].shape)), self.stride, self.dilation
        return lambda x, w: K.conv2d(x, w, stride, dilation, pads, out_hw)

    def bprop(self, x, w, out, dout, needs):  # needs: no gradient for the images (a whole convolution)
        dx = self._sibling(Conv2DBackpropInput)(dout, w, _shape(x)) if needs[0] else None
        dw = self._sibling(Conv2DBackpropFilter)(dout, x, _shape(w)) if needs[1] else None
        return dx, dw


class Conv2DBackpropInput(_ConvBase):
    """Conv2D's input gradient: ``Conv2DBackpropInput(...)(dout, weight, input_size)`` -> (N, C, H, W).

    Each window's gradient weight^T @ dout is added back where the window read (col2im). Its own
    gradients: conv2d(g, weight) for dout and Conv2DBackpropFilter(dout, g) for weight.
    """

    n_tensors = 2

    def __init__(self, out_channel, kernel_size, pad_mode="valid", pad=0, pad_list=None, mode=1, stride=1,
                 dilation=1, group=1, data_format="NCHW"):
        super().__init__(out_channel, kernel_size, mode, pad_mode, pad, stride, dilation, group, data_format, pad_list)

    def infer(self, dout, w, input_size):
        check_float(self, dout, w)
        input_size = tuple(int(s) for s in input_size)
        _, expected = self._check(input_size, _shape(w), "input_size")
        if _shape(dout) != expected:
            raise ValueError(f"dout shape {_shape(dout)} does not match the output {expected} of an "
                             f"input of size {input_size}")
        return input_size, dout.dtype

    def compute(self, dout, w, input_size):
        pads, _ = self._geometry(input_size)
        return K.conv2d_input_grad(dout, w, tuple(input_size), self.stride, self.dilation, pads)

    def kernel(self, ins):
        if len(ins) != 3 or not isinstance(ins[2], (tuple, list)):
            return None
        size = tuple(int(s) for s in ins[2])
        (pads, _), stride, dilation = self._geometry(size), self.stride, self.dilation
        return lambda dout, w: K.conv2d_input_grad(dout, w, size, stride, dilation, pads)

    def bprop(self, dout, w, input_size, out, g, needs):  # needs: each gradient is a whole convolution
        d_dout = self._sibling(Conv2D)(g, w) if needs[0] else None
        dw = self._sibling(Conv2DBackpropFilter)(dout, g, _shape(w)) if needs[1] else None
        return d_dout, dw, None


class Conv2DBackpropFilter(_ConvBase):
    """Conv2D's weight gradient: ``Conv2DBackpropFilter(...)(dout, x, filter_size)`` -> (out, in, kh, kw).

    dout (as a matrix) @ the im2col columns of x. Its own gradients: conv2d(x, g) for dout and
    Conv2DBackpropInput(dout, g) for x.
    """

    n_tensors = 2

    def __init__(self, out_channel, kernel_size, pad_mode="valid", pad=0, pad_list=None, mode=1, stride=1,
                 dilation=1, group=1, data_format="NCHW"):
        super().__init__(out_channel, kernel_size, mode, pad_mode, pad, stride, dilation, group, data_format, pad_list)

    def infer(self, dout, x, filter_size):
        check_float(self, dout, x)
        filter_size = tuple(int(s) for s in filter_size)
        _, expected = self._check(_shape(x), filter_size)
        if _shape(dout) != expected:
            raise ValueError(f"dout shape {_shape(dout)} does not match the convolution output "
                             f"{expected} of x {_shape(x)}")
        return filter_size, dout.dtype

    def compute(self, dout, x, filter_size):
        pads, _ = self._geometry(x.shape)
        return K.conv2d_filter_grad(dout, x, tuple(filter_size), self.stride, self.dilation, pads)

    def kernel(self, ins):
        if len(ins) != 3 or not isinstance(ins[2], (tuple, list)):
            return None
        size = tuple(int(s) for s in ins[2])
        (pads, _), stride, dilation = self._geometry(tuple(ins[1].shape)), self.stride, self.dilation
        return lambda dout, x: K.conv2d_filter_grad(dout, x, size, stride, dilation, pads)

    def bprop(self, dout, x, filter_size, out, g, needs):  # needs: each gradient is a whole convolution
        d_dout = self._sibling(Conv2D)(x, g) if needs[0] else None
        dx = self._sibling(Conv2DBackpropInput)(dout, g, _shape(x)) if needs[1] else None
        return d_dout, dx, None


class Conv2DTranspose(Conv2DBackpropInput):
    """Transposed convolution ``Conv2DTranspose(out_channel, kernel_size, ...)(x, weight, input_size)``.

    MindSpore's name for Conv2DBackpropInput used forwards ("deconvolution"): x (N, out_channel, H, W),
    weight (out_channel, C, kh, kw) -> (N, C, OH, OW) = ``input_size``, the size of the convolution input
    whose output has x's shape. Each pixel of x scatters ``x * weight`` into an OH x OW image. Same
    attributes, geometry and gradients as Conv2DBackpropInput.
    """


# ---- functional forms ---------------------------------------------------------------------------------
def conv2d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    """2-D convolution of input (N, C, H, W) with weight (out, C, kh, kw), plus ``bias`` (out,) if given.

    pad_mode "valid" | "same" | "pad" (``padding``: int, (top/bottom, left/right) or (top, bottom, left,
    right)); stride and dilation: int or (h, w).

    ``groups=g`` splits the C input channels and the out filters into g groups (weight (out, C / g, kh,
    kw)); group i's filters see only group i's channels. It is g Conv2D nodes on channel slices, their
    outputs concatenated, so the gradients are those of Conv2D, the slices and Concat.
    """
    w_shape = tuple(weight.shape)
    if len(w_shape) != 4:
        raise ValueError(f"conv2d needs a weight of shape (out_channel, in_channel, kh, kw), got {w_shape}")
    groups = int(groups)
    channels = input.shape[1] if len(input.shape) == 4 else None
    if groups > 1 and (channels is None or channels % groups or w_shape[0] % groups
                       or channels // groups != w_shape[1]):
        raise ValueError(f"conv2d with groups={groups}: input channels ({channels}) and output channels "
                         f"({w_shape[0]}) must divide by groups, and the weight {w_shape} must have "
                         f"in_channels / groups on axis 1 (input shape {tuple(input.shape)})")
    prim = instance(Conv2D, out_channel=w_shape[0] // groups, kernel_size=w_shape[2:], pad_mode=pad_mode,
                    pad=hashable(padding), stride=hashable(stride), dilation=hashable(dilation))
    if groups == 1:
        out = prim(input, weight)
    else:
        xs = op_table.split(input, channels // groups, 1)
        ws = op_table.split(weight, w_shape[0] // groups, 0)
        out = op_table.concat(tuple(prim(x, w) for x, w in zip(xs, ws)), 1)
    return out if bias is None else op_table.bias_add(out, bias)


__all__ += ["conv2d"]
op_table.register(globals(), __all__)
