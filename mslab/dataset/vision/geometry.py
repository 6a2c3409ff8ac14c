"""Padding, rotation and affine transforms, as ``mindspore.dataset.vision``: Pad, RandomRotation, RandomAffine.

Rotation and affine maps are computed as MindSpore computes them and applied with OpenCV's
fixed-point arithmetic (:mod:`mslab.dataset.vision.warp`), so for the same angle, shift, scale and
shear the pixels are MindSpore's own (observed on MindSpore 2.10 CPU). The random draws of the angle
and the rest are not MindSpore's (its C++ generator): give a range of one value, such as
``degrees=(30, 30)``, for a fixed transform.
"""
import math
import numbers

import numpy as np

from mslab.dataset.vision.pil_transforms import RandomTransform, _pad
from mslab.dataset.vision.transforms import ImageTransform
from mslab.dataset.vision.utils import Border, Inter
from mslab.dataset.vision.warp import rotated_bounds, rotation_matrix, warp_affine

__all__ = ["Pad", "RandomRotation", "RandomAffine"]


def _fill(fill_value, what):
    if isinstance(fill_value, numbers.Number):
        return fill_value
    fill = tuple(fill_value)
    if len(fill) != 3:
        raise TypeError(f"{what}: fill_value must be an int or a tuple of 3 ints (one per channel), got {fill_value}")
    return np.asarray(fill)


def _channel_fill(fill, img, reverse=False):
    """The fill of each channel of ``img``, as OpenCV's 4-value Scalar (r, g, b, 0) gives it: a grey image takes the
    first value, a 4th channel 0. ``reverse``: (b, g, r, 0), as MindSpore's Rotate passes it (observed on MindSpore
    2.10: RandomRotation(fill_value=(5, 6, 7)) fills RGB pixels with [7, 6, 5], RandomAffine with [5, 6, 7])."""
    if np.ndim(fill) == 0:
        return fill
    scalar = np.concatenate([fill[::-1] if reverse else fill, [0]])
    return scalar[0] if img.ndim == 2 else np.resize(scalar, img.shape[2])


def _check(name, img):
    if img.ndim not in (2, 3):
        raise RuntimeError(f"{name}: input tensor is not in shape of <H,W> or <H,W,C>, got shape {img.shape}")


class Pad(ImageTransform):
    """Pad the image: ``padding`` is an int (all sides), (left/right, top/bottom) or (left, top, right, bottom).

    ``padding_mode`` is a :class:`Border`; with ``Border.CONSTANT`` the border is ``fill_value`` (an int
    or one value per channel).
    """

    def __init__(self, padding, fill_value=0, padding_mode=Border.CONSTANT):
        p = (padding,) * 4 if isinstance(padding, numbers.Integral) else tuple(padding)
        p = p * 2 if len(p) == 2 else p
        if len(p) != 4 or min(p) < 0:
            raise ValueError(f"Pad: padding must be an int or a sequence of 2 or 4 ints >= 0, got {padding}")
        self.padding, self.fill_value, self.padding_mode = p, _fill(fill_value, "Pad"), Border(padding_mode)

    def apply_pil(self, img):
        """MindSpore's Pillow padding (``py_transforms_util.pad``): ``ImageOps.expand`` for a constant border,
        numpy's modes otherwise."""
        from PIL import Image, ImageOps

        left, top, right, bottom = self.padding
        if self.padding_mode == Border.CONSTANT:
            fill = self.fill_value if np.ndim(self.fill_value) == 0 else tuple(int(v) for v in self.fill_value)
            if isinstance(fill, tuple) and img.mode in ("L", "1"):
                fill = (fill[0],)
            return ImageOps.expand(img, border=(left, top, right, bottom), fill=fill)
        arr = np.asarray(img)
        widths = ((top, bottom), (left, right)) + ((0, 0),) * (arr.ndim - 2)
        return Image.fromarray(np.pad(arr, widths, mode=self.padding_mode.value))

    def apply(self, img):
        _check("Pad", img)
        left, top, right, bottom = self.padding
        if self.padding_mode == Border.CONSTANT:
            return _pad(img, top, bottom, left, right, _channel_fill(self.fill_value, img))
        widths = ((top, bottom), (left, right)) + ((0, 0),) * (img.ndim - 2)
        return np.pad(img, widths, mode=self.padding_mode.value)


def _range(value, what):
    """A number d gives (-d, d); a pair (min, max) is checked (MindSpore's messages)."""
    if isinstance(value, numbers.Number):
        if not 0 <= value <= 16777216:
            raise ValueError(f"Input {what} is not within the required interval of [0, 16777216].")
        return -float(value), float(value)
    lo, hi = (float(v) for v in value)
    if lo > hi:
        raise ValueError(f"{what} should be in (min,max) format. Got (max,min).")
    return lo, hi


def _draw(rng, lo_hi):
    lo, hi = lo_hi
    return lo if lo == hi else float(rng.uniform(lo, hi))


class RandomRotation(RandomTransform):
    """Turn the image by an angle drawn from ``degrees`` (counter-clockwise for positive angles).

    ``degrees`` is d (meaning [-d, d]) or (min, max). The turn is about ``center`` = (x, y), by default
    the image centre ((width - 1) / 2, (height - 1) / 2); ``expand=True`` enlarges the output to hold
    the whole turned image. New pixels are ``fill_value``. ``resample`` is ``Inter.NEAREST`` (the
    default) or ``Inter.BILINEAR``.
    """

    keeps_pil = True

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        self.degrees = _range(degrees, "degrees")
        self.resample, self.expand, self.center = Inter(resample), bool(expand), center
        self.fill_value = _fill(fill_value, "RandomRotation")

    def apply(self, img):
        _check("Rotate", img)
        h, w = img.shape[:2]
        angle = _draw(self.rng, self.degrees)
        cx, cy = ((w - 1) / 2, (h - 1) / 2) if self.center is None else self.center
        m = rotation_matrix(cx, cy, angle)
        if self.expand:  # MindSpore moves the turned image to the middle of its bounding box
            bw, bh = rotated_bounds(cx, cy, w, h, angle)
            m[0, 2] += bw / 2 - w / 2
            m[1, 2] += bh / 2 - h / 2
            h, w = int(np.rint(bh)), int(np.rint(bw))
        return warp_affine(img, m, h, w, self.resample, _channel_fill(self.fill_value, img, reverse=True))


def affine_matrix(height, width, degrees, translate, scale, shear):
    """MindSpore's affine map (in float32): rotate, scale and shear about the image centre, then shift.

    With a = ``degrees``, sx, sy the shears (radians, sy negated) and s the scale, the linear part is
    ``[[s cos(a + sy) / cos(sy), s (-cos(a + sy) tan(sx) / cos(sy) - sin(a))], [s sin(a + sy) / cos(sy),
    s (-sin(a + sy) tan(sx) / cos(sy) + cos(a))]]``; the shift keeps the centre ((w-1)/2, (h-1)/2) in
    place, then moves the image by ``translate`` pixels.
    """
    a, sx, sy = math.radians(degrees), math.radians(shear[0]), math.radians(-shear[1])
    m = np.float32([scale * math.cos(a + sy) / math.cos(sy),
                    scale * (-math.cos(a + sy) * math.tan(sx) / math.cos(sy) - math.sin(a)), 0,
                    scale * math.sin(a + sy) / math.cos(sy),
                    scale * (-math.sin(a + sy) * math.tan(sx) / math.cos(sy) + math.cos(a)), 0])
    cx, cy = np.float32((width - 1) / 2), np.float32((height - 1) / 2)
    m[2] = (1 - m[0]) * cx - m[1] * cy + translate[0]
    m[5] = (1 - m[4]) * cy - m[3] * cx + translate[1]
    return m.astype(np.float64).reshape(2, 3)


def _pairs(value, what, lengths):
    value = tuple(float(v) for v in value)
    if len(value) not in lengths:
        raise TypeError(f"{what} should be a list or tuple of length {' or '.join(map(str, lengths))}.")
    return value


class RandomAffine(RandomTransform):
    """A random affine transform about the image centre: rotation, shift, scale and shear.

    ``degrees``: d ([-d, d]) or (min, max). ``translate``: fractions of the size, (x_min, x_max) or
    (x_min, x_max, y_min, y_max). ``scale``: (min, max). ``shear``: s (x shear in [-s, s]), (x_min, x_max)
    or (x_min, x_max, y_min, y_max), in degrees. New pixels are ``fill_value``; ``resample`` is
    ``Inter.NEAREST`` (the default) or ``Inter.BILINEAR``.
    """

    keeps_pil = True

    def __init__(self, degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST, fill_value=0):
        self.degrees = _range(degrees, "degrees")
        t = (0, 0, 0, 0) if translate is None else _pairs(translate, "translate", (2, 4))
        self.translate = t + (0, 0) if len(t) == 2 else t
        self.scale = (1.0, 1.0) if scale is None else _pairs(scale, "scale", (2,))
        if isinstance(shear, numbers.Number):
            shear = _range(shear, "shear")
        s = (0, 0, 0, 0) if shear is None else _pairs(shear, "shear", (2, 4))
        self.shear = s + (0, 0) if len(s) == 2 else s
        self.resample, self.fill_value = Inter(resample), _fill(fill_value, "RandomAffine")

    def apply(self, img):
        _check("Affine", img)
        h, w = img.shape[:2]
        t, sh, r = self.translate, self.shear, self.rng
        m = affine_matrix(h, w, _draw(r, self.degrees), (_draw(r, t[:2]) * w, _draw(r, t[2:]) * h),
                          _draw(r, self.scale), (_draw(r, sh[:2]), _draw(r, sh[2:])))
        return warp_affine(img, m, h, w, self.resample, _channel_fill(self.fill_value, img))
