"""``mindspore.nn.dynamic_lr``: learning rates as Python lists (one per step), by MindSpore's module path.

They live in ``mslab.nn.optim.learning_rate_schedule`` beside the schedule Cells.
"""
from mslab.nn.optim.learning_rate_schedule import (
    cosine_decay_lr,
    exponential_decay_lr,
    inverse_decay_lr,
    natural_exp_decay_lr,
    piecewise_constant_lr,
    polynomial_decay_lr,
    warmup_lr,
)

__all__ = ["piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr", "inverse_decay_lr",
           "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr"]
