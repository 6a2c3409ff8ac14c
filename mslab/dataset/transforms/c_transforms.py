"""The 1.x path ``mindspore.dataset.transforms.c_transforms`` (seed train.md imports it as CT)."""
from mslab.dataset.transforms.transforms import Compose, OneHot, TypeCast  # noqa: F401
