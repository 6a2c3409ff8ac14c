"""The 1.x path ``mindspore.dataset.transforms.py_transforms``."""
from mslab.dataset.transforms.transforms import Compose, OneHot, TypeCast  # noqa: F401
