"""General transforms, as ``mindspore.dataset.transforms`` (2.x); the 1.x paths
``transforms.c_transforms`` and ``transforms.py_transforms`` offer the same classes."""
from mslab.core import missing_names as _missing_names
from mslab.dataset.transforms import c_transforms, py_transforms, transforms
from mslab.dataset.transforms.tensor_ops import Duplicate, Fill, PadEnd
from mslab.dataset.transforms.transforms import (
    Compose,
    OneHot,
    PyTensorOperation,
    RandomApply,
    RandomChoice,
    RandomSelectSubpolicy,
    TensorOperation,
    TypeCast,
)

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

__all__ = ["TypeCast", "OneHot", "Compose", "RandomApply", "RandomChoice", "TensorOperation", "PyTensorOperation",
           "Duplicate", "Fill", "PadEnd"]
