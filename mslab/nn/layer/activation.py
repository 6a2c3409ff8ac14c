"""Activation layers, as ``mindspore.nn``: ReLU, Sigmoid, Tanh, Softmax, LogSoftmax, ... and get_activation.

Each is a Cell whose ``construct`` calls one mslab op, so it runs eagerly in PYNATIVE mode and
becomes graph nodes in GRAPH mode. ``get_activation("relu")`` builds one by name (what ``Dense(...,
activation="relu")`` uses).
"""
from mslab.nn.cell import Cell
from mslab.ops import functional as F

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "get_activation"]


class ReLU(Cell):
    """max(x, 0), elementwise (``mindspore.nn.ReLU``)."""

    def construct(self, x):
        return F.relu(x)


class ReLU6(Cell):
    """min(max(x, 0), 6), elementwise."""

    def construct(self, x):
        return F.minimum(F.relu(x), 6.0)


class LeakyReLU(Cell):
    """x for x >= 0, alpha * x otherwise (``alpha`` default 0.2, as MindSpore)."""

    def __init__(self, alpha=0.2):
        super().__init__()
        self.alpha = float(alpha)

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


_ACTIVATIONS = {
    "relu": ReLU,
    "relu6": ReLU6,
    "leakyrelu": LeakyReLU,
    "sigmoid": Sigmoid,
    "tanh": Tanh,
    "softmax": Softmax,
    "logsoftmax": LogSoftmax,
}


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
