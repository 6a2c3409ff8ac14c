"""The 1.x path ``mindspore.dataset.vision.c_transforms`` (MindSpore 1.x's training guide imports it as CV)."""
from mslab.dataset.transforms.transforms import RandomSelectSubpolicy  # noqa: F401
from mslab.dataset.vision.filters import GaussianBlur  # noqa: F401
from mslab.dataset.vision.geometry import *  # noqa: F403 - Pad, RandomRotation, RandomAffine
from mslab.dataset.vision.patches import *  # noqa: F403 - Crop, SlicePatches, CutOut, RandomResize
from mslab.dataset.vision.pil_transforms import *  # noqa: F403 - Decode, crops, flips, RandomColorAdjust
from mslab.dataset.vision.tone import *  # noqa: F403 - Invert, Equalize, AutoContrast, RandomColor, ...
from mslab.dataset.vision.transforms import HWC2CHW, Normalize, Rescale, Resize, ToTensor  # noqa: F401
from mslab.dataset.vision.utils import Border, Inter  # noqa: F401
