"""Learning rates that change with the step: schedule Cells and the lists MindSpore's dynamic_lr makes.

A ``LearningRateSchedule`` is a Cell called with ``global_step`` (an int32 tensor) that returns the rate,
written with mslab ops so GRAPH mode compiles it into the training graph. Give one to an optimizer
as ``learning_rate``; the optimizer advances ``global_step`` every call. ``p = step / decay_steps``
(``floor``-ed when ``is_stair``):

* ``ExponentialDecayLR``: ``lr * decay_rate ** p``
* ``NaturalExpDecayLR``: ``lr * exp(-decay_rate * step)`` (``is_stair``: step floor-ed to a multiple of
  decay_steps), as MindSpore 2.10 computes it: its documentation has ``p`` in place of ``step``
* ``InverseDecayLR``: ``lr / (1 + decay_rate * p)``
* ``CosineDecayLR``: ``min_lr + 0.5 * (max_lr - min_lr) * (1 + cos(pi * min(step, decay_steps) / decay_steps))``
* ``PolynomialDecayLR``: ``(lr - end_lr) * (1 - min(step, decay_steps) / decay_steps) ** power + end_lr``
* ``WarmUpLR``: ``lr * min(step, warmup_steps) / warmup_steps``

The functions (``piecewise_constant_lr``, ``exponential_decay_lr``, ...) return a Python list with one
rate per step, for ``learning_rate=list``.
"""
import math

from mslab.core import dtype as mstype
from mslab.nn.cell import Cell
from mslab.ops import functional as F
from mslab.ops.kernel_differences import warn_kernel_differs

__all__ = [
    "LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR", "CosineDecayLR",
    "PolynomialDecayLR", "WarmUpLR", "piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr",
    "inverse_decay_lr", "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr",
]


class LearningRateSchedule(Cell):
    """Base class: ``construct(global_step)`` returns the learning rate for that step."""

    def construct(self, global_step):
        raise NotImplementedError(f"{type(self).__name__} must define construct(global_step)")


def _step_float(global_step):
    return F.cast(global_step, mstype.float32)


class _DecayLR(LearningRateSchedule):
    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__()
        if decay_steps <= 0:
            raise ValueError(f"{type(self).__name__}: decay_steps must be > 0, got {decay_steps}")
        self.learning_rate = float(learning_rate)
        self.decay_rate = float(decay_rate)
        self.decay_steps = float(decay_steps)
        self.is_stair = bool(is_stair)

    def _p(self, global_step):
        p = F.div(_step_float(global_step), self.decay_steps)
        return F.floor(p) if self.is_stair else p


class ExponentialDecayLR(_DecayLR):
    """``lr * decay_rate ** (step / decay_steps)``."""

    def construct(self, global_step):
        return F.mul(F.pow(self.decay_rate, self._p(global_step)), self.learning_rate)


class NaturalExpDecayLR(_DecayLR):
    """``lr * exp(-decay_rate * step)``; with ``is_stair``, step is floor(step / decay_steps) * decay_steps.

    That is what MindSpore 2.10's NaturalExpDecayLR computes (observed: lr 0.1, decay_rate 0.9, decay_steps 4
    gives 0.0406570 at step 1); its documentation has step / decay_steps in the exponent (is_stair: floor-ed),
    which would give 0.0798516. mslab computes MindSpore's numbers and warns once where they differ.
    """

    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__(learning_rate, decay_rate, decay_steps, is_stair)
        if self.decay_steps != 1:
            warn_kernel_differs("NaturalExpDecayLR")

    def construct(self, global_step):
        step = _step_float(global_step)
        if self.is_stair:
            step = F.mul(F.floor(F.div(step, self.decay_steps)), self.decay_steps)
        return F.mul(F.exp(F.mul(step, -self.decay_rate)), self.learning_rate)


class InverseDecayLR(_DecayLR):
    """``lr / (1 + decay_rate * step / decay_steps)``."""

    def construct(self, global_step):
        return F.div(self.learning_rate, F.add(F.mul(self._p(global_step), self.decay_rate), 1.0))


class CosineDecayLR(LearningRateSchedule):
    """``min_lr + 0.5 * (max_lr - min_lr) * (1 + cos(pi * min(step, decay_steps) / decay_steps))``."""

    def __init__(self, min_lr, max_lr, decay_steps):
        super().__init__()
        if decay_steps <= 0:
            raise ValueError(f"CosineDecayLR: decay_steps must be > 0, got {decay_steps}")
        self.min_lr, self.max_lr, self.decay_steps = float(min_lr), float(max_lr), float(decay_steps)

    def construct(self, global_step):
        p = F.div(F.minimum(_step_float(global_step), self.decay_steps), self.decay_steps)
        cos = F.cos(F.mul(p, math.pi))
        return F.add(F.mul(F.add(cos, 1.0), 0.5 * (self.max_lr - self.min_lr)), self.min_lr)


class PolynomialDecayLR(LearningRateSchedule):
    """``(lr - end_lr) * (1 - min(step, decay_steps) / decay_steps) ** power + end_lr``."""

    def __init__(self, learning_rate, end_learning_rate, decay_steps, power, update_decay_steps=False):
        super().__init__()
        if decay_steps <= 0:
            raise ValueError(f"PolynomialDecayLR: decay_steps must be > 0, got {decay_steps}")
        self.learning_rate, self.end_learning_rate = float(learning_rate), float(end_learning_rate)
        self.decay_steps, self.power = float(decay_steps), float(power)
        self.update_decay_steps = bool(update_decay_steps)

    def construct(self, global_step):
        step = _step_float(global_step)
        if self.update_decay_steps:
            # decay_steps grows to the next multiple that covers the step (at least one period)
            decay = F.mul(F.maximum(F.floor(F.div(F.add(step, self.decay_steps - 1.0), self.decay_steps)), 1.0),
                          self.decay_steps)
            p = F.div(step, decay)
        else:
            p = F.div(F.minimum(step, self.decay_steps), self.decay_steps)
        return F.add(F.mul(F.pow(F.sub(1.0, p), self.power), self.learning_rate - self.end_learning_rate),
                     self.end_learning_rate)


class WarmUpLR(LearningRateSchedule):
    """``lr * min(step, warmup_steps) / warmup_steps``."""

    def __init__(self, learning_rate, warmup_steps):
        super().__init__()
        if warmup_steps <= 0:
            raise ValueError(f"WarmUpLR: warmup_steps must be > 0, got {warmup_steps}")
        self.learning_rate, self.warmup_steps = float(learning_rate), float(warmup_steps)

    def construct(self, global_step):
        p = F.div(F.minimum(_step_float(global_step), self.warmup_steps), self.warmup_steps)
        return F.mul(p, self.learning_rate)


# ---- dynamic_lr: Python lists, one rate per step -------------------------------------------------
def piecewise_constant_lr(milestone, learning_rates):
    """``[lr_0]*m_0 + [lr_1]*(m_1-m_0) + ...``: rate ``learning_rates[i]`` until step ``milestone[i]``."""
    if len(milestone) != len(learning_rates):
        raise ValueError("piecewise_constant_lr: milestone and learning_rates must have the same length")
    out, last = [], 0
    for m, lr in zip(milestone, learning_rates):
        if m <= last:
            raise ValueError("piecewise_constant_lr: milestone must be strictly increasing positive ints")
        out += [float(lr)] * (m - last)
        last = m
    return out


def _epochs(total_step, step_per_epoch):
    return [i // step_per_epoch for i in range(total_step)]


def exponential_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    out = []
    for e in _epochs(total_step, step_per_epoch):
        p = e / decay_epoch
        out.append(learning_rate * decay_rate ** (math.floor(p) if is_stair else p))
    return out


def natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    out = []
    for e in _epochs(total_step, step_per_epoch):
        p = math.floor(e / decay_epoch) * decay_epoch if is_stair else e
        out.append(learning_rate * math.exp(-decay_rate * p))
    return out


def inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    out = []
    for e in _epochs(total_step, step_per_epoch):
        p = e / decay_epoch
        out.append(learning_rate / (1 + decay_rate * (math.floor(p) if is_stair else p)))
    return out


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch):
    out = []
    for e in _epochs(total_step, step_per_epoch):
        t = min(e, decay_epoch)
        out.append(min_lr + 0.5 * (max_lr - min_lr) * (1 + math.cos(math.pi * t / decay_epoch)))
    return out


def polynomial_decay_lr(learning_rate, end_learning_rate, total_step, step_per_epoch, decay_epoch, power,
                        update_decay_epoch=False):
    out = []
    for e in _epochs(total_step, step_per_epoch):
        d = decay_epoch
        if update_decay_epoch:
            d = decay_epoch * max(math.ceil(e / decay_epoch), 1)
        t = min(e, d)
        out.append((learning_rate - end_learning_rate) * (1 - t / d) ** power + end_learning_rate)
    return out


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch):
    return [learning_rate * min(e, warmup_epoch) / warmup_epoch for e in _epochs(total_step, step_per_epoch)]
