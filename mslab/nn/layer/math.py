"""Small math layers, as ``mindspore.nn`` (all deprecated in MindSpore 2.10): MatMul, Range, Norm, Tril, Moments."""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core.tensor import Tensor
from mslab.nn.cell import Cell
from mslab.ops import functional as F

__all__ = ["MatMul", "Range", "Norm", "Tril", "Moments"]


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


class Tril(Cell):
    """``Tril()(x, k=0)``: x with the elements above diagonal k of its last two axes set to zero.

    ``mindspore.nn.Tril``: x times a lower-triangular mask of ones, computed in float32 and cast back
    to x's dtype; k > 0 keeps k diagonals above the main one, k < 0 drops that many below it.
    """

    def construct(self, x, k=0):
        if len(x.shape) < 1 or isinstance(k, bool) or not isinstance(k, int):
            raise TypeError(f"For 'Tril', x needs rank >= 1 and k must be an int, got shape {tuple(x.shape)}, k={k!r}")
        rows, cols = (1,) + tuple(x.shape) if len(x.shape) == 1 else x.shape[-2:]
        mask = np.tril(np.ones((rows, cols), np.float32), k)
        if len(x.shape) == 1:
            mask = mask[0]
        return F.cast(F.mul(F.cast(x, mstype.float32), Tensor(mask)), x.dtype)


class Moments(Cell):
    """``Moments(axis=None, keep_dims=None)(x)`` -> ``(mean, variance)`` over ``axis`` (None: every axis).

    ``mindspore.nn.Moments``: the biased variance ``mean((x - mean)^2)``, with the mean held constant
    for the gradient (stop_gradient, as MindSpore). float16 is computed in float32 and cast back;
    only float16/float32 inputs are accepted.
    """

    def __init__(self, axis=None, keep_dims=None):
        super().__init__()
        axis = () if axis is None else axis
        if not (isinstance(axis, int) and not isinstance(axis, bool)) and not (
                isinstance(axis, tuple) and all(isinstance(a, int) and not isinstance(a, bool) for a in axis)):
            raise TypeError(f"For 'Moments', the type of 'axis' should be int or a tuple of ints, but got {axis!r}.")
        keep_dims = False if keep_dims is None else keep_dims
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For 'Moments', the type of 'keep_dims' should be 'bool', but got type "
                            f"'{type(keep_dims).__name__}'.")
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x):
        dtype = x.dtype
        if dtype not in (mstype.float16, mstype.float32):
            raise TypeError(f"For 'Moments', the 'input x' should be one of [mindspore.float16, mindspore.float32], "
                            f"but got 'mindspore.{str(dtype).lower()}'.")
        if dtype == mstype.float16:
            x = F.cast(x, mstype.float32)
        mean = F.reduce_mean(x, self.axis, True)
        variance = F.reduce_mean(F.square(F.sub(x, F.stop_gradient(mean))), self.axis, True)
        if not self.keep_dims:
            axis = self.axis if isinstance(self.axis, tuple) else (self.axis,)
            mean, variance = F.squeeze(mean, axis), F.squeeze(variance, axis)
        if dtype == mstype.float16:
            mean, variance = F.cast(mean, dtype), F.cast(variance, dtype)
        return mean, variance
