"""The 1.x path ``mindspore.dataset.transforms.c_transforms`` (MindSpore 1.x's training guide imports it as CT)."""
from mslab.dataset.transforms.transforms import Compose, OneHot, TypeCast  # noqa: F401
