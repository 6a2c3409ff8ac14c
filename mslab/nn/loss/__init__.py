"""Losses, as ``mindspore.nn.loss``."""
from mslab.nn.loss.loss import BCEWithLogitsLoss, L1Loss, LossBase, MSELoss, SoftmaxCrossEntropyWithLogits

__all__ = ["LossBase", "MSELoss", "L1Loss", "SoftmaxCrossEntropyWithLogits", "BCEWithLogitsLoss"]
