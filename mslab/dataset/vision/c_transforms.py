"""The 1.x path ``mindspore.dataset.vision.c_transforms`` (seed train.md imports it as CV)."""
from mslab.dataset.vision.pil_transforms import *  # noqa: F403 - Decode, crops, flips, RandomColorAdjust
from mslab.dataset.vision.transforms import HWC2CHW, Normalize, Rescale, Resize, ToTensor  # noqa: F401
from mslab.dataset.vision.utils import Inter  # noqa: F401
