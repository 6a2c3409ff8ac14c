"""``mindspore.ops.composite`` (imported as ``C``): GradOperation, HyperMap, Map, MultitypeFuncGraph, partial,
clip_by_value, clip_by_global_norm, normal, uniform, ones_like."""
from mslab.autodiff.grad_operation import GradOperation
from mslab.core import missing_names as _missing_names
from mslab.core.tensor import Tensor
from mslab.ops.array_ops import ones_like as _ones_like
from mslab.ops.composite_ops import HyperMap, Map, MultitypeFuncGraph, partial
from mslab.ops.math_ops import clip_by_value
from mslab.ops.normalize_ops import clip_by_global_norm
from mslab.ops.random_ops import normal, uniform

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

__all__ = ["GradOperation", "HyperMap", "Map", "MultitypeFuncGraph", "partial", "clip_by_value", "clip_by_global_norm",
           "normal", "uniform", "ones_like"]


def ones_like(x):
    """Ones shaped and typed like ``x``, mapped over tuples and lists (``C.ones_like``, a HyperMap in MindSpore:
    ``C.ones_like((a, b))`` is ``(ones_like(a), ones_like(b))``)."""
    if isinstance(x, (tuple, list)):
        return type(x)(ones_like(v) for v in x)
    if not isinstance(x, Tensor):
        raise TypeError(f"C.ones_like: expected a Tensor or a tuple of Tensors, got {type(x).__name__}")
    return _ones_like(x)
