"""``mint.flatten``, ``mint.sum``, ``mint.mean``, ``mint.matmul``, ``mint.select``, ``mint.narrow``: PyTorch's
conventions on mslab's ops (observed on MindSpore 2.10 CPU, see docs/mindspore_observed/opsmore.md)."""
from mslab.core.tensor import Tensor
from mslab.ops import functional as F
from mslab.ops.reduce_ops import sum  # noqa: A004 - ops.sum already has mint's signature (dim, keepdim, dtype)

__all__ = ["flatten", "sum", "mean", "matmul", "select", "narrow"]


def _tensor(x, fn):
    if not isinstance(x, Tensor):
        raise TypeError(f"mint.{fn}: 'input' must be a Tensor, got {type(x).__name__}")
    return x


def _axis(dim, ndim, op):
    """``dim`` in [-ndim, ndim) as a non-negative axis, else MindSpore's error for ``op``."""
    if not -ndim <= dim < ndim:
        raise ValueError(f"For '{op}', 'dim' must be in [{-ndim}, {ndim}), but got {dim}")
    return dim % ndim


def flatten(input, start_dim=0, end_dim=-1):  # noqa: A002 - MindSpore's argument name
    """Axes ``start_dim`` .. ``end_dim`` merged into one (all of them by default: a 1-D result; a 0-d input
    gives shape (1,))."""
    shape = tuple(_tensor(input, "flatten").shape)
    if not shape:
        return F.reshape(input, (1,))
    start, end = _axis(start_dim, len(shape), "flatten"), _axis(end_dim, len(shape), "flatten")
    if start > end:
        raise ValueError("For 'flatten', 'start_dim' cannot come after 'end_dim'.")
    merged = 1
    for n in shape[start:end + 1]:
        merged *= n
    return F.reshape(input, shape[:start] + (merged,) + shape[end + 1:])


def mean(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A002 - MindSpore's argument names
    """Mean over ``dim`` (every axis for None), after casting to ``dtype`` if given. An integer input keeps
    its dtype (the mean is truncated: mint.mean of Int32 [0..5] is 2, as MindSpore 2.10 on CPU)."""
    _tensor(input, "mean")
    if dtype is not None:
        input = F.cast(input, dtype)
    return F.reduce_mean(input, () if dim is None else tuple(dim) if isinstance(dim, list) else dim, keepdim)


def matmul(input, other):  # noqa: A002 - MindSpore's argument name
    """numpy's matmul: 1-D operands are a row / a column, batch axes broadcast ((2, 1, 2, 3) @ (4, 3, 5) is
    (2, 4, 2, 5)); both inputs must have one dtype."""
    if _tensor(input, "matmul").dtype != _tensor(other, "matmul").dtype:
        raise TypeError(f"For 'MatMulExt', the type of 'x2' should be same as 'x1', but got 'x1' with type "
                        f"Tensor[{input.dtype}] and 'x2' with type Tensor[{other.dtype}].")
    return F.matmul(input, other)


def select(input, dim, index):  # noqa: A002 - MindSpore's argument name
    """``input[..., index, ...]`` with ``index`` on axis ``dim``: that axis goes away (a negative index counts
    from the end).

    The gradient puts dout back at that position (MindSpore 2.10's CPU kernel fails to differentiate
    mint.select, a RuntimeError from InplaceCopy; mslab gives the documented gradient).
    """
    shape = tuple(_tensor(input, "select").shape)
    axis = _axis(dim, len(shape), "select")
    n = shape[axis]
    if not -n <= index < n:
        raise ValueError(f"For Primitive [SelectExtView] start exceed range. start: {index}, start should be in "
                         f"[{-n}, {n}).")
    return F.getitem(input, (slice(None),) * axis + (index % n,))


def narrow(input, dim, start, length):  # noqa: A002 - MindSpore's argument name
    """``length`` elements of axis ``dim`` from ``start`` (negative: from the end), as a slice."""
    shape = tuple(_tensor(input, "narrow").shape)
    axis = _axis(dim, len(shape), "narrow")
    n = shape[axis]
    begin = start + n if start < 0 else start
    if not 0 <= begin <= n or length < 0 or begin + length > n:
        raise ValueError(f"For 'Narrow', start ({start}), + length ({length}) exceeds dimension size ({n}).")
    return F.getitem(input, (slice(None),) * axis + (slice(begin, begin + length),))
