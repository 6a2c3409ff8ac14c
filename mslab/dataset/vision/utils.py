"""Vision enums, as ``mindspore.dataset.vision.utils``: ``Inter`` (interpolation modes), ``Border`` (padding)."""
from enum import Enum, IntEnum


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


class Border(str, Enum):
    """How ``Pad`` fills the new border: a constant, the edge pixel, or a mirror image of the inside.

    Padding ``1 2 3`` by two on the left: REFLECT gives ``3 2 1 2 3`` (mirrored about the edge pixel,
    numpy's "reflect"), SYMMETRIC ``2 1 1 2 3`` (the edge pixel repeated, numpy's "symmetric"), as
    MindSpore 2.10 pads (observed).
    """

    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"
