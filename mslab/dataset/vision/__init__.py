"""Image transforms, as ``mindspore.dataset.vision`` (2.x); the 1.x paths ``vision.c_transforms``
and ``vision.py_transforms`` offer the same classes."""
from mslab.core import missing_names as _missing_names
from mslab.dataset.transforms.transforms import RandomSelectSubpolicy
from mslab.dataset.vision import c_transforms, py_transforms, transforms, utils
from mslab.dataset.vision.filters import GaussianBlur
from mslab.dataset.vision.geometry import Pad, RandomAffine, RandomRotation
from mslab.dataset.vision.patches import Crop, CutOut, RandomResize, SliceMode, SlicePatches
from mslab.dataset.vision.pil_transforms import (
    CenterCrop,
    Decode,
    RandomColorAdjust,
    RandomCrop,
    RandomCropDecodeResize,
    RandomHorizontalFlip,
    RandomResizedCrop,
    RandomVerticalFlip,
    ToPIL,
)
from mslab.dataset.vision.tone import (
    AutoContrast,
    Equalize,
    Grayscale,
    Invert,
    RandomColor,
    RandomErasing,
    RandomPosterize,
    RandomSharpness,
    RandomSolarize,
)
from mslab.dataset.vision.transforms import HWC2CHW, Normalize, Rescale, Resize, ToTensor
from mslab.dataset.vision.utils import Border, Inter

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

__all__ = ["Resize", "Rescale", "Normalize", "HWC2CHW", "ToTensor", "Inter", "Decode", "ToPIL", "CenterCrop",
           "RandomCrop", "RandomHorizontalFlip", "RandomVerticalFlip", "RandomResizedCrop", "RandomCropDecodeResize",
           "RandomColorAdjust", "Border", "Pad", "RandomRotation", "RandomAffine", "Invert", "Equalize", "AutoContrast",
           "RandomPosterize", "RandomSolarize", "RandomColor", "RandomSharpness", "Grayscale", "RandomErasing",
           "RandomSelectSubpolicy", "Crop", "CutOut", "RandomResize", "SlicePatches", "SliceMode",
           "GaussianBlur"]
