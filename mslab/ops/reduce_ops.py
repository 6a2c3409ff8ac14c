"""Reductions over axes: ReduceSum, ReduceMean, ... (``keep_dims`` as in MindSpore).

An empty axis tuple means every axis. The bprop of a sum spreads dout back over the reduced axes
(reshape to keep the reduced axes as 1, then broadcast); a mean also divides by the count.
"""
import numpy as np

from mslab.ops.primitive import Primitive, normalize_axis

__all__ = [
    "ReduceMean",
    "ReduceSum",
]


def _F():
    from mslab.ops import functional
    return functional


class _Reduce(Primitive):
    n_tensors = 1

    def __init__(self, keep_dims=False):
        super().__init__(keep_dims=keep_dims)

    def prepare(self, args):
        if len(args) == 1:
            return (args[0], ())
        return args

    def _out_shape(self, x, axis):
        axes = normalize_axis(axis, len(x.shape), self.name)
        if self.keep_dims:
            return tuple(1 if i in axes else s for i, s in enumerate(x.shape)), axes
        return tuple(s for i, s in enumerate(x.shape) if i not in axes), axes

    def infer(self, x, axis=()):
        return self._out_shape(x, axis)[0], x.dtype

    def _spread(self, x, axis, dout):
        """dout broadcast back to x's shape."""
        F = _F()
        kept, _ = ReduceSum(True)._out_shape(x, axis)
        return F.broadcast_to(F.reshape(dout, kept), tuple(x.shape))


class ReduceSum(_Reduce):
    """Sum over ``axis``.  d/dx = dout broadcast back over the summed axes."""

    def compute(self, x, axis=()):
        axes = normalize_axis(axis, x.ndim)
        return np.sum(x, axis=axes, keepdims=self.keep_dims, dtype=x.dtype)

    def bprop(self, x, axis, out, dout):
        return self._spread(x, axis, dout), None


class ReduceMean(_Reduce):
    """Mean over ``axis``.  d/dx = dout / count, broadcast back."""

    def compute(self, x, axis=()):
        axes = normalize_axis(axis, x.ndim)
        return np.mean(x, axis=axes, keepdims=self.keep_dims, dtype=x.dtype).astype(x.dtype, copy=False)

    def bprop(self, x, axis, out, dout):
        axes = normalize_axis(axis, len(x.shape))
        count = int(np.prod([x.shape[i] for i in axes], dtype=np.int64))
        return self._spread(x, axis, _F().div(dout, float(count))), None
