"""The 1.x path ``mindspore.dataset.vision.py_transforms``.

As in MindSpore 1.x, ``Normalize`` here works on channels-first images (after ``ToTensor``).
"""
from mslab.dataset.vision import transforms as _t
from mslab.dataset.vision.transforms import HWC2CHW, Rescale, Resize, ToTensor  # noqa: F401
from mslab.dataset.vision.utils import Inter  # noqa: F401


class Normalize(_t.Normalize):
    """``(image - mean) / std`` per channel of a (channels, height, width) image."""

    def __init__(self, mean, std):
        super().__init__(mean, std, is_hwc=False)
