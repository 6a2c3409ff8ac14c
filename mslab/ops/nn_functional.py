"""Functional forms of the neural-network kernels in ``nn_ops`` (``ops.softmax``, ``ops.conv2d``, ...).

Signatures follow MindSpore 2.x's ``mindspore.ops`` functions. Primitive instances are made once per
attribute set and reused.
"""
from mslab.ops import nn_ops as N

__all__ = [
    "avg_pool2d",
    "bias_add",
    "conv2d",
    "dropout",
    "l2_loss",
    "log_softmax",
    "max_pool2d",
    "softmax",
    "softmax_cross_entropy",
    "sparse_softmax_cross_entropy",
]

_instances = {}


def _prim(cls, **attrs):
    key = (cls, tuple(sorted(attrs.items())))
    p = _instances.get(key)
    if p is None:
        p = _instances[key] = cls(**attrs)
    return p


def _hashable(v):
    return tuple(v) if isinstance(v, list) else v


def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) over ``axis``."""
    return _prim(N.Softmax, axis=_hashable(axis))(x)


def log_softmax(x, axis=-1):
    """x - log(sum(exp(x))) over ``axis``, computed stably."""
    return _prim(N.LogSoftmax, axis=_hashable(axis))(x)


def softmax_cross_entropy(logits, labels):
    """Per-sample -sum(labels * log_softmax(logits), -1): (N, C) and (N, C) -> (N,)."""
    return _prim(N.SoftmaxCrossEntropyWithLogits)(logits, labels)


def sparse_softmax_cross_entropy(logits, labels):
    """Per-sample -log_softmax(logits)[n, labels[n]]: (N, C) and integer (N,) -> (N,)."""
    return _prim(N.SparseSoftmaxCrossEntropyWithLogits)(logits, labels)


def bias_add(input_x, bias):
    """input_x + bias along axis 1 (the channel axis)."""
    return _prim(N.BiasAdd)(input_x, bias)


def conv2d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    """2-D convolution of input (N, C, H, W) with weight (out, C, kh, kw), plus ``bias`` (out,) if given.

    pad_mode "valid" | "same" | "pad" (``padding``: int, (top/bottom, left/right) or (top, bottom, left,
    right)); stride and dilation: int or (h, w). Only groups=1.
    """
    w_shape = tuple(weight.shape)
    if len(w_shape) != 4:
        raise ValueError(f"conv2d needs a weight of shape (out_channel, in_channel, kh, kw), got {w_shape}")
    prim = _prim(N.Conv2D, out_channel=w_shape[0], kernel_size=w_shape[2:], pad_mode=pad_mode,
                 pad=_hashable(padding), stride=_hashable(stride), dilation=_hashable(dilation), group=groups)
    out = prim(input, weight)
    return out if bias is None else bias_add(out, bias)


def _pool(cls, x, kernel_size, stride, padding, pad_mode):
    if stride is None:
        stride = kernel_size
    if padding not in (0, (0, 0), (0, 0, 0, 0)):
        if str(pad_mode).lower() != "valid":
            raise ValueError(f"give either padding={padding!r} or pad_mode={pad_mode!r}, not both")
        return _prim(cls, kernel_size=_hashable(kernel_size), strides=_hashable(stride), pad_mode="pad",
                     pad=_hashable(padding))(x)
    return _prim(cls, kernel_size=_hashable(kernel_size), strides=_hashable(stride), pad_mode=pad_mode)(x)


def max_pool2d(x, kernel_size, stride=None, padding=0, pad_mode="valid"):
    """Maximum over kh x kw windows of x (N, C, H, W); ``stride`` defaults to ``kernel_size``.

    ``padding`` (int or 4 ints) pads with -inf; ``pad_mode="same"`` pads as MindSpore's MaxPool.
    """
    return _pool(N.MaxPool, x, kernel_size, stride, padding, pad_mode)


def avg_pool2d(x, kernel_size=1, stride=1, padding=0, pad_mode="valid"):
    """Mean over kh x kw windows of x (N, C, H, W).

    ``padding`` pads with zeros that count in the mean (count_include_pad=True); ``pad_mode="same"``
    does not count its padding (MindSpore's AvgPool).
    """
    return _pool(N.AvgPool, x, kernel_size, stride, padding, pad_mode)


def dropout(input, p=0.5, training=True, seed=None, *, keep_prob=None):
    """Zero each element with probability ``p`` and scale the rest by 1 / (1 - p) (``ops.dropout``).

    Returns the output only. ``training=False`` or p=0 returns ``input`` unchanged. ``keep_prob``
    (1.x style) may be given instead of p. ``seed`` is accepted and unused: the mask comes from numpy's
    global generator, which ``set_seed`` seeds.
    """
    if keep_prob is None:
        if not isinstance(p, (int, float)) or not 0.0 <= p < 1.0:
            raise ValueError(f"dropout: p must be in [0, 1), got {p!r}")
        keep_prob = 1.0 - float(p)
    if not training or keep_prob == 1.0:
        return input
    from mslab.ops import functional as F
    return F.mul(input, _prim(N.DropoutGenMask, keep_prob=float(keep_prob))(input))


def l2_loss(x):
    """sum(x ** 2) / 2."""
    return _prim(N.L2Loss)(x)
