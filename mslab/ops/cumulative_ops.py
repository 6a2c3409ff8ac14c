"""Running sums along an axis: CumSum (``ops.CumSum(exclusive=False, reverse=False)(x, axis)``).

out[i] = x[0] + ... + x[i] (``exclusive``: up to x[i-1]; ``reverse``: from the far end). Every x[j]
adds into all the outputs at or after it, so the gradient is the running sum of dout taken from the
other end: the bprop of CumSum(exclusive, reverse) is CumSum(exclusive, not reverse) of dout.
"""
import numpy as np

from mslab.core.op_registry import F
from mslab.ops.primitive import Primitive, instance

__all__ = ["CumSum"]


class CumSum(Primitive):
    """Running sum of x along ``axis``.  d/dx = the running sum of dout in the other direction."""

    n_tensors = 1

    def __init__(self, exclusive=False, reverse=False):
        super().__init__(exclusive=bool(exclusive), reverse=bool(reverse))

    def _axis(self, axis, ndim):
        if not -max(ndim, 1) <= int(axis) < max(ndim, 1):
            raise ValueError(f"axis {axis} is out of range for a tensor of rank {ndim}")
        return int(axis) % max(ndim, 1)

    def infer(self, x, axis):
        self._axis(axis, len(x.shape))
        return tuple(x.shape), x.dtype

    def compute(self, x, axis):
        if x.ndim == 0:
            return np.zeros_like(x) if self.exclusive else x.copy()
        ax = self._axis(axis, x.ndim)
        v = np.flip(x, ax) if self.reverse else x
        out = np.cumsum(v, axis=ax, dtype=x.dtype)
        if self.exclusive:
            out = out - v
        return np.flip(out, ax).copy() if self.reverse else out

    def bprop(self, x, axis, out, dout, needs):
        return instance(CumSum, self.exclusive, not self.reverse)(dout, axis), None


# ---- functional forms ---------------------------------------------------------------------------------
def cumsum(x, axis, dtype=None):
    """Running sum of ``x`` along ``axis`` (``ops.cumsum``), optionally cast to ``dtype`` first."""
    if dtype is not None:
        x = F.cast(x, dtype)
    return instance(CumSum)(x, int(axis))


__all__ += ["cumsum"]
F.register(globals(), __all__)
