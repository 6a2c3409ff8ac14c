"""Matrix products: MatMul (2-D, optional transposes) and BatchMatMul (leading batch dimensions).

out = op(x) @ op(y); each gradient is a matrix product of dout with the other input, transposed to
fit, so the backward graph of a Dense layer shows two MatMul nodes.
"""
import numpy as np

from mslab.core.op_registry import op_table
from mslab.ops.primitive import Primitive, broadcast_shape, instance

__all__ = ["BatchMatMul", "MatMul"]



class MatMul(Primitive):
    """x @ y for 2-D tensors, with optional transposes (``ops.MatMul(transpose_a, transpose_b)``).

    out = op(x) @ op(y); d/dx and d/dy are matmuls of dout with the other input, transposed to fit.
    """

    n_tensors = 2

    def __init__(self, transpose_a=False, transpose_b=False):
        super().__init__(transpose_a=transpose_a, transpose_b=transpose_b)

    def infer(self, x, y):
        xs, ys = x.shape, y.shape
        if len(xs) != 2 or len(ys) != 2:
            raise ValueError(f"MatMul needs 2-D inputs, got shapes {tuple(xs)} and {tuple(ys)} "
                             f"(use ops.BatchMatMul or reshape)")
        if x.dtype != y.dtype:
            raise TypeError(f"MatMul needs inputs of one dtype, got {x.dtype} and {y.dtype}")
        k, m = xs if self.transpose_a else (xs[1], xs[0])
        n, k2 = ys if self.transpose_b else (ys[1], ys[0])
        if k != k2:
            raise ValueError(f"MatMul: inner dimensions differ: x{' (transposed)' if self.transpose_a else ''} "
                             f"{tuple(x.shape)} and y{' (transposed)' if self.transpose_b else ''} {tuple(y.shape)} "
                             f"give {k} != {k2}")
        return (m, n), x.dtype

    def compute(self, x, y):
        return np.matmul(x.T if self.transpose_a else x, y.T if self.transpose_b else y)

    def bprop(self, x, y, out, dout, needs):  # needs: no product for a side nobody differentiates (a network input)
        ta, tb = self.transpose_a, self.transpose_b
        dx = dy = None
        if needs[0]:
            dx = instance(MatMul, False, not tb)(dout, y) if not ta else instance(MatMul, tb, True)(y, dout)
        if needs[1]:
            dy = instance(MatMul, not ta, False)(x, dout) if not tb else instance(MatMul, True, ta)(dout, x)
        return dx, dy


class BatchMatMul(Primitive):
    """Batched x @ y over leading dimensions (``ops.BatchMatMul``).

    d/dx and d/dy are batched products of dout with the other input, transposed to fit, as MatMul's.
    """

    n_tensors = 2

    def __init__(self, transpose_a=False, transpose_b=False):
        super().__init__(transpose_a=transpose_a, transpose_b=transpose_b)

    def _t(self, s, flag):
        return tuple(s[:-2]) + (s[-1], s[-2]) if flag else tuple(s)

    def infer(self, x, y):
        if len(x.shape) < 2 or len(y.shape) < 2:
            raise ValueError(f"BatchMatMul needs inputs of rank >= 2, got {tuple(x.shape)} and {tuple(y.shape)}")
        a, b = self._t(x.shape, self.transpose_a), self._t(y.shape, self.transpose_b)
        if a[-1] != b[-2]:
            raise ValueError(f"BatchMatMul: inner dimensions differ: {a} @ {b}")
        batch = broadcast_shape(self, a[:-2], b[:-2])
        return batch + (a[-2], b[-1]), x.dtype

    def compute(self, x, y):
        if self.transpose_a:
            x = np.swapaxes(x, -1, -2)
        if self.transpose_b:
            y = np.swapaxes(y, -1, -2)
        return np.matmul(x, y)

    def bprop(self, x, y, out, dout, needs):  # needs: a frozen side skips its batched product
        ta, tb = self.transpose_a, self.transpose_b
        dx = dy = None
        if needs[0]:
            dx = batch_matmul(dout, y, False, not tb) if not ta else batch_matmul(y, dout, tb, True)
        if needs[1]:
            dy = batch_matmul(x, dout, not ta, False) if not tb else batch_matmul(dout, x, True, ta)
        return dx, dy


# ---- functional forms ---------------------------------------------------------------------------------
def matmul(x, y, transpose_a=False, transpose_b=False):
    """op(x) @ op(y) for 2-D tensors; higher ranks use batch_matmul.

    A 1-D operand follows numpy (as ``ops.matmul`` and ``@`` do in MindSpore): a vector on the left is
    a row, on the right a column, and that axis is dropped from the result (vector @ vector is 0-d).
    """
    nx, ny = len(x.shape), len(y.shape)
    if nx == 2 and ny == 2:  # the usual case first (every Dense layer, forward and backward)
        return instance(MatMul, transpose_a, transpose_b)(x, y)
    if nx == 1 or ny == 1:
        row, col = nx == 1, ny == 1
        out = matmul(op_table.expand_dims(x, 0) if row else x, op_table.expand_dims(y, -1) if col else y,
                     transpose_a, transpose_b)
        if col:
            out = op_table.squeeze(out, (-1,))
        return op_table.squeeze(out, (-1 if col else -2,)) if row else out
    if nx > 2 or ny > 2:
        return instance(BatchMatMul, transpose_a, transpose_b)(x, y)
    return instance(MatMul, transpose_a, transpose_b)(x, y)


def batch_matmul(x, y, transpose_a=False, transpose_b=False):
    """op(x) @ op(y) over the leading (batch) axes."""
    return instance(BatchMatMul, transpose_a, transpose_b)(x, y)


def bmm(input_x, mat2):
    """Batched matrix product of two rank-3 (or higher) tensors (``ops.bmm``)."""
    return instance(BatchMatMul)(input_x, mat2)


def mm(input, mat2):  # noqa: A002 - MindSpore's name
    """input @ mat2 for two 2-D tensors (``ops.mm``); other ranks are refused, as MindSpore 2.10 does."""
    if len(input.shape) != 2 or len(mat2.shape) != 2:
        raise ValueError(f"ops.mm: MatMul inputs should have the same dimension size and equal to 2, got shapes "
                         f"{tuple(input.shape)} and {tuple(mat2.shape)}")
    return instance(MatMul)(input, mat2)


def dot(input, other):  # noqa: A002 - MindSpore's argument name
    """numpy's ``dot`` for inputs of rank >= 2 (``ops.dot``): the last axis of ``input`` against the
    second-to-last of ``other``; the output has shape input.shape[:-1] + other.shape[:-2] + other.shape[-1:].

    Built as one 2-D MatMul between reshaped operands (other's contracted axis moved to the front), so
    gradients are MatMul's. As MindSpore 2.10 on CPU: rank-1 inputs are refused, both inputs must be one
    float type, float16 or float32 (float64 is refused too).
    """
    a, b = tuple(input.shape), tuple(other.shape)
    if len(a) < 2 or len(b) < 2:
        raise ValueError(f"For 'dot', the inputs x1, x2 should have 'dimension >= 2',but got 'len(x1_shape)': "
                         f"({len(a)}) and 'len(x2_shape)': ({len(b)}).")
    if input.dtype != other.dtype:
        raise TypeError(f"For 'dot', the inputs must be the same type, but got x1_type: {input.dtype} and "
                        f"x2_type: {other.dtype}.")
    if input.dtype.np not in (np.float16, np.float32):
        raise TypeError(f"The 'x1' doesn't support '{input.dtype}' and expect to receive [mindspore.float16, "
                        f"mindspore.float32].")
    if a[-1] != b[-2]:
        raise ValueError(f"For 'MatMul' the input dimensions must be equal, but got 'x1_col': {a[-1]} and "
                         f"'x2_row': {b[-2]}.")
    return _dot(input, other)


def _dot(input, other):  # noqa: A002
    """dot's contraction without MindSpore's dtype rule (the gradient check runs it in float64)."""
    return tensor_dot(input, other, ((len(input.shape) - 1,), (len(other.shape) - 2,)))


def _contracted(axes, nd_a, nd_b):
    """tensor_dot's ``axes`` as two tuples of non-negative axes (an int n: the last n of a, the first n of b)."""
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        if not 0 <= n <= min(nd_a, nd_b):
            raise ValueError(f"For 'tensor_dot', 'axes' {n} must be in [0, {min(nd_a, nd_b)}] for inputs of rank "
                             f"{nd_a} and {nd_b}")
        return tuple(range(nd_a - n, nd_a)), tuple(range(n))
    try:
        ax_a, ax_b = axes
    except (TypeError, ValueError):
        raise TypeError(f"For 'tensor_dot', 'axes' must be an int or a pair of axis lists, got {axes!r}") from None
    ax_a = (ax_a,) if isinstance(ax_a, (int, np.integer)) else tuple(ax_a)
    ax_b = (ax_b,) if isinstance(ax_b, (int, np.integer)) else tuple(ax_b)
    if len(ax_a) != len(ax_b):
        raise ValueError(f"For 'tensor_dot', both lists of 'axes' must be as long, got {axes!r}")
    return tuple(int(a) % max(nd_a, 1) for a in ax_a), tuple(int(b) % max(nd_b, 1) for b in ax_b)


def tensor_dot(x1, x2, axes):
    """numpy's tensordot (``ops.tensor_dot``): the sum over the axes ``axes[0]`` of x1 paired with ``axes[1]``
    of x2; an int n pairs the last n axes of x1 with the first n of x2.

    The output's axes are x1's free axes, then x2's. Built as one 2-D MatMul between transposed, reshaped
    operands, so gradients are MatMul's; ``ops.dot`` and ``mslab.numpy``'s dot and tensordot are this.
    """
    a, b = tuple(x1.shape), tuple(x2.shape)
    ax_a, ax_b = _contracted(axes, len(a), len(b))
    if any(a[i] != b[j] for i, j in zip(ax_a, ax_b)):
        raise ValueError(f"For 'tensor_dot', the contracted axes must have equal lengths, but got 'x1_shape': {a}, "
                         f"'x2_shape': {b}, 'axes': {(ax_a, ax_b)}.")
    free_a = tuple(i for i in range(len(a)) if i not in ax_a)
    free_b = tuple(j for j in range(len(b)) if j not in ax_b)
    k = int(np.prod([a[i] for i in ax_a], dtype=np.int64))
    lhs = op_table.reshape(op_table.transpose(x1, free_a + ax_a), (-1, k)) if a else op_table.reshape(x1, (1, 1))
    rhs = op_table.reshape(op_table.transpose(x2, ax_b + free_b), (k, -1)) if b else op_table.reshape(x2, (1, 1))
    out = instance(MatMul)(lhs, rhs)
    return op_table.reshape(out, tuple(a[i] for i in free_a) + tuple(b[j] for j in free_b))


class Ger:
    """``P.Ger()(x1, x2)``: the outer product of two 1-D tensors, out[i, j] = x1[i] * x2[j] (see :func:`ger`)."""

    def __call__(self, x1, x2):
        return ger(x1, x2)

    def __repr__(self):
        return "Ger"


def ger(input, vec2):  # noqa: A002 - MindSpore's argument names
    """The outer product of 1-D ``input`` (n,) and ``vec2`` (m,): (n, m) with out[i, j] = input[i] * vec2[j].

    Made of reshapes and a broadcast Mul, so d/dinput = dout @ vec2 and d/dvec2 = input @ dout come from Mul's
    rule (observed on MindSpore 2.10 CPU: [1, 2, 3] and [0.5, -1] give [[0.5 -1] [1 -2] [1.5 -3]]).
    """
    for name, t in (("x1", input), ("x2", vec2)):
        if len(t.shape) != 1:
            raise ValueError(f"For 'Ger', the '{name}' must be a 1-D Tensor, but got shape {tuple(t.shape)}")
    if input.dtype != vec2.dtype:
        raise TypeError(f"For 'Ger', 'x1' and 'x2' must have one dtype, but got {input.dtype} and {vec2.dtype}")
    return op_table.reshape(input, (-1, 1)) * op_table.reshape(vec2, (1, -1))


__all__ += ["Ger", "ger", "matmul", "batch_matmul", "bmm", "mm", "dot", "tensor_dot"]
op_table.register(globals(), __all__)
