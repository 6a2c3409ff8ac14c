"""More random tensors: ``ops.rand``, ``ops.randint``, ``ops.standard_normal``, ``ops.randperm``,
``ops.multinomial``.

    rand(*size)                    u ~ U[0, 1), Float32 unless dtype (a float type)
    randint(low, high, size)       k ~ U{low, ..., high - 1}, Int64 unless dtype
    standard_normal(shape)         z ~ N(0, 1), Float32
    randperm(n)                    a random permutation of 0, ..., n - 1, Int64 unless dtype
    multinomial(input, n)          n category indices per row, drawn with the row's (unnormalised) weights, Int32

The seeds follow ``random_ops`` (an op with a seed draws from its own stream, which ``set_seed`` restarts; with
no seed, from numpy's global generator, which ``set_seed`` seeds): a seeded program repeats its numbers, as in
MindSpore, but *the draws are not MindSpore's* (its Philox kernels are not reproduced). Shapes, dtypes, ranges
and errors match MindSpore 2.10 on CPU (observed; docs/mindspore_observed/opsthree.md). None of these has a
gradient. (``ops.Randperm``, which has no CPU kernel in MindSpore 2.10, is in device_only_ops.)
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor
from mslab.ops.primitive import instance
from mslab.ops.random_ops import StandardNormal, UniformInt, UniformReal, _check_shape, _Random, _size

__all__ = []


class RandpermV2(_Random):
    """``RandpermV2(seed, seed2)(n)``: a random permutation of ``0, ..., n - 1`` (Int64), MindSpore's kernel behind
    ``ops.randperm``."""

    def infer(self, n):
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n <= 0:
            raise ValueError(f"For 'RandpermV2', the input 'n' must be greater than 0, but got data: {n}.")
        return (int(n),), np.dtype(np.int64)

    def compute(self, n):
        return self.rng().permutation(int(n)).astype(np.int64)


class MultinomialDraw(_Random):
    """``MultinomialDraw(seed, seed2, replacement)(x, num_samples)``: for each row of x (C,) or (N, C), draw
    ``num_samples`` indices with probabilities x / sum(x) (negative weights count as 0); Int32.

    With replacement: inverse CDF of a uniform draw. Without: the Gumbel top-k trick, argsort(log p + g)
    with g ~ Gumbel(0, 1), which draws k distinct indices with the sequential-sampling probabilities."""

    def __init__(self, seed=0, seed2=0, replacement=True):
        super().__init__(seed, seed2)
        self.attrs["replacement"] = self.replacement = bool(replacement)

    def infer(self, x, num_samples):
        if len(x.shape) not in (1, 2):
            raise ValueError(f"For 'multinomial', the dimension of inputs must be 1d or 2d, but got {len(x.shape)}.")
        return tuple(x.shape[:-1]) + (int(num_samples),), np.dtype(np.int32)

    def compute(self, x, num_samples):
        p = np.maximum(np.atleast_2d(x).astype(np.float64), 0.0)
        rng = self.rng()
        if self.replacement:
            cdf = np.cumsum(p, axis=1)
            u = rng.random((p.shape[0], num_samples)) * cdf[:, -1:]
            idx = (u[:, :, None] >= cdf[:, None, :]).sum(axis=2)
            idx = np.minimum(idx, p.shape[1] - 1)
        else:
            with np.errstate(divide="ignore"):
                keys = np.log(p) - np.log(-np.log(rng.random(p.shape)))
            idx = np.argsort(-keys, axis=1, kind="stable")[:, :num_samples]
        return idx.astype(np.int32).reshape(tuple(x.shape[:-1]) + (num_samples,))


# ---- functional forms ---------------------------------------------------------------------------------
def _float_dtype(name, dtype):
    dtype = mstype.float32 if dtype is None else dtype
    if mstype.to_numpy(dtype).kind != "f":
        raise ValueError(f"For '{name}', the 'dtype' must be a float type, but got {dtype}.")
    return dtype


def rand(*size, dtype=None, seed=None):
    """Samples of U[0, 1) of shape ``size`` (``rand(2, 3)`` or ``rand((2, 3))``), Float32 unless ``dtype``."""
    dtype = _float_dtype("rand", dtype)
    shape = _size("rand", size)
    if 0 in shape:  # MindSpore gives an empty tensor (UniformReal itself refuses 0)
        return op_table.zeros(shape, dtype)
    out = instance(UniformReal, seed=seed or 0, seed2=0)(shape)
    return out if dtype == mstype.float32 else op_table.cast(out, dtype)


def randint(low, high, size, seed=None, *, dtype=None):
    """Integers drawn uniformly from ``[low, high)``, of shape ``size``; Int64 unless ``dtype``."""
    for what, v in (("low", low), ("high", high)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"For 'randint_like', '{what}' must be an int, but got {type(v)}.")
    if not isinstance(size, tuple):
        raise ValueError(f"For 'randint', the input 'size' must be a tuple, but got {size!r}.")
    if low >= high:  # MindSpore's kernel error (observed)
        raise RuntimeError(f"For 'Random', invalid min/max values: ({low}/{high})")
    dtype = mstype.int64 if dtype is None else dtype
    out = instance(UniformInt, seed=seed or 0, seed2=0)(size, Tensor(int(low), mstype.int32),
                                                          Tensor(int(high), mstype.int32))
    return out if dtype == mstype.int32 else op_table.cast(out, dtype)


def standard_normal(shape, seed=None):
    """Float32 samples of N(0, 1) of shape ``shape`` (a tuple of positive ints)."""
    return instance(StandardNormal, seed=seed or 0, seed2=0)(_check_shape("StandardNormal", shape))


def randperm(n, seed=0, offset=0, dtype=mstype.int64):
    """A random permutation of ``0, ..., n - 1`` (``n > 0``), Int64 unless ``dtype``."""
    out = instance(RandpermV2, seed=seed or 0, seed2=offset or 0)(n)
    return out if dtype == mstype.int64 else op_table.cast(out, dtype)


def multinomial(input, num_samples, replacement=True, seed=None):  # noqa: A002 - MindSpore's argument name
    """``num_samples`` indices per row of ``input`` (weights, shape (C,) or (N, C)), drawn with probabilities
    ``input / sum(input)``; Int32. Without ``replacement`` each row's indices are distinct."""
    if not replacement and num_samples > input.shape[-1]:
        raise ValueError(f"For 'multinomial', the 'num_samples' must be less than the last dimension of input "
                         f"without 'replacement', but got 'num_samples': {num_samples} and 'replacement': "
                         f"{replacement}")
    return instance(MultinomialDraw, seed=seed or 0, seed2=0, replacement=replacement)(input, int(num_samples))


__all__ += ["rand", "randint", "standard_normal", "randperm", "multinomial"]
op_table.register(globals(), __all__)
