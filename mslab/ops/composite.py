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
           "normal", "uniform", "ones_like", "add_flags"]


def ones_like(x):
    """Ones shaped and typed like ``x``, mapped over tuples and lists (``C.ones_like``, a HyperMap in MindSpore:
    ``C.ones_like((a, b))`` is ``(ones_like(a), ones_like(b))``)."""
    if isinstance(x, (tuple, list)):
        return type(x)(ones_like(v) for v in x)
    if not isinstance(x, Tensor):
        raise TypeError(f"C.ones_like: expected a Tensor or a tuple of Tensors, got {type(x).__name__}")
    return _ones_like(x)


def add_flags(fn=None, **flags):
    """Attach graph-compiler flags to ``fn`` (``fn._func_graph_flags``, as MindSpore does) and return ``fn``.

    MindSpore's compiler reads flags such as ``defer_inline``; mslab's compiler reads none, so they change
    nothing here. ``add_flags(**flags)`` without ``fn`` is a decorator.
    """
    def mark(f):
        f._func_graph_flags = {**getattr(f, "_func_graph_flags", {}), **flags}  # noqa: SLF001 MindSpore's attribute
        return f

    return mark if fn is None else mark(fn)
