"""Norms and spread, composed of reductions: ``ops.norm``, ``ops.var``, ``ops.std``.

    vector p-norm   ||x||_p = (sum |x_i|^p)^(1/p)      (p = inf: max |x_i|, p = 0: count of non-zeros)
    matrix norms    'fro' = sqrt(sum x_ij^2), 1 = max column sum of |x|, inf = max row sum of |x|
    var             sum (x - mean)^2 / (n - ddof)      (MindSpore's default ddof is 0, the population variance)
    std             sqrt(var)

No new primitives: the gradients come from the reductions, Abs, Pow and Sqrt they are made of.
"""
import math

import numpy as np

from mslab.core.op_registry import op_table

__all__ = []


def _dims(dim, ndim):
    if dim is None:
        return tuple(range(ndim))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    return tuple(sorted(d % max(ndim, 1) for d in dims))


def vector_norm(x, ord=2, dim=None, keepdim=False):  # noqa: A002 - MindSpore's argument name
    """The p-norm of ``x`` over ``dim`` (every axis for None) treated as one vector."""
    axes = _dims(dim, len(x.shape))
    if ord == 2:
        return op_table.sqrt(op_table.reduce_sum(op_table.square(x), axes, keepdim))
    a = op_table.abs(x)
    if ord == math.inf:
        return op_table.reduce_max(a, axes, keepdim)
    if ord == -math.inf:
        return op_table.reduce_min(a, axes, keepdim)
    if ord == 0:
        return op_table.reduce_sum(op_table.cast(op_table.not_equal(x, 0.0), x.dtype), axes, keepdim)
    if ord == 1:
        return op_table.reduce_sum(a, axes, keepdim)
    return op_table.pow(op_table.reduce_sum(op_table.pow(a, float(ord)), axes, keepdim), 1.0 / float(ord))


def matrix_norm(x, ord="fro", dim=(-2, -1), keepdim=False):  # noqa: A002 - MindSpore's argument name
    """'fro', 1, -1, inf or -inf norm of the matrices spanned by the two axes ``dim``."""
    rows, cols = _dims(dim, len(x.shape))
    if ord == "fro":
        return vector_norm(x, 2, (rows, cols), keepdim)
    if ord not in (1, -1, math.inf, -math.inf):
        raise NotImplementedError(f"norm: matrix ord={ord!r} needs singular values, which mslab does not compute")
    # ord 1 sums down each column (over the rows), then takes the max over the columns; inf the other way
    inner, outer = (rows, cols) if ord in (1, -1) else (cols, rows)
    sums = op_table.reduce_sum(op_table.abs(x), inner, True)
    pick = op_table.reduce_max if ord > 0 else op_table.reduce_min
    out = pick(sums, outer, True)
    return out if keepdim else op_table.squeeze(out, (rows, cols))


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002 - MindSpore's argument names
    """``ops.norm``: a vector norm, or a matrix norm when ``dim`` names two axes or A is 2-D and dim is None.

    ord None is the 2-norm of every element (a vector) or 'fro' (matrices); see this module's docstring.
    """
    if dtype is not None:
        A = op_table.cast(A, dtype)
    nd = len(A.shape)
    two_axes = (dim is not None and not isinstance(dim, int) and len(dim) == 2) or (dim is None and nd == 2)
    if isinstance(ord, str) or (ord is not None and two_axes):
        return matrix_norm(A, "fro" if ord is None else ord, (-2, -1) if dim is None else dim, keepdim)
    if ord is None:
        return vector_norm(A, 2, dim, keepdim)
    if dim is None and nd != 1:
        raise ValueError(f"norm: ord={ord!r} with dim=None needs a 1-D or 2-D input, got rank {nd}")
    return vector_norm(A, ord, dim, keepdim)


def var(input, axis=None, ddof=0, keepdims=False):  # noqa: A002 - MindSpore's argument names
    """sum((x - mean)^2) / (n - ddof) over ``axis`` (every axis for None); ddof 0 by default, as MindSpore."""
    axes = _dims(axis, len(input.shape))
    n = int(np.prod([input.shape[a] for a in axes], dtype=np.int64))
    centred = op_table.sub(input, op_table.reduce_mean(input, axes, True))
    return op_table.div(op_table.reduce_sum(op_table.square(centred), axes, keepdims), float(n - int(ddof)))


def std(input, axis=None, ddof=0, keepdims=False):  # noqa: A002 - MindSpore's argument names
    """sqrt(var(input, axis, ddof)): the standard deviation (ddof 0 by default, as MindSpore)."""
    return op_table.sqrt(var(input, axis, ddof, keepdims))



def cdist(x1, x2, p=2.0):
    """Pairwise p-norm distances between the rows of x1 (B, P, M) and x2 (B, R, M), or (P, M) and (R, M):
    ``out[b, i, j] = ||x1[b, i] - x2[b, j]||_p``, shape (B, P, R) (``ops.cdist``)."""
    if len(x1.shape) not in (2, 3) or len(x1.shape) != len(x2.shape):  # MindSpore 2.10's messages (observed)
        raise ValueError(f"For primitive[Cdist], the input_x dim must be in [2,3], but got {len(x1.shape)} (x1 "
                         f"{tuple(x1.shape)}, x2 {tuple(x2.shape)}: both 2-D or both 3-D).")
    if x1.shape[-1] != x2.shape[-1]:
        r = len(x1.shape) - 1
        raise ValueError(f"For Primitive[Cdist], the number of columns of 'x' must be the same as the number of 'y', "
                         f"but got 'x_shape[{r}]': {x1.shape[-1]} and 'y_shape[{r}]': {x2.shape[-1]}")
    diff = op_table.sub(op_table.expand_dims(x1, -2), op_table.expand_dims(x2, -3))
    return vector_norm(diff, ord=float(p), dim=-1)

__all__ += ["cdist", "vector_norm", "matrix_norm", "norm", "var", "std"]
op_table.register(globals(), __all__)
