"""Math layers, as ``mindspore.nn``: MatMul, Range and Norm (all three deprecated in MindSpore 2.10)."""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core.tensor import Tensor
from mslab.nn.cell import Cell
from mslab.ops import functional as F

__all__ = ["MatMul", "Range", "Norm"]


class MatMul(Cell):
    """``x1 @ x2`` with optional transposes and broadcast batch axes (``mindspore.nn.MatMul``).

    ``transpose_x1`` / ``transpose_x2`` swap the last two axes of that operand first. Batch axes
    broadcast as numpy's matmul; a 1-D operand is a row (left) or a column (right) whose axis is
    dropped from the result, and two 1-D operands give their dot product.
    """

    def __init__(self, transpose_x1=False, transpose_x2=False):
        super().__init__()
        for name, value in (("transpose_x1", transpose_x1), ("transpose_x2", transpose_x2)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'MatMul', the '{name}' must be bool, but got {type(value).__name__}")
        self.transpose_x1, self.transpose_x2 = transpose_x1, transpose_x2

    def construct(self, x1, x2):
        s1, s2 = tuple(x1.shape), tuple(x2.shape)
        col = s1[-2] if self.transpose_x1 and len(s1) > 1 else s1[-1]
        row = s2[-1] if self.transpose_x2 and len(s2) > 1 else s2[-2] if len(s2) > 1 else s2[-1]
        if col != row:
            raise ValueError(f"For 'MatMul', the column of matrix dimensions of 'x1' must be equal to the row of "
                             f"matrix dimensions of 'x2', but got 'x1_col' {col} and 'x2_row' {row}.")
        if self.transpose_x1 and len(s1) > 1:
            x1 = F.swapaxes(x1, -1, -2)
        if self.transpose_x2 and len(s2) > 1:
            x2 = F.swapaxes(x2, -1, -2)
        if len(s1) > 2 or len(s2) > 2:  # broadcast the batch axes, as BatchMatMul needs them equal
            batch = np.broadcast_shapes(s1[:-2] if len(s1) > 1 else (), s2[:-2] if len(s2) > 1 else ())
            if len(s1) > 1 and tuple(x1.shape[:-2]) != batch:
                x1 = F.broadcast_to(x1, batch + tuple(x1.shape[-2:]))
            if len(s2) > 1 and tuple(x2.shape[:-2]) != batch:
                x2 = F.broadcast_to(x2, batch + tuple(x2.shape[-2:]))
        return F.matmul(x1, x2)


class Range(Cell):
    """The constant tensor ``arange(start, limit, delta)`` (``mindspore.nn.Range``): ``Range(5)()`` -> [0 1 2 3 4].

    As numpy's arange (start alone is the limit); int32 when numpy's arange gives integers, else
    float32. ``construct`` takes no input.
    """

    def __init__(self, start, limit=None, delta=1):
        super().__init__()
        if delta == 0:
            raise ValueError("For 'Range', the 'delta' can not be zero.")
        data = np.arange(start, limit, delta)
        self.result_tensor = Tensor(data, dtype=mstype.float32 if data.dtype == np.float64 else mstype.int32)

    def construct(self):
        return self.result_tensor


class Norm(Cell):
    """The L2 norm ``sqrt(sum(x^2))`` over ``axis`` (``mindspore.nn.Norm``; ``()`` = every axis).

    Without ``keep_dims`` the reduced axes are squeezed away (with ``axis=()`` every axis of length 1,
    as MindSpore's Squeeze(())). At x = 0 the gradient is 0 / 0, as in MindSpore.
    """

    def __init__(self, axis=(), keep_dims=False):
        super().__init__()
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For 'Norm', the type of 'keep_dims' should be 'bool', but got type "
                            f"'{type(keep_dims).__name__}'.")
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x):
        x = F.sqrt(F.reduce_sum(F.square(x), self.axis, True))
        if not self.keep_dims:
            axis = self.axis if isinstance(self.axis, tuple) else (self.axis,)
            x = F.squeeze(x, axis)
        return x

    def extend_repr(self):
        return f"axis={self.axis}, keep_dims={self.keep_dims}"
