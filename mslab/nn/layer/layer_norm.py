"""Layer normalisation, as ``mindspore.nn.LayerNorm``.

Each sample is normalised over its trailing axes (from ``begin_norm_axis`` on), then scaled and
shifted by learned ``gamma`` and ``beta`` (shaped like the axes from ``begin_params_axis`` on)::

    y = (x - mean) / sqrt(var + epsilon) * gamma + beta      (mean, biased var over the normalised axes)

No running statistics: training and evaluation compute the same thing.
"""
from mslab.core import dtype as mstype
from mslab.core.tensor import Parameter, initializer
from mslab.nn.cell import Cell
from mslab.ops import functional as F

__all__ = ["LayerNorm"]


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

    def construct(self, x):
        nd = len(x.shape)
        norm_from = self.begin_norm_axis % nd
        params_from = self.begin_params_axis % nd
        if tuple(x.shape[params_from:]) != tuple(self.gamma.shape):
            raise ValueError(f"For 'LayerNorm', the input's axes from begin_params_axis={self.begin_params_axis} "
                             f"have shape {tuple(x.shape[params_from:])}, but gamma/beta have shape "
                             f"{tuple(self.gamma.shape)} (input shape {tuple(x.shape)})")
        axes = tuple(range(norm_from, nd))
        mean = F.reduce_mean(x, axes, True)
        centred = F.sub(x, mean)
        var = F.reduce_mean(F.square(centred), axes, True)
        y = F.div(centred, F.sqrt(F.add(var, self.epsilon)))
        return F.add(F.mul(y, F.cast(self.gamma, x.dtype)), F.cast(self.beta, x.dtype))

    def extend_repr(self):
        # MindSpore 2.10 prints "gammaParameter (...)" without '=' (observed); mslab prints it the same way
        return (f"normalized_shape={self.normalized_shape}, begin_norm_axis={self.begin_norm_axis}, "
                f"begin_params_axis={self.begin_params_axis}, gamma{self.gamma!r}, beta={self.beta!r}")
