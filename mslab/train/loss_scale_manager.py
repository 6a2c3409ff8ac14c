"""The 1.x import path ``mindspore.train.loss_scale_manager``: the managers live in ``mslab.amp``."""
from mslab.amp import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager

__all__ = ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]
