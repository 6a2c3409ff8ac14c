"""Mixed-precision helpers, as ``mindspore.amp``: loss scalers, ``all_finite`` and loss-scale managers.

Low-precision (float16) gradients can underflow to zero. Loss scaling multiplies the loss by a large
number before backprop and divides the gradients by it afterwards::

    scaler = amp.DynamicLossScaler(scale_value=2**10, scale_factor=2, scale_window=50)
    loss = scaler.scale(loss)                 # in the function being differentiated
    grads = scaler.unscale(grads)
    finite = amp.all_finite(grads)
    scaler.adjust(finite)                     # halve on overflow, grow after scale_window good steps

``auto_mixed_precision(net, "O2")`` sets which Cells compute in float16 (mslab.train.amp).
"""
import numpy as np

from mslab.core import missing_names as _missing_names
from mslab.core.tensor import Parameter, Tensor
from mslab.nn.wrap import loss_scale
from mslab.ops import functional as F
from mslab.ops.composite_ops import HyperMap
from mslab.train.amp import auto_mixed_precision
from mslab.train.build_network import build_train_network

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

__all__ = [
    "LossScaler", "StaticLossScaler", "DynamicLossScaler", "all_finite", "init_status",
    "FixedLossScaleManager", "DynamicLossScaleManager", "LossScaleManager", "auto_mixed_precision",
    "build_train_network",
]

_map = HyperMap()


def all_finite(inputs, status=None):
    """A 0-d bool Tensor: True when no element of any tensor in ``inputs`` is inf or nan."""
    if isinstance(inputs, Tensor):
        inputs = (inputs,)
    return loss_scale.all_finite(tuple(inputs))


def init_status():
    """Kept for compatibility (Ascend's overflow status register); returns a zero tensor."""
    return Tensor(np.zeros((8,), np.float32))


class LossScaler:
    """Base class: ``scale``, ``unscale`` and ``adjust``."""

    def scale(self, inputs):
        raise NotImplementedError

    def unscale(self, inputs):
        raise NotImplementedError

    def adjust(self, grads_finite):
        raise NotImplementedError


class StaticLossScaler(LossScaler):
    """A fixed scale: ``scale(x) = x * scale_value``, ``unscale(g) = g / scale_value``."""

    def __init__(self, scale_value):
        if isinstance(scale_value, bool) or not isinstance(scale_value, (int, float)) or scale_value <= 0:
            raise ValueError(f"StaticLossScaler: scale_value must be a positive number, got {scale_value!r}")
        self.scale_value = Parameter(Tensor(np.array(scale_value, np.float32)), name="scale_value",
                                     requires_grad=False)

    def scale(self, inputs):
        return _map(lambda x: F.mul(x, F.cast(self.scale_value, x.dtype)), inputs)

    def unscale(self, inputs):
        return _map(lambda x: F.div(x, F.cast(self.scale_value, x.dtype)), inputs)

    def adjust(self, grads_finite):
        return False


class DynamicLossScaler(StaticLossScaler):
    """A scale that halves on overflow (at least 1) and grows by ``scale_factor`` every ``scale_window``
    finite steps; ``adjust(grads_finite)`` updates it (with ``assign``, so it works in GRAPH mode too)."""

    def __init__(self, scale_value, scale_factor, scale_window):
        super().__init__(scale_value)
        self.scale_factor = float(scale_factor)
        self.scale_window = int(scale_window)
        self.counter = Parameter(Tensor(np.array(0, np.int32)), name="counter", requires_grad=False)

    def adjust(self, grads_finite):
        s = self.scale_value
        grown = F.mul(s, self.scale_factor)
        grown = F.select(all_finite((grown,)), grown, s)
        on_finite = F.select(F.equal(self.counter, self.scale_window - 1), grown, s)
        new = F.select(grads_finite, on_finite, F.maximum(F.div(s, self.scale_factor), 1.0))
        F.assign(s, new)
        finite = F.cast(grads_finite, self.counter.dtype)
        counter = F.mul(F.floor_mod(F.add(self.counter, 1), self.scale_window), finite)
        F.assign(self.counter, counter)
        return True


class LossScaleManager:
    """Base of the managers ``Model(loss_scale_manager=...)`` takes."""

    def get_loss_scale(self):
        raise NotImplementedError

    def get_update_cell(self):
        raise NotImplementedError


class FixedLossScaleManager(LossScaleManager):
    """A fixed scale; with ``drop_overflow_update`` overflowed steps are skipped."""

    def __init__(self, loss_scale=128.0, drop_overflow_update=True):
        if loss_scale < 1:
            raise ValueError(f"FixedLossScaleManager: loss_scale must be >= 1, got {loss_scale}")
        self.loss_scale = float(loss_scale)
        self.drop_overflow_update = bool(drop_overflow_update)

    def get_loss_scale(self):
        return self.loss_scale

    def get_drop_overflow_update(self):
        return self.drop_overflow_update

    def get_update_cell(self):
        if not self.drop_overflow_update:
            return None
        return loss_scale.FixedLossScaleUpdateCell(self.loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """A scale that adapts: ``DynamicLossScaleManager(init_loss_scale=2**24, scale_factor=2, scale_window=2000)``."""

    def __init__(self, init_loss_scale=2 ** 24, scale_factor=2, scale_window=2000):
        self.loss_scale = float(init_loss_scale)
        self.scale_factor = scale_factor
        self.scale_window = scale_window

    def get_loss_scale(self):
        return self.loss_scale

    def get_drop_overflow_update(self):
        return True

    def get_update_cell(self):
        return loss_scale.DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)
