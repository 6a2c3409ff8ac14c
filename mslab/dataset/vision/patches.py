"""Cutting images into pieces, as ``mindspore.dataset.vision``: Crop, SlicePatches, CutOut, RandomResize.

Each works on a numpy image (height x width [x channels]); the pieces and their order are MindSpore
2.10's (observed on CPU). CutOut and RandomResize draw with mslab's generator, not MindSpore's.
"""
import math
from enum import IntEnum

import numpy as np

from mslab.dataset.vision.pil_transforms import RandomTransform, _pad, _size
from mslab.dataset.vision.transforms import ImageTransform, Resize, _check_image
from mslab.dataset.vision.utils import Inter

__all__ = ["SliceMode", "Crop", "SlicePatches", "CutOut", "RandomResize"]


class SliceMode(IntEnum):
    """What SlicePatches does with an image that does not split evenly: PAD it, or DROP the rest."""

    PAD = 0
    DROP = 1


class Crop(ImageTransform):
    """The (height, width) piece whose top-left pixel is ``coordinates`` = (top, left)."""

    def __init__(self, coordinates, size):
        self.coordinates = tuple(int(c) for c in coordinates)
        if len(self.coordinates) != 2 or min(self.coordinates) < 0:
            raise ValueError(f"Crop: coordinates must be (top, left) with both >= 0, got {coordinates}")
        self.size = _size(size, "Crop")

    def apply(self, img):
        _check_image("Crop", img)
        (top, left), (h, w) = self.coordinates, self.size
        for what, end, limit in (("height", top + h, img.shape[0]), ("width", left + w, img.shape[1])):
            if end > limit:  # MindSpore's message
                raise RuntimeError(f"Crop: Crop {what} dimension: {end} exceeds image {what}: {limit}")
        return img[top:top + h, left:left + w]


class SlicePatches(ImageTransform):
    """Cut the image into ``num_height`` x ``num_width`` equal patches, in row-major order (a tuple of arrays).

    With ``SliceMode.PAD`` each patch is ceil(H / num_height) x ceil(W / num_width) and the image is padded
    at the bottom and right with ``fill_value``; with ``SliceMode.DROP`` the patches are floor-sized and
    the remaining rows and columns are dropped. One patch (1 x 1) is returned as the image itself.
    """

    def __init__(self, num_height=1, num_width=1, slice_mode=SliceMode.PAD, fill_value=0):
        if min(num_height, num_width) < 1:
            raise ValueError(f"SlicePatches: num_height and num_width must be >= 1, got {num_height}, {num_width}")
        self.num_height, self.num_width = int(num_height), int(num_width)
        self.slice_mode, self.fill_value = SliceMode(slice_mode), fill_value

    def apply(self, img):
        _check_image("SlicePatches", img)
        (h, w), nh, nw = img.shape[:2], self.num_height, self.num_width
        if self.slice_mode == SliceMode.PAD:
            ph, pw = math.ceil(h / nh), math.ceil(w / nw)
            img = _pad(img, 0, ph * nh - h, 0, pw * nw - w, self.fill_value)
        else:
            ph, pw = h // nh, w // nw
        patches = tuple(img[i * ph:(i + 1) * ph, j * pw:(j + 1) * pw] for i in range(nh) for j in range(nw))
        return patches[0] if len(patches) == 1 else patches


class CutOut(RandomTransform):
    """Zero ``num_patches`` squares of ``length`` x ``length`` pixels, each at a random place inside the image.

    The squares may overlap. ``is_hwc=False`` for a (channels, height, width) image.
    """

    def __init__(self, length, num_patches=1, is_hwc=True):
        if length < 1 or num_patches < 1:
            raise ValueError(f"CutOut: length and num_patches must be >= 1, got {length}, {num_patches}")
        self.length, self.num_patches, self.is_hwc = int(length), int(num_patches), bool(is_hwc)

    def apply(self, img):
        _check_image("CutOut", img)
        out = img.copy() if self.is_hwc else img.transpose(1, 2, 0).copy()
        h, w = out.shape[:2]
        side_h, side_w = min(self.length, h), min(self.length, w)
        for _ in range(self.num_patches):
            top, left = self.rng.integers(0, h - side_h + 1), self.rng.integers(0, w - side_w + 1)
            out[top:top + side_h, left:left + side_w] = 0
        return out if self.is_hwc else np.ascontiguousarray(out.transpose(2, 0, 1))


class RandomResize(RandomTransform):
    """Resize as ``Resize(size)`` does, with an interpolation chosen at random for each image.

    MindSpore picks among its OpenCV modes; mslab picks between ``Inter.NEAREST`` and ``Inter.BILINEAR``
    (the two its ``resize`` computes), so the shapes are MindSpore's and the pixels one of two ways.
    """

    def __init__(self, size):
        self.size = Resize(size).size  # checked as Resize checks it

    def apply(self, img):
        return Resize(self.size, (Inter.NEAREST, Inter.LINEAR)[int(self.rng.integers(2))]).apply(img)
