"""Activation layers, as ``mindspore.nn``: ReLU, Sigmoid, Tanh, Softmax, GELU, ... and get_activation.

Each is a Cell whose ``construct`` calls mslab ops, so it runs eagerly in PYNATIVE mode and
becomes graph nodes in GRAPH mode. ``get_activation("relu")`` builds one by name (what ``Dense(...,
activation="relu")`` uses).
"""
import math

import numpy as np

from mslab.core import dtype as mstype
from mslab.core.tensor import Parameter, Tensor
from mslab.nn.cell import Cell
from mslab.ops import functional as F
from mslab.ops.kernel_differences import warn_kernel_differs

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "Softsign", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "GELU", "ELU", "SiLU",
           "HSigmoid", "HSwish", "PReLU", "get_activation"]


class ReLU(Cell):
    """max(x, 0), elementwise (``mindspore.nn.ReLU``)."""

    def construct(self, x):
        return F.relu(x)


class ReLU6(Cell):
    """min(max(x, 0), 6), elementwise; its slope is 1 on (0, 6] (MindSpore's ReLU6Grad)."""

    def construct(self, x):
        return F.clip(F.relu(x), None, 6.0)  # clip, not Minimum: Minimum would halve the slope at 6


class LeakyReLU(Cell):
    """x for x >= 0, alpha * x otherwise (``alpha`` default 0.2, as MindSpore).

    As MindSpore's, it is max(x, alpha * x) (min for alpha > 1), so at exactly 0, where the two tie, Maximum's
    gradient gives each half: the slope there is (1 + alpha) / 2 (observed on 2.10 CPU: 0.6 for alpha 0.2).
    """

    def __init__(self, alpha=0.2):
        super().__init__()
        self.alpha = float(alpha)
        if self.alpha != 1.0:
            warn_kernel_differs("LeakyReLU")

    def construct(self, x):
        if self.alpha <= 1.0:
            return F.maximum(x, F.mul(x, self.alpha))
        return F.minimum(x, F.mul(x, self.alpha))

    def extend_repr(self):
        return f"alpha={self.alpha}"


class Sigmoid(Cell):
    """1 / (1 + exp(-x)), elementwise."""

    def construct(self, x):
        return F.sigmoid(x)


class Tanh(Cell):
    """tanh(x), elementwise."""

    def construct(self, x):
        return F.tanh(x)


class Softmax(Cell):
    """exp(x) / sum(exp(x)) along ``axis`` (default -1)."""

    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis

    def construct(self, x):
        return F.softmax(x, self.axis)


class LogSoftmax(Cell):
    """x - log(sum(exp(x))) along ``axis`` (default -1), computed stably."""

    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis

    def construct(self, x):
        return F.log_softmax(x, self.axis)


class GELU(Cell):
    """x * P(X <= x) for a standard normal X (``mindspore.nn.GELU``).

    ``approximate=True`` (MindSpore's default) uses 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)));
    ``approximate=False`` the exact 0.5 x (1 + erf(x / sqrt(2))).
    """

    def __init__(self, approximate=True):
        super().__init__()
        self.approximate = bool(approximate)

    def construct(self, x):
        if self.approximate:
            inner = F.mul(F.add(x, F.mul(F.mul(F.square(x), x), 0.044715)), math.sqrt(2.0 / math.pi))
            return F.mul(F.mul(x, 0.5), F.add(F.tanh(inner), 1.0))
        return F.mul(F.mul(x, 0.5), F.add(F.erf(F.mul(x, 1.0 / math.sqrt(2.0))), 1.0))


class ELU(Cell):
    """x for x > 0, alpha (e^x - 1) otherwise (``mindspore.nn.ELU``; MindSpore accepts only alpha=1.0)."""

    def __init__(self, alpha=1.0):
        super().__init__()
        if float(alpha) != 1.0:  # as MindSpore 2.10: "In Elu, alpha must be 1.0f."
            raise ValueError(f"For 'ELU', alpha must be 1.0, but got {alpha}")
        self.alpha = float(alpha)

    def construct(self, x):
        # exp of min(x, 0): the unused branch must not overflow (its inf would turn the gradient into nan)
        # (a Select, not Minimum, which would halve the slope at 0, where MindSpore's is 1)
        negative = F.mul(F.sub(F.exp(F.select(F.greater(x, 0.0), F.zeros_like(x), x)), 1.0), self.alpha)
        return F.select(F.greater(x, 0.0), x, negative)


class Softsign(Cell):
    """x / (1 + |x|), elementwise (``mindspore.nn.Softsign``): ``ops.softsign``."""

    def construct(self, x):
        return F.softsign(x)


class SiLU(Cell):
    """x * sigmoid(x), elementwise (also called swish)."""

    def construct(self, x):
        return F.mul(x, F.sigmoid(x))


class HSigmoid(Cell):
    """Hard sigmoid: relu6(x + 3) / 6, elementwise: 0 for x <= -3, 1 for x >= 3, (x + 3) / 6 between.

    Its slope is 1/6 strictly inside (-3, 3) and 0 at -3 and 3 (MindSpore 2.10 CPU's HSigmoidGrad).
    """

    def construct(self, x):
        middle = F.div(F.add(x, 3.0), 6.0)
        top = F.select(F.greater_equal(x, 3.0), F.ones_like(x), middle)
        return F.select(F.less_equal(x, -3.0), F.zeros_like(x), top)


class HSwish(Cell):
    """Hard swish: x * relu6(x + 3) / 6, elementwise (``mindspore.nn.HSwish``): 0 for x < -3, x for x > 3.

    Its slope is (2x + 3) / 6 on [-3, 3], both ends included (MindSpore 2.10 CPU's HSwishGrad: -0.5 at -3, 1.5 at 3).
    """

    def construct(self, x):
        middle = F.mul(x, F.div(F.add(x, 3.0), 6.0))
        out = F.select(F.less(x, -3.0), F.zeros_like(x), F.select(F.greater(x, 3.0), x, middle))
        return F.add(out, 0.0)  # + 0.0 turns the -0.0 of -3 * 0 into the 0.0 MindSpore prints


class PReLU(Cell):
    """Parametric ReLU: x where x > 0, else w * x, with a learnt slope per channel (``mindspore.nn.PReLU``).

    ``w`` (the Parameter named "a", shape (channel,), 0.25 by default) is broadcast along axis 1 of x
    (the channel axis of (N, C, ...)). Its gradient is the sum of dout * x over the positions where
    x <= 0; the gradient for x is dout where x > 0, else w * dout (w at x = 0 as well).
    """

    def __init__(self, channel=1, w=0.25):
        super().__init__()
        if isinstance(channel, bool) or not isinstance(channel, int) or channel < 1:
            raise ValueError(f"For 'PReLU', 'channel' must be a positive int, but got {channel!r}.")
        if isinstance(w, (float, np.float32)):
            w = Tensor(np.full((channel,), w, np.float32))
        elif isinstance(w, list):
            if len(w) != channel:
                raise ValueError(f"For 'PReLU', the length of 'w' must be equal to the 'channel' when the 'w' is a "
                                 f"list, but got the length of 'w': {len(w)}, the 'channel': {channel}.")
            if not all(isinstance(v, (float, np.float32)) for v in w):
                raise ValueError(f"For 'PReLU', all elements in 'w' must be float when the 'w' is a list, got {w}.")
            w = Tensor(np.array(w, np.float32))
        elif isinstance(w, Tensor):
            if w.dtype not in (mstype.float16, mstype.float32):
                raise ValueError(f"For 'PReLU', the dtype of 'w' must be float16 or float32 when the 'w' is a "
                                 f"tensor, but got {w.dtype}.")
            if len(w.shape) != 1 or w.shape[0] != channel:
                raise ValueError(f"For 'PReLU', 'w' must be 1-D with 'channel' = {channel} elements, but got 'w' "
                                 f"shape {tuple(w.shape)}.")
        else:  # an int is refused too, as in MindSpore
            raise TypeError(f"For 'PReLU', the 'w' only supported float, list and tensor, but got {type(w).__name__}.")
        self.w = Parameter(w, name="a")

    def construct(self, x):
        rank, channel = len(x.shape), self.w.shape[0]
        if channel != 1 and (rank < 2 or x.shape[1] != channel):
            raise ValueError(f"For 'PReLU', the channel of x (axis 1 of shape {tuple(x.shape)}) must equal the "
                             f"{channel} elements of w")
        w = F.cast(self.w, x.dtype)
        if rank >= 2:  # (C,) -> (C, 1, ..., 1): one slope per channel of axis 1
            w = F.reshape(w, (channel,) + (1,) * (rank - 2))
        return F.select(F.greater(x, 0.0), x, F.mul(w, x))


_ACTIVATIONS = {
    "relu": ReLU,
    "relu6": ReLU6,
    "leakyrelu": LeakyReLU,
    "sigmoid": Sigmoid,
    "tanh": Tanh,
    "softmax": Softmax,
    "logsoftmax": LogSoftmax,
    "gelu": GELU,
    "elu": ELU,
    "silu": SiLU,
    "hsigmoid": HSigmoid,
    "hswish": HSwish,
    "prelu": PReLU,
}
_activation = _ACTIVATIONS  # MindSpore's private name for this table (nn.layer.activation._activation)


def get_activation(name, prim_name=None):
    """The activation Cell called ``name`` ("relu", "sigmoid", "tanh", "softmax", "logsoftmax", ...).

    None gives None; an unknown name raises KeyError listing the known ones.
    """
    if name is None:
        return None
    if not isinstance(name, str):
        raise TypeError(f"get_activation: name must be a str, got {type(name).__name__}")
    key = name.lower()
    if key not in _ACTIVATIONS:
        raise KeyError(f"get_activation: unknown activation {name!r}; known: {', '.join(sorted(_ACTIVATIONS))}")
    return _ACTIVATIONS[key]()
