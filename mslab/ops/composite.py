"""``mindspore.ops.composite`` (imported as ``C``): GradOperation, HyperMap, Map, MultitypeFuncGraph, partial."""
from mslab.autodiff.grad_operation import GradOperation
from mslab.ops.composite_ops import HyperMap, Map, MultitypeFuncGraph, partial

__all__ = ["GradOperation", "HyperMap", "Map", "MultitypeFuncGraph", "partial"]
