"""Tone and colour transforms of uint8 images, as ``mindspore.dataset.vision``.

Invert, Equalize, AutoContrast, Posterize/RandomPosterize, Solarize/RandomSolarize, RandomColor,
RandomSharpness, Grayscale and RandomErasing. Each computes what MindSpore 2.10's CPU kernel computes
(OpenCV's ``equalizeHist``, its grey levels, float32 blends, ...); the pixels below each docstring's
formula agree with MindSpore bit for bit on the test images (observed). Random draws are mslab's own.
"""
import numbers

import numpy as np

from mslab.dataset.vision.pil_transforms import RandomTransform
from mslab.dataset.vision.transforms import ImageTransform, _check_image


def _per_channel(fn, img):
    return fn(img) if img.ndim == 2 else np.stack([fn(img[..., c]) for c in range(img.shape[2])], -1)


def _uint8(name, img):
    _check_image(name, img)
    if img.dtype != np.uint8:
        raise TypeError(f"{name}: expects a uint8 image (decoded, before Rescale), got {img.dtype}")


def _range(value, what, lo, hi):
    """A pair (min, max) within [lo, hi] (a single number n means (n, n))."""
    pair = (value, value) if isinstance(value, numbers.Number) else tuple(value)
    if len(pair) != 2 or pair[0] > pair[1] or pair[0] < lo or pair[1] > hi:
        raise ValueError(f"{what} must be (min, max) with {lo} <= min <= max <= {hi}, got {value}")
    return pair


class Invert(ImageTransform):
    """``255 - image`` for each channel of an RGB image (uint8 or float)."""

    def apply_pil(self, img):
        from PIL import ImageOps

        return ImageOps.invert(img)  # MindSpore's Pillow version

    def apply(self, img):
        if img.ndim != 3 or img.shape[2] != 3:
            raise RuntimeError(f"Invert: input tensor is not in shape of <H,W,C> with 3 channels, got {img.shape}")
        return (np.asarray(255, img.dtype) - img).astype(img.dtype)


def _equalize(ch):
    """``cv2.equalizeHist``: the levels' cumulative histogram, from the first level present, scaled to 0..255."""
    hist = np.bincount(ch.ravel(), minlength=256)
    first = int(np.flatnonzero(hist)[0])
    if hist[first] == ch.size:
        return ch.copy()
    scale = np.float32(255.0 / (ch.size - hist[first]))
    lut = np.clip(np.rint((np.cumsum(hist) - hist[first]) * scale), 0, 255)
    lut[:first + 1] = 0
    return lut.astype(np.uint8)[ch]


class Equalize(ImageTransform):
    """Equalize each channel's histogram, as ``cv2.equalizeHist``."""

    def apply_pil(self, img):
        from PIL import ImageOps

        return ImageOps.equalize(img)  # MindSpore's Pillow version

    def apply(self, img):
        _uint8("Equalize", img)
        return _per_channel(_equalize, img)


def _autocontrast(ch, cutoff, ignore):
    hist = np.bincount(ch.ravel(), minlength=256).astype(np.int64)
    hist[list(ignore)] = 0
    cut = int(hist.sum() * cutoff / 100)
    for levels in (range(256), range(255, -1, -1)):  # take ``cut`` pixels off each end of the histogram
        left = cut
        for k in levels:
            if left <= 0:
                break
            take = min(hist[k], left)
            hist[k] -= take
            left -= take
    present = np.flatnonzero(hist)
    if len(present) == 0 or present[-1] <= present[0]:
        return ch.copy()
    lo, hi = present[0], present[-1]
    scale = np.float32(255.0 / (hi - lo))
    lut = (np.arange(256, dtype=np.float32) * scale + np.float32(-lo * scale)).astype(np.int32)  # truncates
    return np.clip(lut, 0, 255).astype(np.uint8)[ch]


class AutoContrast(ImageTransform):
    """Stretch each channel so its darkest level becomes 0 and its brightest 255.

    ``cutoff`` (percent) first drops that share of the pixels from each end of the histogram;
    ``ignore`` lists levels to leave out. The map is ``int(v * 255 / (hi - lo) - lo * 255 / (hi - lo))``
    in float32, clipped.
    """

    def __init__(self, cutoff=0.0, ignore=None):
        if not 0 <= cutoff < 50:
            raise ValueError(f"AutoContrast: cutoff must be in [0, 50), got {cutoff}")
        self.cutoff = float(cutoff)
        self.ignore = [] if ignore is None else [ignore] if isinstance(ignore, int) else list(ignore)

    def apply_pil(self, img):
        from PIL import ImageOps

        return ImageOps.autocontrast(img, self.cutoff, self.ignore)  # MindSpore's Pillow version

    def apply(self, img):
        _uint8("AutoContrast", img)
        return _per_channel(lambda ch: _autocontrast(ch, self.cutoff, self.ignore), img)


class RandomPosterize(RandomTransform):
    """Keep only the top ``bits`` bits of each pixel, ``bits`` drawn from (min, max) in [1, 8]."""

    def __init__(self, bits=(8, 8)):
        self.bits = _range(bits, "RandomPosterize: bits", 1, 8)

    def apply(self, img):
        _uint8("RandomPosterize", img)
        bits = int(self.rng.integers(self.bits[0], self.bits[1] + 1))
        return img & np.uint8((0xFF << (8 - bits)) & 0xFF)


class RandomSolarize(RandomTransform):
    """Invert (``255 - v``) the pixels whose level lies in [lo, hi], a range drawn within ``threshold``.

    As MindSpore's Solarize, a range of one level t (lo == hi) inverts every level from t up.
    """

    def __init__(self, threshold=(0, 255)):
        self.threshold = _range(threshold, "RandomSolarize: threshold", 0, 255)

    def apply(self, img):
        _uint8("RandomSolarize", img)
        lo, hi = sorted(int(self.rng.integers(self.threshold[0], self.threshold[1] + 1)) for _ in range(2))
        hi = 255 if lo == hi else hi
        return np.where((img >= lo) & (img <= hi), 255 - img, img).astype(np.uint8)


def _blend(img, other, factor):
    """``img * factor + other * (1 - factor)`` in float32, rounded and clipped (OpenCV's addWeighted)."""
    f = np.float32(factor)
    out = img.astype(np.float32) * f + other.astype(np.float32) * (np.float32(1) - f)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


class RandomColor(RandomTransform):
    """Blend an RGB image with its grey version by a factor drawn from ``degrees`` (0: grey, 1: unchanged).

    The grey level is OpenCV's ``(4899 R + 9617 G + 1868 B + 8192) >> 14``.
    """

    keeps_pil = True

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _range(degrees, "RandomColor: degrees", 0, float("inf"))

    def apply(self, img):
        _uint8("RandomColor", img)
        if img.ndim != 3 or img.shape[2] != 3:
            raise RuntimeError(f"RandomColor: the image must be RGB (height, width, 3), got shape {img.shape}")
        x = img.astype(np.int64)
        grey = (x[..., 0] * 4899 + x[..., 1] * 9617 + x[..., 2] * 1868 + (1 << 13)) >> 14
        return _blend(img, grey[..., None], self.rng.uniform(*self.degrees))


class RandomSharpness(RandomTransform):
    """Blend the image with a smoothed copy by a factor drawn from ``degrees`` (0: smooth, 1: unchanged, >1: sharper).

    The smoothed copy is the 3x3 filter [[1, 1, 1], [1, 5, 1], [1, 1, 1]] / 13, rounded, with the border
    pixels kept as they are.
    """

    keeps_pil = True

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _range(degrees, "RandomSharpness: degrees", 0, float("inf"))

    def apply(self, img):
        _uint8("RandomSharpness", img)
        x = img.astype(np.float64)
        h, w = img.shape[:2]
        smooth = x.copy()
        if h > 2 and w > 2:
            near = sum(x[i:h - 2 + i, j:w - 2 + j] for i in range(3) for j in range(3))
            smooth[1:-1, 1:-1] = np.rint((near + 4 * x[1:-1, 1:-1]) / 13)
        factor = self.rng.uniform(*self.degrees)
        return np.clip(np.rint(smooth * (1 - factor) + x * factor), 0, 255).astype(np.uint8)


class Grayscale(ImageTransform):
    """A Pillow image in grey (mode "L"), or with ``num_output_channels=3`` the grey copied to RGB.

    As in MindSpore, this is a Python (Pillow) transform: it takes and returns Pillow images (use
    ``ToPIL()`` first for a numpy image). The grey level is Pillow's ``(299 R + 587 G + 114 B) / 1000``.
    """

    python_only = True

    def __init__(self, num_output_channels=1):
        if num_output_channels not in (1, 3):  # MindSpore's message
            raise ValueError(f"Number of channels of the output grayscale imageshould be either 1 or 3. "
                             f"Got {num_output_channels}.")
        self.num_output_channels = num_output_channels

    def __call__(self, img):
        if not hasattr(img, "convert"):  # MindSpore's message
            raise TypeError(f"img should be PIL image. Got {type(img)}. Use Decode() for encoded data or ToPIL() "
                            f"for decoded data.")
        grey = img.convert("L")
        return grey.convert("RGB") if self.num_output_channels == 3 else grey


class RandomErasing(RandomTransform):
    """With probability ``prob``, erase a random rectangle of a (channels, height, width) image.

    The rectangle's area is a share of the image drawn from ``scale`` and its aspect ratio (height / width)
    from ``ratio``; up to ``max_attempts`` draws look for one that fits. ``value`` fills it: a number,
    one per channel, or "random" (normal noise). Use it after ``ToTensor`` or ``HWC2CHW``.
    """

    python_only = True

    def apply_pil(self, img):  # MindSpore's message: RandomErasing takes arrays only
        raise TypeError(f"img should be NumPy array. Got {type(img)}.")

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False, max_attempts=10):
        if not 0 <= prob <= 1:
            raise ValueError("Input prob is not within the required interval of [0, 1].")  # MindSpore's message
        self.prob, self.scale, self.ratio, self.value = prob, tuple(scale), tuple(ratio), value
        self.inplace, self.max_attempts = inplace, max_attempts

    def _box(self, h, w):
        area = h * w
        log_ratio = np.log(self.ratio)
        for _ in range(self.max_attempts):
            target = area * self.rng.uniform(*self.scale)
            aspect = np.exp(self.rng.uniform(*log_ratio))
            eh, ew = int(round(np.sqrt(target * aspect))), int(round(np.sqrt(target / aspect)))
            if 0 < eh < h and 0 < ew < w:
                return int(self.rng.integers(0, h - eh + 1)), int(self.rng.integers(0, w - ew + 1)), eh, ew
        return None

    def apply(self, img):
        if img.ndim != 3:
            raise RuntimeError(f"RandomErasing: expects a (channels, height, width) image, got shape {img.shape}")
        if self.rng.random() >= self.prob:
            return img
        box = self._box(*img.shape[1:])
        if box is None:
            return img
        top, left, eh, ew = box
        out = img if self.inplace else img.copy()
        if isinstance(self.value, str):
            fill = self.rng.standard_normal((img.shape[0], eh, ew))
        else:
            fill = np.asarray(self.value, np.float64).reshape(-1, 1, 1)
        out[:, top:top + eh, left:left + ew] = fill
        return out


__all__ = ["Invert", "Equalize", "AutoContrast", "RandomPosterize", "RandomSolarize", "RandomColor",
           "RandomSharpness", "Grayscale", "RandomErasing"]
