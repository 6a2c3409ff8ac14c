"""``mindspore.ops.composite`` (imported as ``C``): GradOperation, HyperMap, MultitypeFuncGraph, partial."""
from mslab.autodiff.grad_operation import GradOperation

__all__ = ["GradOperation"]

try:  # written alongside; re-export what exists
    from mslab.ops import composite_ops as _composite_ops
except ImportError:  # pragma: no cover
    _composite_ops = None
else:
    for _name in ("HyperMap", "Map", "MultitypeFuncGraph", "partial"):
        if hasattr(_composite_ops, _name):
            globals()[_name] = getattr(_composite_ops, _name)
            __all__.append(_name)
