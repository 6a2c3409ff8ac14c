"""Training and evaluation wrappers, as ``mindspore.nn.wrap``."""
from mslab.nn.wrap.cell_wrapper import TrainOneStepCell, WithEvalCell, WithGradCell, WithLossCell
from mslab.nn.wrap.grad_reducer import DistributedGradReducer
from mslab.nn.wrap.loss_scale import (
    DynamicLossScaleUpdateCell,
    FixedLossScaleUpdateCell,
    TrainOneStepWithLossScaleCell,
)
