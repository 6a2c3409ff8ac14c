"""Random tensors: ``ops.StandardNormal``, ``ops.UniformReal``, ``ops.UniformInt`` and ``ops.randn``,
``ops.normal``, ``ops.uniform``.

    StandardNormal(seed, seed2)(shape)              z ~ N(0, 1), Float32
    UniformReal(seed, seed2)(shape)                 u ~ U[0, 1), Float32
    UniformInt(seed, seed2)(shape, minval, maxval)  k ~ U{minval, ..., maxval - 1}, Int32
    normal(shape, mean, stddev)  = mean + stddev * z     (differentiable in mean and stddev)
    uniform(shape, minval, maxval) = minval + (maxval - minval) * u

Seeds: an op made with ``seed`` or ``seed2`` set draws from its own stream (a numpy Generator seeded
with ``(seed, seed2, global seed)``): each call gives new numbers, and ``set_seed`` restarts the
stream, so a seeded program prints the same numbers every run, as in MindSpore. An op with both
seeds 0 draws from numpy's global generator, which ``set_seed`` also seeds.
*These are not MindSpore's numbers*: MindSpore's CPU kernels draw from Philox counters with their own
seed derivation, which mslab does not reproduce: besides the generator, the seeds an op gets depend on a
process-wide count of the random ops made so far (observed on MindSpore 2.10 CPU: after ``set_seed(5)`` a new
``StandardNormal()`` gives other numbers than the one made after the previous ``set_seed(5)``). Shapes, dtypes,
errors and the distributions match (checked on MindSpore 2.10 CPU); the draws do not.

The random primitives are not deterministic, so a compiled graph never folds them into constants or
merges two of them, and they have no gradient: ``normal`` and ``uniform`` get theirs from the Mul and
Add around the draw (MindSpore's gradients of mean and stddev are 1 and z per element, observed).
"""
import weakref

import numpy as np

from mslab.core import dtype as mstype
from mslab.core import seed as _seed
from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor
from mslab.ops.primitive import Primitive, broadcast_shape, instance

__all__ = ["StandardNormal", "UniformReal", "UniformInt"]

_seeded = weakref.WeakSet()  # ops with their own stream, restarted by set_seed


def _restart_streams(_new_seed):
    for op in list(_seeded):
        op._rng = None


_seed._set_seed_hooks.append(_restart_streams)


def _check_seed(name, value, what):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"For '{name}', the '{what}' must be int and must >= 0, but got '{value}' with type "
                         f"'{type(value).__name__}'.")
    return int(value)


def _check_shape(name, shape):
    """A constant shape (a tuple of ints, or the numbers of an int Tensor), as MindSpore's random ops take it."""
    if isinstance(shape, np.ndarray) and shape.dtype.kind in "iu":
        shape = tuple(int(v) for v in shape.reshape(-1))
    if not isinstance(shape, tuple) or not all(isinstance(s, (int, np.integer)) for s in shape):
        raise TypeError(f"For '{name}', input must be a Int, a tuple, or a Tensor with all Int elements, but got: "
                        f"{shape!r}")
    if any(s <= 0 for s in shape):
        raise ValueError(f"For primitive[{name}], the attribute[shape] should be a vector with all positive item. "
                         f"but got {list(shape)}.")
    return tuple(int(s) for s in shape)


class _Random(Primitive):
    """A draw from a stream (see the module docstring for the seeds)."""

    differentiable = False
    deterministic = False

    def __init__(self, seed=0, seed2=0):
        name = type(self).__name__
        super().__init__(seed=_check_seed(name, seed, "seed"), seed2=_check_seed(name, seed2, "seed2"))
        self._rng = None
        if self.seed or self.seed2:
            _seeded.add(self)

    def key(self):
        return (type(self), id(self))  # two draws are never the same computation

    def rng(self):
        """This op's numpy Generator, or numpy's global one (``np.random``) when both seeds are 0."""
        if not (self.seed or self.seed2):
            return np.random.mtrand._rand
        if self._rng is None:
            self._rng = np.random.default_rng([self.seed, self.seed2, _seed.get_seed() or 0])
        return self._rng

    def bprop(self, *args):  # no gradient for any input
        *inputs, out, dout = args
        return (None,) * len(inputs)


class StandardNormal(_Random):
    """``ops.StandardNormal(seed=0, seed2=0)(shape)``: Float32 samples of N(0, 1) (not MindSpore's draws)."""

    def infer(self, shape):
        return _check_shape(self.name, shape), np.dtype(np.float32)

    def compute(self, shape):
        return self.rng().standard_normal(_check_shape(self.name, shape)).astype(np.float32)


class UniformReal(_Random):
    """``ops.UniformReal(seed=0, seed2=0)(shape)``: Float32 samples of U[0, 1) (not MindSpore's draws)."""

    def infer(self, shape):
        return _check_shape(self.name, shape), np.dtype(np.float32)

    def compute(self, shape):
        return self.rng().random(_check_shape(self.name, shape)).astype(np.float32)


class UniformInt(_Random):
    """``ops.UniformInt(seed=0, seed2=0)(shape, minval, maxval)``: Int32 in [minval, maxval) (scalar Int32 bounds)."""

    def infer(self, shape, minval, maxval):
        for what, v in (("minval", minval), ("maxval", maxval)):
            if v.dtype != np.int32:
                raise TypeError(f"For primitive[UniformInt], the input argument[{what}] must be a type of "
                                f"{{Tensor[Int32]}}, but got Tensor[{mstype.from_numpy(v.dtype)}].")
            if tuple(v.shape) not in ((), (1,)):
                raise ValueError(f"For UniformInt, the {what[:3]} value should be a scalar tensor, while the shape "
                                 f"is: {tuple(v.shape)}")
        return _check_shape(self.name, shape), np.dtype(np.int32)

    def compute(self, shape, minval, maxval):
        lo, hi = int(np.reshape(minval, -1)[0]), int(np.reshape(maxval, -1)[0])
        if lo >= hi:
            raise RuntimeError(f"For 'Random', invalid min/max values: ({lo}/{hi})")
        rng, shape = self.rng(), _check_shape(self.name, shape)
        draw = rng.integers if isinstance(rng, np.random.Generator) else rng.randint  # numpy's global RandomState
        return draw(lo, hi, shape).astype(np.int32)


# ---- functional forms ---------------------------------------------------------------------------------
def _size(name, size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    if not all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in size):
        raise TypeError(f"For '{name}', the size must be ints or a tuple of ints, got {size!r}")
    return tuple(int(s) for s in size)


def randn(*size, dtype=None, seed=None):
    """Samples of N(0, 1) of shape ``size`` (``randn(2, 3)`` or ``randn((2, 3))``), Float32 unless ``dtype``."""
    dtype = mstype.float32 if dtype is None else dtype
    if not mstype.to_numpy(dtype).kind == "f":
        raise ValueError(f"For 'randn', the 'dtype' must be a float type, but got {dtype}.")
    shape = _size("randn", size)
    if 0 in shape:  # MindSpore gives an empty tensor (StandardNormal itself refuses 0)
        return op_table.zeros(shape, dtype)
    out = instance(StandardNormal, seed=seed or 0, seed2=0)(shape)
    return out if dtype == mstype.float32 else op_table.cast(out, dtype)


def _as_tensor(v):
    return v if isinstance(v, Tensor) else Tensor(v, mstype.float32)


def normal(shape, mean, stddev, seed=None):
    """mean + stddev * z with z ~ N(0, 1); the shape is ``shape`` broadcast with mean's and stddev's."""
    mean, stddev = _as_tensor(mean), _as_tensor(stddev)
    dtype = mean.dtype if mean.dtype.is_float else mstype.float32
    out_shape = broadcast_shape(instance(StandardNormal), tuple(shape), tuple(mean.shape), tuple(stddev.shape))
    z = instance(StandardNormal, seed=seed or 0, seed2=0)(out_shape)
    z = z if dtype == mstype.float32 else op_table.cast(z, dtype)
    return op_table.add(op_table.mul(z, op_table.cast(stddev, dtype)), op_table.cast(mean, dtype))


def uniform(shape, minval, maxval, seed=None, dtype=mstype.float32):
    """Samples of U[minval, maxval): Float32 (UniformReal scaled) or Int32 (UniformInt), as ``dtype`` says."""
    if not (isinstance(minval, Tensor) and isinstance(maxval, Tensor)):
        raise TypeError("For functional operator[uniform], the input[minval] and input[maxval] must be a Tensor.")
    if dtype not in (mstype.int32, mstype.float32):
        raise TypeError(f"The 'uniform' doesn't support '{dtype}' and expect to receive "
                        f"[mindspore.int32, mindspore.float32].")
    for v in (minval, maxval):
        if v.dtype != dtype:
            raise TypeError(f"For 'uniform', the value data type '{dtype}' is not consistent with assigned tensor "
                            f"data type {v.dtype}.")
    if dtype == mstype.int32:
        return instance(UniformInt, seed=seed or 0, seed2=0)(tuple(shape), minval, maxval)
    out_shape = broadcast_shape(instance(UniformReal), tuple(shape), tuple(minval.shape), tuple(maxval.shape))
    u = instance(UniformReal, seed=seed or 0, seed2=0)(out_shape)
    return op_table.add(op_table.mul(u, op_table.sub(maxval, minval)), minval)


__all__ += ["randn", "normal", "uniform"]
op_table.register(globals(), __all__)
