"""Layer and group normalisation, as ``mindspore.nn.LayerNorm`` and ``mindspore.nn.GroupNorm``.

Each sample is normalised over its trailing axes (from ``begin_norm_axis`` on), then scaled and
shifted by learned ``gamma`` and ``beta`` (shaped like the axes from ``begin_params_axis`` on)::

    y = (x - mean) / sqrt(var + epsilon) * gamma + beta      (mean, biased var over the normalised axes)

GroupNorm normalises each sample's channels in groups (all of a group's channels and positions
together), then scales and shifts per channel. No running statistics: training and evaluation compute
the same thing.
"""
from mslab.core import dtype as mstype
from mslab.core.tensor import Parameter, initializer
from mslab.nn.cell import Cell
from mslab.ops import functional as F
from mslab.ops.norm_layer_ops import LayerNorm as LayerNormOp

__all__ = ["LayerNorm", "GroupNorm"]


def _normalise(x, axes, eps):
    """(x - mean) / sqrt(var + eps), with the mean and the biased variance over ``axes``."""
    centred = F.sub(x, F.reduce_mean(x, axes, True))
    var = F.reduce_mean(F.square(centred), axes, True)
    return F.div(centred, F.sqrt(F.add(var, eps)))


class LayerNorm(Cell):
    """``LayerNorm(normalized_shape, begin_norm_axis=-1, begin_params_axis=-1, gamma_init='ones',
    beta_init='zeros', epsilon=1e-7, dtype=mstype.float32)``: parameters ``gamma`` and ``beta``."""

    def __init__(self, normalized_shape, begin_norm_axis=-1, begin_params_axis=-1, gamma_init="ones",
                 beta_init="zeros", epsilon=1e-7, dtype=mstype.float32):
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)) or not all(
                isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in normalized_shape):
            raise TypeError(f"For 'LayerNorm', normalized_shape must be a tuple or list of positive ints, "
                            f"got {normalized_shape!r}")
        self.normalized_shape = tuple(normalized_shape)
        self.begin_norm_axis = int(begin_norm_axis)
        self.begin_params_axis = int(begin_params_axis)
        self.epsilon = float(epsilon)
        self.gamma = Parameter(initializer(gamma_init, self.normalized_shape, dtype), name="gamma")
        self.beta = Parameter(initializer(beta_init, self.normalized_shape, dtype), name="beta")
        # MindSpore's layer holds its primitive under this name, and model code that subclasses the layer calls
        # it: ``y, _, _ = self.layer_norm(x, self.gamma, self.beta)`` (mindcv's ConvNeXt does)
        self.layer_norm = LayerNormOp(self.begin_norm_axis, self.begin_params_axis, self.epsilon)

    def construct(self, x):
        params_from = self.begin_params_axis % len(x.shape)
        if tuple(x.shape[params_from:]) != tuple(self.gamma.shape):
            raise ValueError(f"For 'LayerNorm', the input's axes from begin_params_axis={self.begin_params_axis} "
                             f"have shape {tuple(x.shape[params_from:])}, but gamma/beta have shape "
                             f"{tuple(self.gamma.shape)} (input shape {tuple(x.shape)})")
        y, _, _ = self.layer_norm(x, F.cast(self.gamma, x.dtype), F.cast(self.beta, x.dtype))
        return y

    def extend_repr(self):
        # MindSpore 2.10 prints "gammaParameter (...)" without '=' (observed); mslab prints it the same way
        return (f"normalized_shape={self.normalized_shape}, begin_norm_axis={self.begin_norm_axis}, "
                f"begin_params_axis={self.begin_params_axis}, gamma{self.gamma!r}, beta={self.beta!r}")


class GroupNorm(Cell):
    """``GroupNorm(num_groups, num_channels, eps=1e-5, affine=True, gamma_init='ones', beta_init='zeros')``.

    x (N, C, ...) is split into num_groups groups of C / num_groups channels; each sample's group is
    normalised over its channels and positions together, then ``y * gamma + beta`` per channel
    (``gamma``, ``beta``: shape (C,), not trained when ``affine=False``).
    """

    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, gamma_init="ones", beta_init="zeros",
                 dtype=mstype.float32):
        super().__init__()
        for name, value in (("num_groups", num_groups), ("num_channels", num_channels)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"For 'GroupNorm', the '{name}' must be int and must > 0, but got {value!r}.")
        if num_channels % num_groups:
            raise ValueError(f"For 'GroupNorm', the 'num_channels' must be divided by 'num_groups', but got "
                             f"'num_channels': {num_channels}, 'num_groups': {num_groups}.")
        if not isinstance(eps, float):
            raise TypeError(f"For 'GroupNorm', the type of 'eps' should be 'float', but got type "
                            f"'{type(eps).__name__}'.")
        if not isinstance(affine, bool):
            raise TypeError(f"For 'GroupNorm', 'affine' must be a bool, but got {type(affine).__name__}.")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        self.gamma = Parameter(initializer(gamma_init, (num_channels,), dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, (num_channels,), dtype), name="beta", requires_grad=affine)

    def construct(self, x):
        shape = tuple(x.shape)
        if len(shape) < 2 or shape[1] != self.num_channels:
            raise ValueError(f"For 'GroupNorm', the channel (the second dim of the input 'x', shape {shape}) must "
                             f"be equal to num_channels={self.num_channels}.")
        grouped = F.reshape(x, (shape[0], self.num_groups, -1))
        y = F.reshape(_normalise(grouped, (2,), self.eps), shape)
        per_channel = (self.num_channels,) + (1,) * (len(shape) - 2)
        gamma = F.reshape(F.cast(self.gamma, x.dtype), per_channel)
        return F.add(F.mul(y, gamma), F.reshape(F.cast(self.beta, x.dtype), per_channel))

    def extend_repr(self):
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}"
