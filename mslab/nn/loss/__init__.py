"""Losses, as ``mindspore.nn.loss``."""
from mslab.core import missing_names as _missing_names
from mslab.nn.loss.loss import BCEWithLogitsLoss, L1Loss, LossBase, MSELoss, SoftmaxCrossEntropyWithLogits

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

__all__ = ["LossBase", "MSELoss", "L1Loss", "SoftmaxCrossEntropyWithLogits", "BCEWithLogitsLoss"]
