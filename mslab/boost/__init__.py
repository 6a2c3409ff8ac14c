"""``mindspore.boost``: MindSpore's training accelerations (gradient accumulation, gradient freezing, LessBN, ...).

mslab has :class:`GradientAccumulation` (and the two rules it maps over the gradients), which model zoos such as
mindcv subclass. The other names of MindSpore 2.10's ``boost`` (AutoBoost, BoostTrainOneStepCell, LessBN, AdaSum,
DimReduce, GradientFreeze, ...) import, and raise the "not implemented yet" error when used.
"""
from mslab.boost.grad_accumulation import GradientAccumulation, gradient_accumulation_op, gradient_clear_op
from mslab.core import missing_names as _missing_names

__all__ = ["GradientAccumulation"]

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
