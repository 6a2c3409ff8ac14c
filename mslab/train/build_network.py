"""``amp.build_train_network(network, optimizer, loss_fn, level)``: a training step at an amp level.

As MindSpore 2.10 builds it (its source and the numbers observed on CPU):

* ``O0``/``O1``: ``auto_mixed_precision(network, level)``, then ``nn.WithLossCell`` and ``TrainOneStepCell``;
* ``O2``: the network computes in float16 (``to_float``) except BatchNorm, which stays float32; ``O3``:
  everything float16. The loss Cell casts the network output and the label to float32 first.
* loss scaling: ``O2`` defaults to ``DynamicLossScaleManager``, which MindSpore refuses on CPU
  (ValueError, kept here); pass ``loss_scale_manager=None`` or ``FixedLossScaleManager(...,
  drop_overflow_update=False)``, whose scale becomes the step's ``sens``: the optimizer must divide it
  out (its own ``loss_scale``), or the weights take steps ``scale`` times too large (observed: inf after
  three steps with a scale of 128).
"""
from mslab.core import dtype as mstype
from mslab.nn import layer as _layer
from mslab.nn.cell import Cell
from mslab.nn.optim.optimizer import Optimizer
from mslab.nn.wrap.cell_wrapper import TrainOneStepCell, WithLossCell
from mslab.ops import functional as F
from mslab.train.amp import auto_mixed_precision

__all__ = ["build_train_network"]

_LEVELS = ["O0", "O1", "O2", "O3", "auto"]
# level -> (keep_batchnorm_fp32, cast_model_type, default loss scale is dynamic)
_CONFIG = {"O0": (False, mstype.float32, False), "O1": (False, mstype.float32, False),
           "O2": (True, mstype.float16, True), "O3": (False, mstype.float16, False),
           "auto": (False, mstype.float32, False)}
_BATCH_NORMS = tuple(vars(_layer)[n] for n in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d") if n in vars(_layer))


class _Float32LossCell(Cell):
    """The loss of a float16 network, computed in float32 (MindSpore's amp ``WithLossCell``)."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone, self._loss_fn = backbone, loss_fn

    def construct(self, data, label):
        out = self._backbone(data)
        return self._loss_fn(F.cast(out, mstype.float32), F.cast(label, mstype.float32))


def build_train_network(network, optimizer, loss_fn=None, level="O0", boost_level="O0", **kwargs):
    """``TrainOneStepCell`` over ``network`` (+ ``loss_fn``) at amp ``level``; see the module docstring."""
    if not isinstance(optimizer, Optimizer):
        raise TypeError("The type of 'optimizer' should be one of '['Optimizer', 'FreezeOpt', 'AdaSumByGradWrapCell', "
                        f"'AdaSumByDeltaWeightWrapCell']', but got type '{type(optimizer).__name__}'.")
    if not isinstance(level, str):
        raise TypeError(f"The argument `level` must be a string in ['O0', 'O1', 'O2', 'O3', 'auto'],"
                        f"but got type {type(level)}.")
    if level not in _LEVELS:
        raise ValueError(f"The 'level' should be in : {_LEVELS}, but got {level}.")
    if boost_level not in ("O0", "O1", "O2"):
        raise ValueError(f"The 'boost_level' should be in : ['O0', 'O1', 'O2'], but got {boost_level}.")
    for arg in kwargs:
        if arg not in ("cast_model_type", "keep_batchnorm_fp32", "loss_scale_manager"):
            raise ValueError(f"Unsupported arg '{arg}'")
    keep_bn, cast_type, dynamic_default = _CONFIG[level]
    keep_bn = kwargs.get("keep_batchnorm_fp32", keep_bn)
    cast_type = kwargs.get("cast_model_type", cast_type)
    if cast_type == mstype.float16:
        network.to_float(mstype.float16)
        if keep_bn:
            for cell in network.cells_and_names():
                if isinstance(cell[1], _BATCH_NORMS):
                    cell[1].to_float(mstype.float32)
    elif level in ("O0", "O1"):
        network = auto_mixed_precision(network, level)
    if loss_fn:
        network = _Float32LossCell(network, loss_fn) if cast_type == mstype.float16 else WithLossCell(network, loss_fn)
    if "loss_scale_manager" in kwargs:
        manager = kwargs["loss_scale_manager"]
    else:
        manager = "dynamic" if dynamic_default else None
    if manager == "dynamic" or (manager is not None and manager.get_update_cell() is not None):
        # MindSpore's TrainOneStepWithLossScaleCell needs control flow its CPU backend lacks (observed)
        raise ValueError("Only `loss_scale_manager=None` or "
                         "`loss_scale_manager=FixedLossScaleManager(drop_overflow_update=False)`"
                         "are supported on device `CPU`. ")
    sens = 1.0 if manager is None else manager.get_loss_scale()
    return TrainOneStepCell(network, optimizer, sens).set_train()
