"""Neural-network kernels (softmax, cross-entropy, convolution, pooling, ...): compute, infer, bprop.

Layout is NCHW throughout. Each forward op's backward work is done by a kernel primitive of its own
(``Conv2DBackpropInput``, ``Conv2DBackpropFilter``, ``MaxPoolGrad``, ``AvgPoolGrad``, ``BiasAddGrad``,
``SoftmaxCrossEntropyWithLogitsGrad``, ...), as in MindSpore, so a backward graph shows them as nodes.
The numpy kernels for convolution and pooling live in ``conv_kernels``.
"""
import numpy as np

from mslab.ops import conv_kernels as K
from mslab.ops.primitive import Primitive, check_float, check_same_dtype, normalize_axis

__all__ = [
    "AvgPool",
    "AvgPoolGrad",
    "BiasAdd",
    "BiasAddGrad",
    "Conv2D",
    "Conv2DBackpropFilter",
    "Conv2DBackpropInput",
    "Dropout",
    "DropoutGenMask",
    "L2Loss",
    "LogSoftmax",
    "MaxPool",
    "MaxPoolGrad",
    "MaxPoolGradGrad",
    "Softmax",
    "SoftmaxCrossEntropyWithLogits",
    "SoftmaxCrossEntropyWithLogitsGrad",
    "SparseSoftmaxCrossEntropyWithLogits",
    "SparseSoftmaxCrossEntropyWithLogitsGrad",
]


def _F():
    from mslab.ops import functional
    return functional


def _shape(v):
    return tuple(v.shape)


# ---- softmax ------------------------------------------------------------------------------------------
class _SoftmaxBase(Primitive):
    n_tensors = 1

    def __init__(self, axis=-1):
        super().__init__(axis=tuple(axis) if isinstance(axis, list) else axis)

    def _axes(self, ndim):
        if self.axis == ():
            raise ValueError("axis must not be empty")
        return normalize_axis(self.axis, ndim)

    def infer(self, x):
        check_float(self, x)
        if len(x.shape) == 0:
            raise ValueError("needs a tensor of rank >= 1, got a scalar")
        self._axes(len(x.shape))
        return _shape(x), x.dtype


def _shifted(x, axes):
    return x - x.max(axis=axes, keepdims=True)


class Softmax(_SoftmaxBase):
    """exp(x) / sum(exp(x)) over ``axis`` (computed as exp(x - max) for stability).

    d/dx = out * (dout - sum(dout * out, axis)).
    """

    def compute(self, x):
        e = np.exp(_shifted(x, self._axes(x.ndim)))
        return e / e.sum(axis=self._axes(x.ndim), keepdims=True)

    def bprop(self, x, out, dout):
        F = _F()
        s = F.reduce_sum(F.mul(dout, out), self._axes(len(x.shape)), True)
        return (F.mul(out, F.sub(dout, s)),)


class LogSoftmax(_SoftmaxBase):
    """x - log(sum(exp(x))) over ``axis`` (as (x - max) - log(sum(exp(x - max)))).

    d/dx = dout - exp(out) * sum(dout, axis).
    """

    def compute(self, x):
        axes = self._axes(x.ndim)
        s = _shifted(x, axes)
        return s - np.log(np.exp(s).sum(axis=axes, keepdims=True))

    def bprop(self, x, out, dout):
        F = _F()
        return (F.sub(dout, F.mul(F.exp(out), F.reduce_sum(dout, self._axes(len(x.shape)), True))),)


def _log_softmax(x):
    s = _shifted(x, -1)
    return s - np.log(np.exp(s).sum(axis=-1, keepdims=True))


def _softmax(x):
    e = np.exp(_shifted(x, -1))
    return e / e.sum(axis=-1, keepdims=True)


# ---- cross-entropy ------------------------------------------------------------------------------------
def _check_logits(prim, logits):
    check_float(prim, logits)
    if len(logits.shape) != 2:
        raise ValueError(f"needs logits of shape (N, C), got {_shape(logits)}")


class SoftmaxCrossEntropyWithLogits(Primitive):
    """Per-sample loss -sum(labels * log_softmax(logits), -1): logits and labels (N, C) -> (N,).

    MindSpore's primitive returns ``(loss, backprop)``; mslab primitives have one output, so this one
    returns the loss and its bprop computes ``backprop`` with SoftmaxCrossEntropyWithLogitsGrad:
    d/dlogits = (softmax(logits) - labels) * dout[:, None]. Labels are data: their gradient is zero.
    """

    n_tensors = 2

    def infer(self, logits, labels):
        _check_logits(self, logits)
        if _shape(labels) != _shape(logits):
            raise ValueError(f"labels shape {_shape(labels)} differs from logits shape {_shape(logits)}")
        check_same_dtype(self, logits, labels)
        return _shape(logits)[:1], logits.dtype

    def compute(self, logits, labels):
        loss = -np.sum(labels * _log_softmax(logits), axis=-1)
        loss += 0.0  # -0.0 -> 0.0: a zero loss prints as 0.
        return loss

    def bprop(self, logits, labels, out, dout):
        return _F()._prim(SoftmaxCrossEntropyWithLogitsGrad)(logits, labels, dout), _F().zeros_like(labels)


class SoftmaxCrossEntropyWithLogitsGrad(Primitive):
    """Backward kernel of SoftmaxCrossEntropyWithLogits: (softmax(logits) - labels) * dout[:, None]."""

    n_tensors = 3

    def infer(self, logits, labels, dout):
        _check_logits(self, logits)
        if _shape(labels) != _shape(logits) or _shape(dout) != _shape(logits)[:1]:
            raise ValueError(f"expected logits and labels of one shape (N, C) and dout (N,), got "
                             f"{_shape(logits)}, {_shape(labels)}, {_shape(dout)}")
        return _shape(logits), logits.dtype

    def compute(self, logits, labels, dout):
        return (_softmax(logits) - labels) * dout[:, None]

    def bprop(self, logits, labels, dout, out, g):
        F = _F()
        s = F._prim(Softmax, -1)(logits)
        gd = F.mul(g, F.reshape(dout, (dout.shape[0], 1)))
        dlogits = F.mul(s, F.sub(gd, F.reduce_sum(F.mul(gd, s), -1, True)))
        ddout = F.reduce_sum(F.mul(g, F.sub(s, labels)), -1, False)
        return dlogits, F.neg(gd), ddout


def _check_sparse(prim, logits, labels):
    _check_logits(prim, logits)
    if labels.dtype.kind not in "iu":
        raise TypeError(f"needs integer class labels, got {labels.dtype}")
    if _shape(labels) != _shape(logits)[:1]:
        raise ValueError(f"labels of shape (N,) = {_shape(logits)[:1]} expected for logits "
                         f"{_shape(logits)}, got {_shape(labels)}")


def _onehot_check(logits, labels):
    C = logits.shape[1]
    if labels.size and (labels.min() < 0 or labels.max() >= C):
        raise ValueError(f"labels must be class indices in [0, {C}), got values from {labels.min()} to {labels.max()}")


class SparseSoftmaxCrossEntropyWithLogits(Primitive):
    """Per-sample loss -log_softmax(logits)[n, labels[n]]: logits (N, C), integer labels (N,) -> (N,).

    Unlike MindSpore's primitive (which returns the batch mean), this returns the per-sample losses;
    the nn loss layers do the reduction. ``is_grad=True`` returns MindSpore's gradient of the mean
    loss, (softmax(logits) - one_hot(labels)) / N, shape (N, C), and has no bprop.
    Labels are data: they get no gradient.
    """

    n_tensors = 2

    def __init__(self, is_grad=False):
        super().__init__(is_grad=bool(is_grad))

    def infer(self, logits, labels):
        _check_sparse(self, logits, labels)
        return (_shape(logits) if self.is_grad else _shape(logits)[:1]), logits.dtype

    def compute(self, logits, labels):
        _onehot_check(logits, labels)
        n = logits.shape[0]
        if self.is_grad:
            g = _softmax(logits)
            g[np.arange(n), labels] -= 1
            return g / logits.dtype.type(max(n, 1))
        loss = -_log_softmax(logits)[np.arange(n), labels]
        loss += 0.0  # no -0.0
        return loss

    def bprop(self, logits, labels, out, dout):
        if self.is_grad:
            raise NotImplementedError("SparseSoftmaxCrossEntropyWithLogits(is_grad=True) returns a gradient and "
                                      "has no bprop of its own; differentiate the is_grad=False form instead")
        return _F()._prim(SparseSoftmaxCrossEntropyWithLogitsGrad)(logits, labels, dout), None


class SparseSoftmaxCrossEntropyWithLogitsGrad(Primitive):
    """Backward kernel: (softmax(logits) - one_hot(labels)) * dout[:, None], shape (N, C)."""

    n_tensors = 3

    def infer(self, logits, labels, dout):
        _check_sparse(self, logits, labels)
        if _shape(dout) != _shape(logits)[:1]:
            raise ValueError(f"dout of shape {_shape(logits)[:1]} expected, got {_shape(dout)}")
        return _shape(logits), logits.dtype

    def compute(self, logits, labels, dout):
        _onehot_check(logits, labels)
        g = _softmax(logits)
        g[np.arange(logits.shape[0]), labels] -= 1
        return g * dout[:, None]

    def bprop(self, logits, labels, dout, out, g):
        F = _F()
        s = F._prim(Softmax, -1)(logits)
        gd = F.mul(g, F.reshape(dout, (dout.shape[0], 1)))
        dlogits = F.mul(s, F.sub(gd, F.reduce_sum(F.mul(gd, s), -1, True)))
        ddout = F.reduce_sum(F.mul(g, self(logits, labels, F.ones_like(dout))), -1, False)
        return dlogits, None, ddout


# ---- bias ----------------------------------------------------------------------------------------------
def _channel_shape(c, ndim):
    return (1, c) + (1,) * (ndim - 2)


class BiasAdd(Primitive):
    """x + b with b (C,) added along axis 1 (the channel axis of NCHW; the last axis of a 2-D x).

    d/dx = dout; d/db = BiasAddGrad(dout), the sum of dout over every axis but 1.
    """

    n_tensors = 2

    def __init__(self, data_format="NCHW"):
        if data_format not in ("NCHW", "NCDHW"):
            raise ValueError(f"BiasAdd: only data_format 'NCHW' is supported, got {data_format!r}")
        super().__init__(data_format=data_format)

    def infer(self, x, b):
        if len(x.shape) < 2 or len(b.shape) != 1 or b.shape[0] != x.shape[1]:
            raise ValueError(f"needs x of rank >= 2 and a bias of shape (x.shape[1],), got x {_shape(x)} "
                             f"and bias {_shape(b)}")
        check_same_dtype(self, x, b)
        return _shape(x), x.dtype

    def compute(self, x, b):
        return x + b.reshape(_channel_shape(b.shape[0], x.ndim))

    def kernel(self, ins):
        shape = _channel_shape(ins[1].shape[0], len(ins[0].shape))
        return lambda x, b: x + b.reshape(shape)

    def bprop(self, x, b, out, dout, needs=(True, True)):
        return dout, (_F()._prim(BiasAddGrad, self.data_format)(dout) if needs[1] else None)


class BiasAddGrad(Primitive):
    """Sum of dout over every axis except 1: BiasAdd's bias gradient (shape (C,))."""

    n_tensors = 1

    def __init__(self, data_format="NCHW"):
        super().__init__(data_format=data_format)

    def infer(self, dout):
        if len(dout.shape) < 2:
            raise ValueError(f"BiasAddGrad needs dout of rank >= 2, got {_shape(dout)}")
        return _shape(dout)[1:2], dout.dtype

    def compute(self, dout):
        axes = (0,) + tuple(range(2, dout.ndim))
        return np.sum(dout, axis=axes, dtype=dout.dtype)

    def kernel(self, ins):
        axes, dt = (0,) + tuple(range(2, len(ins[0].shape))), ins[0].dtype
        return lambda dout: np.sum(dout, axis=axes, dtype=dt)

    def bprop(self, dout, out, g):
        F = _F()
        return (F.broadcast_to(F.reshape(g, _channel_shape(g.shape[0], len(dout.shape))), _shape(dout)),)


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

    def bprop(self, x, w, out, dout, needs=(True, True)):
        dx = self._sibling(Conv2DBackpropInput)(dout, w, _shape(x)) if needs[0] else None  # not for the images
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

    def bprop(self, dout, w, input_size, out, g):
        return self._sibling(Conv2D)(g, w), self._sibling(Conv2DBackpropFilter)(dout, g, _shape(w)), None


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

    def bprop(self, dout, x, filter_size, out, g):
        return self._sibling(Conv2D)(x, g), self._sibling(Conv2DBackpropInput)(dout, g, _shape(x)), None


# ---- pooling ------------------------------------------------------------------------------------------------
class _PoolBase(Primitive):
    """kernel_size, strides: int or (h, w); pad_mode "valid" | "same" (| "pad" with ``pad``, an mslab extension
    for the functional forms' explicit padding)."""

    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW", pad=0):
        name = type(self).__name__
        pad_mode = K.pad_mode_of(pad_mode, ("valid", "same", "pad"))
        if data_format != "NCHW":
            raise ValueError(f"{name}: only data_format='NCHW' is supported, got {data_format!r}")
        attrs = dict(kernel_size=K.pair(kernel_size, f"{name} kernel_size"), strides=K.pair(strides, f"{name} strides"),
                     pad_mode=pad_mode, data_format=data_format)
        if pad_mode == "pad":
            attrs["pad"] = K.four_pads(pad)
        elif pad not in (0, None):
            raise ValueError(f"{name}: pad={pad!r} needs pad_mode='pad'")
        super().__init__(**attrs)

    def _sibling(self, cls):
        cache = self.__dict__.setdefault("_siblings", {})
        if cls not in cache:
            cache[cls] = cls(**self.attrs)
        return cache[cls]

    def _geometry(self, x_shape):
        return K.window_geometry(x_shape, self.kernel_size, self.strides, (1, 1), self.pad_mode,
                                 self.attrs.get("pad", (0, 0, 0, 0)))

    def _out(self, x):
        check_float(self, x)
        if len(x.shape) != 4:
            raise ValueError(f"needs x of shape (N, C, H, W), got {_shape(x)}")
        _, (oh, ow) = self._geometry(_shape(x))
        return _shape(x)[:2] + (oh, ow)

    def _check_grad(self, x, out, dout):
        expected = self._out(x)
        if _shape(out) != expected or _shape(dout) != expected:
            raise ValueError(f"out and dout of shape {expected} expected for x {_shape(x)}, got "
                             f"{_shape(out)} and {_shape(dout)}")
        return _shape(x), x.dtype


class MaxPool(_PoolBase):
    """Maximum over each kh x kw window (``MaxPool(kernel_size, strides, pad_mode)(x)``), NCHW.

    d/dx = MaxPoolGrad: each window's dout goes to its (first) maximum, one position per window.
    """

    n_tensors = 1

    def infer(self, x):
        return self._out(x), x.dtype

    def compute(self, x):
        pads, out_hw = self._geometry(x.shape)
        return K.max_pool(x, self.kernel_size, self.strides, pads, out_hw)

    def kernel(self, ins):
        (pads, out_hw), ks, st = self._geometry(tuple(ins[0].shape)), self.kernel_size, self.strides
        return lambda x: K.max_pool(x, ks, st, pads, out_hw)

    def bprop(self, x, out, dout):
        return (self._sibling(MaxPoolGrad)(x, out, dout),)


class MaxPoolGrad(_PoolBase):
    """MaxPool's backward kernel ``(x, out, dout) -> dx``: dout routed to each window's argmax.

    Its gradient for dout is MaxPoolGradGrad (g read at the argmax); x and out get none (the
    routing is piecewise constant).
    """

    n_tensors = 3

    def infer(self, x, out, dout):
        return self._check_grad(x, out, dout)

    def compute(self, x, out, dout):
        pads, out_hw = self._geometry(x.shape)
        return K.max_pool_grad(x, out, dout, self.kernel_size, self.strides, pads, out_hw)

    def kernel(self, ins):
        (pads, out_hw), ks, st = self._geometry(tuple(ins[0].shape)), self.kernel_size, self.strides
        return lambda x, out, dout: K.max_pool_grad(x, out, dout, ks, st, pads, out_hw)

    def bprop(self, x, out, dout, o, g):
        return None, None, self._sibling(MaxPoolGradGrad)(x, out, g)


class MaxPoolGradGrad(_PoolBase):
    """``(x, out, grad) -> grad`` read at each window's argmax (shape of out): MaxPoolGrad's gradient."""

    n_tensors = 3

    def infer(self, x, out, grad):
        if _shape(grad) != _shape(x):
            raise ValueError(f"grad shape {_shape(grad)} differs from x shape {_shape(x)}")
        self._check_grad(x, out, out)
        return _shape(out), x.dtype

    def compute(self, x, out, grad):
        pads, out_hw = self._geometry(x.shape)
        return K.max_pool_grad_grad(x, out, grad, self.kernel_size, self.strides, pads, out_hw)

    def bprop(self, x, out, grad, o, g):
        return None, None, self._sibling(MaxPoolGrad)(x, out, g)


class AvgPool(_PoolBase):
    """Mean over each kh x kw window (``AvgPool(kernel_size, strides, pad_mode)(x)``), NCHW.

    With pad_mode "same" the padding is not counted (each window divides by its real elements, as
    MindSpore/TensorFlow); with "pad" it is (PyTorch's count_include_pad=True). d/dx = AvgPoolGrad.
    """

    n_tensors = 1

    def infer(self, x):
        return self._out(x), x.dtype

    def compute(self, x):
        pads, out_hw = self._geometry(x.shape)
        return K.avg_pool(x, self.kernel_size, self.strides, pads, out_hw, self.pad_mode == "pad")

    def bprop(self, x, out, dout):
        return (self._sibling(AvgPoolGrad)(x, out, dout),)


class AvgPoolGrad(_PoolBase):
    """AvgPool's backward kernel ``(x, out, dout) -> dx``: each window's dout / count spread over it.

    Linear in dout: its gradient for dout is AvgPool(g); x and out (read for their shapes) get none.
    """

    n_tensors = 3

    def infer(self, x, out, dout):
        return self._check_grad(x, out, dout)

    def compute(self, x, out, dout):
        pads, out_hw = self._geometry(x.shape)
        return K.avg_pool_grad(x.shape, dout, self.kernel_size, self.strides, pads, out_hw, self.pad_mode == "pad")

    def bprop(self, x, out, dout, o, g):
        return None, None, self._sibling(AvgPool)(g)


# ---- dropout ---------------------------------------------------------------------------------------------------
def _check_keep_prob(name, keep_prob):
    if not isinstance(keep_prob, (int, float)) or not 0.0 < float(keep_prob) <= 1.0:
        raise ValueError(f"{name}: keep_prob must be a number in (0, 1], got {keep_prob!r}")
    return float(keep_prob)


class DropoutGenMask(Primitive):
    """A fresh dropout mask of x's shape and dtype: 1/keep_prob with probability keep_prob, else 0.

    mslab's take on MindSpore's DropoutGenMask: it reads x (only its shape and dtype), not a shape
    tuple, so that the executor never folds it into a constant; and it gives the scaled mask itself.
    Not deterministic (CSE never merges two of them) and not differentiable. Randomness comes from
    numpy's global generator, so ``set_seed`` makes it reproducible; Seed0/Seed1 are accepted for
    MindSpore compatibility and not used.
    """

    n_tensors = 1
    differentiable = False
    deterministic = False

    def __init__(self, keep_prob=0.5, Seed0=0, Seed1=0):
        super().__init__(keep_prob=_check_keep_prob("DropoutGenMask", keep_prob), Seed0=Seed0, Seed1=Seed1)

    def infer(self, x):
        check_float(self, x)
        return _shape(x), x.dtype

    def compute(self, x):
        if self.keep_prob == 1.0:
            return np.ones(x.shape, x.dtype)
        keep = np.random.random_sample(x.shape) < self.keep_prob
        return keep.astype(x.dtype) * x.dtype.type(1.0 / self.keep_prob)

    def bprop(self, x, out, dout):
        return (_F().zeros_like(x),)


class Dropout(Primitive):
    """``ops.Dropout(keep_prob)(x)`` -> x * mask, with mask from DropoutGenMask.

    MindSpore's returns ``(output, mask)``; this returns the output only. A call records two nodes,
    DropoutGenMask and Mul, so the gradient, dout * mask, reuses the forward's mask.
    """

    n_tensors = 1
    deterministic = False

    def __init__(self, keep_prob=0.5, Seed0=0, Seed1=0):
        super().__init__(keep_prob=_check_keep_prob("Dropout", keep_prob), Seed0=Seed0, Seed1=Seed1)
        self._gen = DropoutGenMask(self.keep_prob, Seed0, Seed1)

    def __call__(self, x):
        return _F().mul(x, self._gen(x))

    def infer(self, x):
        return self._gen.infer(x)

    def compute(self, x):
        return x * self._gen.compute(x)

    def bprop(self, x, out, dout):
        raise NotImplementedError("Dropout is recorded as DropoutGenMask and Mul; it is never a node itself")


# ---- extras ------------------------------------------------------------------------------------------------------
class L2Loss(Primitive):
    """sum(x ** 2) / 2, a scalar (``ops.L2Loss()(x)``).  d/dx = dout * x."""

    n_tensors = 1

    def infer(self, x):
        check_float(self, x)
        return (), x.dtype

    def compute(self, x):
        return np.asarray(np.sum(np.square(x), dtype=x.dtype) / x.dtype.type(2), x.dtype)

    def bprop(self, x, out, dout):
        return (_F().mul(x, dout),)
