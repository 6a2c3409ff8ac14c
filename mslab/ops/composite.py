"""``mindspore.ops.composite`` (imported as ``C``): GradOperation, HyperMap, Map, MultitypeFuncGraph, partial,
clip_by_value, clip_by_global_norm, normal, uniform."""
from mslab.autodiff.grad_operation import GradOperation
from mslab.core import missing_names as _missing_names
from mslab.ops.composite_ops import HyperMap, Map, MultitypeFuncGraph, partial
from mslab.ops.math_ops import clip_by_value
from mslab.ops.normalize_ops import clip_by_global_norm
from mslab.ops.random_ops import normal, uniform

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

__all__ = ["GradOperation", "HyperMap", "Map", "MultitypeFuncGraph", "partial", "clip_by_value", "clip_by_global_norm",
           "normal", "uniform"]
