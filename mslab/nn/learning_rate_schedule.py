"""``mindspore.nn.learning_rate_schedule``: the schedule Cells, importable by MindSpore's module path.

They live in ``mslab.nn.optim.learning_rate_schedule`` (with the list functions of ``nn.dynamic_lr``).
"""
from mslab.nn.optim.learning_rate_schedule import (
    CosineDecayLR,
    ExponentialDecayLR,
    InverseDecayLR,
    LearningRateSchedule,
    NaturalExpDecayLR,
    PolynomialDecayLR,
    WarmUpLR,
)

__all__ = ["ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR", "CosineDecayLR", "PolynomialDecayLR",
           "WarmUpLR", "LearningRateSchedule"]
