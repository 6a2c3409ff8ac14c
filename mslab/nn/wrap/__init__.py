"""Training and evaluation wrappers, as ``mindspore.nn.wrap``."""
from mslab.core import missing_names as _missing_names
from mslab.nn.wrap.cell_wrapper import TrainOneStepCell, WithEvalCell, WithGradCell, WithLossCell
from mslab.nn.wrap.grad_reducer import DistributedGradReducer
from mslab.nn.wrap.loss_scale import (
    DynamicLossScaleUpdateCell,
    FixedLossScaleUpdateCell,
    TrainOneStepWithLossScaleCell,
)
from mslab.nn.wrap.micro_batch import MicroBatchInterleaved, PipelineCell

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
