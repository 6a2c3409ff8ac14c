"""Vision enums, as ``mindspore.dataset.vision.utils``: ``Inter`` (interpolation modes)."""
from enum import IntEnum


class Inter(IntEnum):
    """Interpolation mode for Resize. mslab implements NEAREST and LINEAR (= BILINEAR)."""

    NEAREST = 0
    ANTIALIAS = 1
    LINEAR = 2
    BILINEAR = 2
    CUBIC = 3
    BICUBIC = 3
    AREA = 4
    PILCUBIC = 5
