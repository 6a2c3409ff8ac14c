"""Running sums and products along an axis: CumSum and CumProd (``ops.CumSum(exclusive=False,
reverse=False)(x, axis)``, ``P.CumProd`` alike).

out[i] = x[0] + ... + x[i] (``exclusive``: up to x[i-1]; ``reverse``: from the far end). Every x[j]
adds into all the outputs at or after it, so the gradient is the running sum of dout taken from the
other end: the bprop of CumSum(exclusive, reverse) is CumSum(exclusive, not reverse) of dout.
"""
import numpy as np

from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor
from mslab.ops.primitive import Primitive, instance

__all__ = ["CumSum", "CumProd"]


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

    _running = staticmethod(np.cumsum)  # CumProd: np.cumprod
    _identity = 0  # what an exclusive output starts from (CumProd: 1)

    def compute(self, x, axis):
        if x.ndim == 0:
            return np.full_like(x, self._identity) if self.exclusive else x.copy()
        ax = self._axis(axis, x.ndim)
        v = np.flip(x, ax) if self.reverse else x
        out = self._running(v, axis=ax, dtype=x.dtype)
        if self.exclusive and v.shape[ax]:  # shift by one: identity, v0, v0 (+) v1, ...
            first = np.full_like(np.take(out, [0], ax), self._identity)
            out = np.concatenate([first, np.delete(out, -1, ax)], ax)
        return np.flip(out, ax).copy() if self.reverse else out

    def bprop(self, x, axis, out, dout):
        return instance(CumSum, self.exclusive, not self.reverse)(dout, axis), None


class CumProd(CumSum):
    """Running product of x along ``axis`` (``P.CumProd(exclusive=False, reverse=False)(x, axis)``).

    out[j] is the product of the x[k] for k in S_j (k <= j; exclusive: k < j; reverse: k >= j or k > j), so
    d/dx[i] = sum over the j with i in S_j of dout[j] times the product of the other x[k] of S_j. mslab forms
    those products directly (n running products, each with one x[i] replaced by 1: n times the memory of x),
    so a zero in x is no trouble; MindSpore 2.10's CPU kernel divides by x instead and gives nan there
    (observed: d sum(cumprod([2, 0, 4])) is [1, nan, 0]; mslab gives the true [1, 10, 0]).
    """

    _running = staticmethod(np.cumprod)
    _identity = 1

    def bprop(self, x, axis, out, dout):
        shape = tuple(x.shape)
        if not shape:
            return (op_table.zeros_like(x) if self.exclusive else dout), None
        ax, n = self._axis(axis, len(shape)), shape[self._axis(axis, len(shape))]
        at_axis = [1] * (len(shape) + 1)
        at_axis[0], at_axis[ax + 1] = n, n
        i, k = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
        one_out = Tensor((i == k).reshape(at_axis))  # copy i of x has x[i] replaced by 1
        copies = op_table.select(one_out, op_table.ones_like(op_table.broadcast_to(x, (n,) + shape)),
                                 op_table.broadcast_to(x, (n,) + shape))
        others = self(copies, ax + 1)  # products over S_j without x[i]
        member = (i < k if self.exclusive else i <= k) if not self.reverse else (i > k if self.exclusive else i >= k)
        weight = others * Tensor(member.reshape(at_axis).astype(x.dtype.np)) * dout.expand_dims(0)
        grad = weight.sum(ax + 1)  # axis 0 holds i: move it back to ax
        return op_table.transpose(grad, tuple(range(1, ax + 1)) + (0,) + tuple(range(ax + 1, len(shape)))), None


# ---- functional forms ---------------------------------------------------------------------------------
def cumsum(x, axis, dtype=None):
    """Running sum of ``x`` along ``axis`` (``ops.cumsum``), optionally cast to ``dtype`` first."""
    if dtype is not None:
        x = op_table.cast(x, dtype)
    return instance(CumSum)(x, int(axis))


def cumprod(input, dim, dtype=None):  # noqa: A002 - MindSpore's argument name
    """Running product of ``input`` along ``dim`` (``ops.cumprod``), optionally cast to ``dtype`` first."""
    if dtype is not None:
        input = op_table.cast(input, dtype)
    return instance(CumProd)(input, int(dim))


__all__ += ["cumsum", "cumprod"]
op_table.register(globals(), __all__)
