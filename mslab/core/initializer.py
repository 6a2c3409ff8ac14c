"""Weight initialisers, as ``mindspore.common.initializer``.

An Initializer fills a numpy array in place (``init(arr)``); :func:`init_array` makes an array of a
given shape and dtype from an Initializer, a name (``"normal"``, ``"zeros"``, ``"he_uniform"``, ...),
a number, or existing data, and ``initializer`` (in ``mslab.core.tensor``) wraps it as a Tensor.
Each random initialisation takes ONE draw from numpy's global generator (``np.random.randint``) as the seed of
MindSpore's own Philox stream and distributions (``mslab.core.philox``), as MindSpore 2.10 does: after
``np.random.seed(n)`` or ``mslab.set_seed(n)`` the initial weights are MindSpore's numbers, and test data drawn
with ``np.random`` after building a network is the data MindSpore code gets (observed on MindSpore 2.10 CPU).

The *fans* of a weight shape follow MindSpore (and PyTorch): for a Dense weight ``[out, in]``,
``fan_in = in`` and ``fan_out = out``; for a Conv2d weight ``[out, in, kh, kw]`` both are multiplied
by the receptive field ``kh * kw``.

    >>> from mslab.common.initializer import initializer, Normal
    >>> initializer(Normal(0.02), (3, 4)).shape
    (3, 4)
"""
import math
import numbers

import numpy as np

from mslab.core import dtype as mstype
from mslab.core import philox

__all__ = [
    "Initializer",
    "init_array",
    "Normal",
    "TruncatedNormal",
    "Uniform",
    "XavierUniform",
    "XavierNormal",
    "HeUniform",
    "HeNormal",
    "One",
    "Zero",
    "Constant",
]


def _draw(distribution, shape, *args):
    """MindSpore's numbers for one array: one seed from numpy's global generator (its ``_numpy_seed``), then its
    Philox stream and ``distribution`` (``mslab.core.philox``)."""
    seed = np.random.randint(low=1, high=1 << 63, dtype=np.int64)
    return distribution(seed, int(np.prod(shape, dtype=np.int64)), *args).reshape(shape)


def _calculate_fan_in_and_fan_out(shape):
    """``(fan_in, fan_out)`` of a weight shape: ``[out, in, *kernel]``."""
    shape = tuple(shape)
    if len(shape) < 2:
        raise ValueError(f"fan_in and fan_out cannot be computed for a shape with fewer than 2 dimensions, "
                         f"got {shape}")
    receptive = int(np.prod(shape[2:], dtype=np.int64)) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive


def calculate_gain(nonlinearity, param=None):
    """The recommended gain for a nonlinearity (PyTorch/MindSpore table): relu -> sqrt(2), tanh -> 5/3, ..."""
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d", "sigmoid")
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        if isinstance(slope, bool) or not isinstance(slope, numbers.Number):
            raise ValueError(f"negative_slope {slope!r} is not a number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"unsupported nonlinearity {nonlinearity!r}")


class Initializer:
    """Base class: ``init(arr)`` fills the numpy array ``arr`` in place (subclasses define ``_initialize``)."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        for k, v in kwargs.items():
            setattr(self, k, v)

    def _initialize(self, arr):
        raise NotImplementedError(f"{type(self).__name__} must define _initialize(arr)")

    def __call__(self, arr):
        self._initialize(arr)

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"{type(self).__name__}({args})"


def _assign(arr, values):
    arr[...] = np.asarray(values, dtype=arr.dtype) if arr.dtype.kind != "b" else np.asarray(values).astype(bool)


class Zero(Initializer):
    """All zeros."""

    def _initialize(self, arr):
        arr.fill(0)


class One(Initializer):
    """All ones."""

    def _initialize(self, arr):
        arr.fill(1)


class Constant(Initializer):
    """Every element ``value``."""

    def __init__(self, value):
        super().__init__(value=value)

    def _initialize(self, arr):
        arr.fill(self.value)


class Normal(Initializer):
    """Samples from N(mean, sigma^2)."""

    def __init__(self, sigma=0.01, mean=0.0):
        super().__init__(sigma=sigma, mean=mean)

    def _initialize(self, arr):
        _assign(arr, _draw(philox.normal, arr.shape, self.mean, self.sigma))


class TruncatedNormal(Initializer):
    """N(mean, sigma^2) restricted to the interval ``[a, b]`` (drawn by the inverse CDF, as MindSpore does).

    As in MindSpore 2.x (and PyTorch's ``trunc_normal_``) ``a`` and ``b`` are absolute bounds, -2 and 2
    by default: for a small sigma such as LeNet's ``TruncatedNormal(0.02)`` nothing is cut off.
    """

    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        if sigma < 0:
            raise ValueError(f"TruncatedNormal: sigma must be >= 0, got {sigma}")
        if not a < b:
            raise ValueError(f"TruncatedNormal: the bounds need a < b, got a={a}, b={b}")
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)

    def _initialize(self, arr):
        if self.sigma == 0:  # observed on MindSpore 2.10 CPU: RuntimeError "TruncatedNormal: invalid sigma 0."
            raise RuntimeError(f"TruncatedNormal: invalid sigma {self.sigma}.")
        _assign(arr, _draw(philox.truncated_normal, arr.shape, self.a, self.b, self.mean, self.sigma))


class Uniform(Initializer):
    """Samples from U(-scale, scale)."""

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)

    def _initialize(self, arr):
        _assign(arr, _draw(philox.uniform, arr.shape, -self.scale, self.scale))


class XavierUniform(Initializer):
    """Glorot uniform: U(-b, b) with ``b = gain * sqrt(6 / (fan_in + fan_out))``."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)

    def _initialize(self, arr):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        _assign(arr, _draw(philox.uniform, arr.shape, -bound, bound))


class XavierNormal(Initializer):
    """Glorot normal: N(0, s^2) with ``s = gain * sqrt(2 / (fan_in + fan_out))``."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)

    def _initialize(self, arr):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        std = self.gain * math.sqrt(2.0 / float(fan_in + fan_out))
        _assign(arr, _draw(philox.normal, arr.shape, 0.0, std))


def _he_std(shape, negative_slope, mode, nonlinearity):
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"mode must be 'fan_in' or 'fan_out', got {mode!r}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
    fan = fan_in if mode == "fan_in" else fan_out
    return calculate_gain(nonlinearity, negative_slope) / math.sqrt(fan)


class HeUniform(Initializer):
    """Kaiming uniform: U(-b, b), ``b = sqrt(3) * gain / sqrt(fan)``, gain = sqrt(2 / (1 + slope^2)) for leaky_relu.

    ``HeUniform(math.sqrt(5))`` is MindSpore 2.x's default for Dense and Conv2d weights.
    """

    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)

    def _initialize(self, arr):
        bound = math.sqrt(3.0) * _he_std(arr.shape, self.negative_slope, self.mode, self.nonlinearity)
        _assign(arr, _draw(philox.uniform, arr.shape, -bound, bound))


class HeNormal(Initializer):
    """Kaiming normal: N(0, s^2), ``s = gain / sqrt(fan)``."""

    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)

    def _initialize(self, arr):
        std = _he_std(arr.shape, self.negative_slope, self.mode, self.nonlinearity)
        _assign(arr, _draw(philox.normal, arr.shape, 0.0, std))


_BY_NAME = {
    "zeros": Zero,
    "zero": Zero,
    "ones": One,
    "one": One,
    "normal": Normal,
    "truncatednormal": TruncatedNormal,
    "truncated_normal": TruncatedNormal,
    "uniform": Uniform,
    "xavier_uniform": XavierUniform,
    "xavieruniform": XavierUniform,
    "xavier_normal": XavierNormal,
    "xaviernormal": XavierNormal,
    "he_uniform": HeUniform,
    "heuniform": HeUniform,
    "he_normal": HeNormal,
    "henormal": HeNormal,
}


def _shape_tuple(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    try:
        return tuple(int(s) for s in shape)
    except TypeError:
        raise TypeError(f"initializer: shape must be an int or a tuple/list of ints, got {shape!r}") from None


def init_array(init, shape=None, dtype=mstype.float32):
    """A numpy array of ``shape`` and ``dtype`` made by ``init`` (what ``initializer`` wraps as a Tensor).

    ``init`` is an :class:`Initializer`, a name (``"ones"``, ``"zeros"``, ``"normal"``,
    ``"truncatednormal"``, ``"uniform"``, ``"xavier_uniform"``, ``"he_uniform"``, ``"he_normal"``),
    a number (every element that value), or a Tensor / numpy array (copied; its shape must match; a
    Tensor keeps its own dtype, as in MindSpore).
    """
    np_dtype = mstype.to_numpy(dtype)
    is_tensor = hasattr(init, "asnumpy")  # a Tensor (this module sits below tensor.py, so no isinstance)
    if is_tensor or isinstance(init, np.ndarray):
        data = init.asnumpy() if is_tensor else init
        if shape is not None and tuple(data.shape) != _shape_tuple(shape):
            raise ValueError(f"initializer: the given data has shape {tuple(data.shape)}, but the parameter needs "
                             f"shape {_shape_tuple(shape)}")
        # As MindSpore, a Tensor is used as it is (its own dtype); a numpy array takes ``dtype``.
        return np.array(data, dtype=data.dtype if is_tensor else np_dtype, copy=True)
    if shape is None:
        raise ValueError("initializer: shape is required unless init is a Tensor or an array")
    shape = _shape_tuple(shape)
    if any(s < 0 for s in shape):
        raise ValueError(f"initializer: shape must not have negative sizes, got {shape}")
    if isinstance(init, str):
        key = init.lower()
        if key not in _BY_NAME:
            raise ValueError(f"initializer: unknown name {init!r}; known: {', '.join(sorted(set(_BY_NAME)))}")
        init = _BY_NAME[key]()
    elif isinstance(init, (bool, numbers.Number, np.number, np.bool_)):
        init = Constant(init)
    elif isinstance(init, type) and issubclass(init, Initializer):
        init = init()
    if not isinstance(init, Initializer):
        raise TypeError(f"initializer: init must be an Initializer, a name, a number or a Tensor, "
                        f"got {type(init).__name__}")
    arr = np.zeros(shape, np_dtype)
    init(arr)
    return arr
