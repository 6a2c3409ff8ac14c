"""General transforms, as ``mindspore.dataset.transforms`` (2.x); the 1.x paths
``transforms.c_transforms`` and ``transforms.py_transforms`` offer the same classes."""
from mslab.dataset.transforms import c_transforms, py_transforms, transforms
from mslab.dataset.transforms.transforms import Compose, OneHot, TypeCast

__all__ = ["TypeCast", "OneHot", "Compose"]
