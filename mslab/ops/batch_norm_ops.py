"""Batch normalisation in training as one primitive, and its backward kernels.

MindSpore's ``nn.BatchNorm2d`` runs a single ``BatchNorm`` kernel while training: it normalises each
channel with the batch's statistics and writes the moving statistics in place, and its gradient is a
single ``BatchNormGrad`` node. mslab does the same, so a graph shows one node per BatchNorm instead of
a dozen elementwise ones, and the step reads and writes each activation a few times instead of twenty.

For x of shape (N, C, ...), m = N * (product of the trailing axes) values per channel:

    mean = sum(x) / m                     var = sum((x - mean)^2) / m          (the biased variance)
    y = (x - mean) / sqrt(var + eps) * scale + bias
    moving_mean     <- momentum * moving_mean     + (1 - momentum) * mean
    moving_variance <- momentum * moving_variance + (1 - momentum) * var * m / (m - 1)

(``momentum`` as ``nn.BatchNorm2d`` takes it: the weight of the old value; the moving variance takes the
unbiased estimate, and with m = 1 it becomes nan, as observed on MindSpore 2.10 CPU.) The gradients, with
xhat = (x - mean) / sqrt(var + eps):

    dbias = sum(dy)        dscale = sum(dy * xhat)
    dx = scale / sqrt(var + eps) * (dy - dbias / m - xhat * dscale / m)

The statistics are recomputed from x in the backward kernels (two passes over x) rather than kept. The per-channel
sums are BLAS dot products over each image's contiguous channel rows, so they round differently from
``np.mean`` (within float32's precision).
"""
import numpy as np

from mslab.core.op_registry import op_table
from mslab.ops.primitive import Primitive, check_float, write_in_place

__all__ = ["BatchNorm", "BatchNormGrad", "BatchNormScaleGrad"]


def _axes(ndim):
    return (0,) + tuple(range(2, ndim))


def _rows(a):
    """(N, C, ...) as (N, C, L): each image's channel is one contiguous row."""
    return a.reshape(a.shape[0], a.shape[1], -1)


def _channel_dot(a, b):
    """sum over n and l of a[n, c, l] * b[n, c, l], per channel c: one batched BLAS dot product per row (a
    plain ``(a * b).sum(axis=(0, 2))`` writes a temporary and reduces across strides, several times slower)."""
    n, c, l = a.shape
    return np.matmul(a.reshape(n * c, 1, l), b.reshape(n * c, l, 1)).reshape(n, c).sum(axis=0)


def _channel_sum(a):
    """sum over n and l of a[n, c, l], per channel c (a matrix-vector product with ones, then a sum over n)."""
    return np.matmul(a, np.ones(a.shape[2], a.dtype)).sum(axis=0)


def _computed(a):
    """float16 is computed in float32 and the result rounded back once (numpy's float16 sums lose digits)."""
    return a.astype(np.float32) if a.dtype == np.float16 else a


def batch_statistics(x):
    """``(x3, centered, mean, var, m)``: x as (N, C, L), x minus its channel means, the per-channel (C,) mean and
    biased variance, and m, the number of values per channel."""
    x3 = _rows(x)
    m = x3.shape[0] * x3.shape[2]
    mean = _channel_sum(x3) / x.dtype.type(m)
    centered = np.subtract(x3, mean[:, None])
    var = _channel_dot(centered, centered) / x.dtype.type(m)
    return x3, centered, mean, var, m


def _inv_std(var, eps):
    return np.divide(var.dtype.type(1), np.sqrt(np.add(var, var.dtype.type(eps))))


class BatchNorm(Primitive):
    """``BatchNorm(epsilon, momentum)(x, scale, bias, moving_mean, moving_variance)``: normalise x (N, C, ...) with
    the batch's statistics and update the moving statistics in place (a side effect, like Assign).

    d/dx, d/dscale, d/dbias: ``BatchNormGrad``, ``BatchNormScaleGrad`` and a ReduceSum of dout.
    """

    n_tensors = 5
    side_effect = True
    mixed_precision = 3  # a to_float Cell casts x, scale and bias, never the statistics written in place

    def __init__(self, epsilon=1e-5, momentum=0.9):
        super().__init__(epsilon=float(epsilon), momentum=float(momentum))

    def infer(self, x, scale, bias, moving_mean, moving_variance):
        check_float(self, x)
        if len(x.shape) < 2:
            raise ValueError(f"needs x of rank >= 2 (N, C, ...), got shape {tuple(x.shape)}")
        c = x.shape[1]
        for name, v in (("scale", scale), ("bias", bias), ("moving_mean", moving_mean),
                        ("moving_variance", moving_variance)):
            if tuple(v.shape) != (c,):
                raise ValueError(f"{name} must have shape ({c},) for x of shape {tuple(x.shape)}, got {tuple(v.shape)}")
        return tuple(x.shape), x.dtype

    def compute(self, x, scale, bias, moving_mean, moving_variance):
        out_dtype, x = x.dtype, _computed(x)
        dt = x.dtype
        _, centered, mean, var, n = batch_statistics(x)
        y = np.multiply(centered, (_inv_std(var, self.epsilon) * scale.astype(dt, copy=False))[:, None], out=centered)
        y += bias.astype(dt, copy=False)[:, None]
        m = self.momentum
        unbiased = np.multiply(var, dt.type(n / (n - 1) if n > 1 else float("nan")))
        # as the unfused Assign updates did, in the parameter's dtype: old * momentum + new * (1 - momentum)
        for moving, batch in ((moving_mean, mean), (moving_variance, unbiased)):
            md = moving.dtype
            new = np.add(np.multiply(moving, md.type(m)), np.multiply(batch.astype(md, copy=False), md.type(1.0 - m)))
            write_in_place(moving, new)
        return y.reshape(x.shape).astype(out_dtype, copy=False)

    def bprop(self, x, scale, bias, moving_mean, moving_variance, out, dout, needs):
        eps = self.epsilon
        dx = BatchNormGrad(eps)(dout, x, scale) if needs[0] else None
        dscale = BatchNormScaleGrad(eps)(dout, x) if needs[1] else None
        dbias = op_table.reduce_sum(dout, _axes(len(x.shape))) if needs[2] else None
        return dx, dscale, dbias, None, None


class BatchNormGrad(Primitive):
    """``BatchNormGrad(epsilon)(dout, x, scale) -> dx``: BatchNorm's input gradient in training (statistics of x)."""

    n_tensors = 3

    def __init__(self, epsilon=1e-5):
        super().__init__(epsilon=float(epsilon))

    def infer(self, dout, x, scale):
        if tuple(dout.shape) != tuple(x.shape):
            raise ValueError(f"dout shape {tuple(dout.shape)} differs from x shape {tuple(x.shape)}")
        return tuple(x.shape), x.dtype

    def compute(self, dout, x, scale):
        return input_and_scale_grads(dout, x, scale, self.epsilon)[0]


def input_and_scale_grads(dout, x, scale, eps):
    """``(dx, dscale)`` of training BatchNorm for dout (statistics of x): BatchNormGrad and BatchNormScaleGrad."""
    out_dtype, x, dout = x.dtype, _computed(x), _computed(dout)
    dt = x.dtype
    _, centered, _, var, m = batch_statistics(x)
    inv = _inv_std(var, eps)
    d3 = _rows(dout)
    # dx = k * (dout - dbias / m) - k * inv^2 * (dout . centered) / m * centered, with k = scale * inv
    k = inv * scale.astype(dt, copy=False)
    dbias, dot = _channel_sum(d3), _channel_dot(d3, centered)
    dscale = (dot * inv).astype(out_dtype, copy=False)
    dx = np.multiply(d3, k[:, None])
    centered *= (-k * inv * inv * dot / dt.type(m))[:, None]
    dx += centered
    dx -= (k * dbias / dt.type(m))[:, None]
    return dx.reshape(x.shape).astype(out_dtype, copy=False), dscale


class BatchNormScaleGrad(Primitive):
    """``BatchNormScaleGrad(epsilon)(dout, x) -> dscale``: sum of dout * xhat per channel (the scale's gradient)."""

    n_tensors = 2

    def __init__(self, epsilon=1e-5):
        super().__init__(epsilon=float(epsilon))

    def infer(self, dout, x):
        if tuple(dout.shape) != tuple(x.shape):
            raise ValueError(f"dout shape {tuple(dout.shape)} differs from x shape {tuple(x.shape)}")
        return (x.shape[1],), x.dtype

    def compute(self, dout, x):
        out_dtype, x, dout = x.dtype, _computed(x), _computed(dout)
        _, centered, _, var, _ = batch_statistics(x)
        return (_channel_dot(_rows(dout), centered) * _inv_std(var, self.epsilon)).astype(out_dtype, copy=False)

