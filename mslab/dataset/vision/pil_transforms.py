"""Decoding, cropping, flipping and colour jitter, as ``mindspore.dataset.vision``.

``Decode`` reads JPEG/PNG/BMP/GIF bytes with Pillow (imported on first use, so ``import mslab`` stays
fast). Crops and flips index the numpy array (height x width [x channels]); ``RandomResizedCrop``
resizes with mslab's OpenCV-exact ``resize``. Random transforms draw from a generator seeded from
``mslab.dataset.config`` (so ``mslab.set_seed`` makes them repeat); the draws are not MindSpore's
own, so a random crop picks other pixels than MindSpore would for the same seed.
"""
import io
import math

import numpy as np

from mslab.dataset.file_bytes import source_file
from mslab.dataset.transforms.transforms import RandomOp
from mslab.dataset.vision import color
from mslab.dataset.vision.transforms import ImageTransform, _check_image, resize
from mslab.dataset.vision.utils import Inter

__all__ = ["Decode", "ToPIL", "CenterCrop", "RandomCrop", "RandomHorizontalFlip", "RandomVerticalFlip",
           "RandomResizedCrop", "RandomCropDecodeResize", "RandomColorAdjust"]


def decode_image(data, what="Decode", path=None):
    """RGB uint8 (height, width, 3) from the bytes of an image file (Pillow reads the format).

    ``path``: the file the bytes were read from, named in the error as MindSpore names it.
    """
    from PIL import Image  # optional dependency: only when images are decoded

    try:
        with Image.open(io.BytesIO(bytes(data))) as im:
            return np.asarray(im.convert("RGB"))
    except Exception as e:  # noqa: BLE001 (on damaged bytes Pillow raises OSError, SyntaxError, ValueError,
        # struct.error, DecompressionBombError ... by format: each means "this file cannot be decoded")
        where = "" if path is None else f" The corresponding data file is: {path}."
        raise RuntimeError(f"{what}: cannot decode the image ({len(data)} bytes; is it a JPEG/PNG/BMP file?): "
                           f"{e}.{where}") from e


def _size(size, what):
    size = (size, size) if isinstance(size, (int, np.integer)) else tuple(size)
    if len(size) == 1:
        size = (size[0], size[0])
    if len(size) != 2 or min(size) < 1:
        raise ValueError(f"{what}: size must be an int or (height, width) of positive ints, got {size}")
    return int(size[0]), int(size[1])


class RandomTransform(RandomOp, ImageTransform):
    """An image transform that draws random numbers (see :class:`RandomOp`)."""

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_"))
        return f"{type(self).__name__}({args})"


class Decode(ImageTransform):
    """Image-file bytes -> RGB uint8 (height, width, 3).

    The bytes come as ImageFolderDataset gives them (uint8, 1-D) or as MindDataset gives a ``bytes``
    field (a length-1 ``S`` array). ``to_pil=True`` returns a Pillow image instead.
    """

    def __init__(self, to_pil=False):
        self.to_pil = to_pil
        self.python_only = bool(to_pil)  # MindSpore decodes to Pillow in Python

    def apply(self, img):
        if img.dtype.kind == "S" and img.size == 1:
            img = np.frombuffer(img.tobytes(), np.uint8)
        if img.ndim != 1 or img.dtype != np.uint8:
            raise TypeError(f"Decode: expects the raw bytes of an image file (uint8, 1-D), got {img.dtype} "
                            f"of shape {img.shape}; is the image decoded already?")
        out = decode_image(img, path=source_file(img))  # the file, when a file reader read the bytes
        return ToPIL().apply(out) if self.to_pil else out


class ToPIL(ImageTransform):
    """A numpy image (height x width [x channels], uint8) as a Pillow image."""

    python_only = True

    def apply(self, img):
        from PIL import Image  # optional dependency

        return Image.fromarray(np.ascontiguousarray(img))


def _pad(img, top, bottom, left, right, fill):
    widths = ((top, bottom), (left, right)) + ((0, 0),) * (img.ndim - 2)
    if img.ndim == 3 and not isinstance(fill, (int, float)):  # one fill value per channel
        return np.stack([np.pad(img[..., c], widths[:2], constant_values=fill[c]) for c in range(img.shape[2])], -1)
    return np.pad(img, widths, constant_values=fill)


class CenterCrop(ImageTransform):
    """The middle (height, width) of the image; a crop larger than the image pads it with zeros.

    The crop starts at ``floor((H - height) / 2)``, ``floor((W - width) / 2)`` (observed on MindSpore 2.10:
    cropping 5 rows to 3 starts at row 1; padding 5 rows to 8 puts 2 rows above and 1 below).
    """

    def __init__(self, size):
        self.size = _size(size, "CenterCrop")

    def apply_pil(self, img):
        """MindSpore's Pillow centre crop: starts at ``round((W - width) / 2)`` (Python's round), Pillow pads
        with black."""
        (w, h), (ch, cw) = img.size, self.size
        top, left = int(round((h - ch) / 2.0)), int(round((w - cw) / 2.0))
        return img.crop((left, top, left + cw, top + ch))

    def apply(self, img):
        _check_image("CenterCrop", img)
        (h, w), (ch, cw) = img.shape[:2], self.size
        top, left = (h - ch) // 2, (w - cw) // 2
        if top < 0 or left < 0:
            img = _pad(img, max(-top, 0), max(ch - h + top, 0), max(-left, 0), max(cw - w + left, 0), 0)
            top, left = max(top, 0), max(left, 0)
        return img[top:top + ch, left:left + cw]


class RandomCrop(RandomTransform):
    """A (height, width) crop at a random place, after optional padding.

    ``padding`` is an int (all sides), (left/right, top/bottom) or (left, top, right, bottom), filled with
    ``fill_value`` (an int or one per channel); ``pad_if_needed`` pads an image smaller than the crop.
    """

    keeps_pil = True

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0, padding_mode=None):
        self.size = _size(size, "RandomCrop")
        p = (0, 0, 0, 0) if padding is None else (padding,) * 4 if isinstance(padding, int) else tuple(padding)
        self.padding = p * 2 if len(p) == 2 else p
        if len(self.padding) != 4:
            raise ValueError(f"RandomCrop: padding must be an int or a sequence of 2 or 4, got {padding}")
        self.pad_if_needed, self.fill_value = pad_if_needed, fill_value

    def apply(self, img):
        _check_image("RandomCrop", img)
        left, top, right, bottom = self.padding
        img = _pad(img, top, bottom, left, right, self.fill_value) if any(self.padding) else img
        (h, w), (ch, cw) = img.shape[:2], self.size
        if self.pad_if_needed and (h < ch or w < cw):
            dh, dw = max(ch - h, 0), max(cw - w, 0)
            img = _pad(img, dh // 2, dh - dh // 2, dw // 2, dw - dw // 2, self.fill_value)
            h, w = img.shape[:2]
        if h < ch or w < cw:
            raise RuntimeError(f"RandomCrop: crop size {self.size} is larger than the (padded) image {(h, w)}; "
                               f"pass padding or pad_if_needed=True")
        i, j = self.rng.integers(0, h - ch + 1), self.rng.integers(0, w - cw + 1)
        return img[i:i + ch, j:j + cw]


class RandomHorizontalFlip(RandomTransform):
    """Mirror the image left-right with probability ``prob``."""

    keeps_pil = True

    def __init__(self, prob=0.5):
        self.prob = prob

    def apply(self, img):
        _check_image("RandomHorizontalFlip", img)
        return img[:, ::-1].copy() if self.rng.random() < self.prob else img


class RandomVerticalFlip(RandomTransform):
    """Flip the image upside down with probability ``prob``."""

    keeps_pil = True

    def __init__(self, prob=0.5):
        self.prob = prob

    def apply(self, img):
        _check_image("RandomVerticalFlip", img)
        return img[::-1].copy() if self.rng.random() < self.prob else img


class RandomResizedCrop(RandomTransform):
    """A crop of random area (``scale`` of the image) and aspect ratio (``ratio``, width/height), resized to ``size``.

    Up to ``max_attempts`` draws look for a crop that fits; if none does, the centre crop with the ratio
    clamped into ``ratio`` is taken (the Inception-style crop of torchvision and MindSpore).
    """

    keeps_pil = True

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3 / 4, 4 / 3), interpolation=Inter.BILINEAR, max_attempts=10):
        self.size = _size(size, "RandomResizedCrop")
        if scale[0] > scale[1] or ratio[0] > ratio[1] or scale[0] < 0 or ratio[0] <= 0:
            raise ValueError(f"RandomResizedCrop: scale and ratio must be (min, max) with 0 <= min <= max, "
                             f"got scale={scale}, ratio={ratio}")
        self.scale, self.ratio, self.interpolation, self.max_attempts = scale, ratio, Inter(interpolation), max_attempts

    def crop_box(self, h, w):
        """(top, left, height, width) of the crop for an h x w image."""
        area = h * w
        log_ratio = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(self.max_attempts):
            target = area * self.rng.uniform(*self.scale)
            aspect = math.exp(self.rng.uniform(*log_ratio))
            cw, ch = round(math.sqrt(target * aspect)), round(math.sqrt(target / aspect))
            if 0 < cw <= w and 0 < ch <= h:
                return int(self.rng.integers(0, h - ch + 1)), int(self.rng.integers(0, w - cw + 1)), ch, cw
        in_ratio = w / h
        if in_ratio < self.ratio[0]:
            cw, ch = w, round(w / self.ratio[0])
        elif in_ratio > self.ratio[1]:
            ch, cw = h, round(h * self.ratio[1])
        else:
            ch, cw = h, w
        return (h - ch) // 2, (w - cw) // 2, ch, cw

    def apply(self, img):
        _check_image("RandomResizedCrop", img)
        top, left, ch, cw = self.crop_box(*img.shape[:2])
        return resize(np.ascontiguousarray(img[top:top + ch, left:left + cw]), *self.size, self.interpolation)


class RandomCropDecodeResize(RandomResizedCrop):
    """``Decode`` then ``RandomResizedCrop``, in one step (MindSpore fuses them to decode less)."""

    def apply(self, img):
        return super().apply(Decode().apply(img))


def _factor_range(value, what, centre):
    if isinstance(value, (int, float)):
        if value < 0:
            raise ValueError(f"RandomColorAdjust: {what} must be >= 0, got {value}")
        return (max(centre - value, 0), centre + value) if centre else (-value, value)
    lo, hi = value
    if lo > hi:
        raise ValueError(f"RandomColorAdjust: {what} must be (min, max) with min <= max, got {value}")
    return float(lo), float(hi)


class RandomColorAdjust(RandomTransform):
    """Random brightness, contrast, saturation and hue, each drawn uniformly from its range.

    A number b for brightness means factors in [max(0, 1 - b), 1 + b] (the same for contrast and
    saturation); hue h means a turn in [-h, h] (h <= 0.5). (1, 1) and (0, 0) leave the image as it is.
    The arithmetic is MindSpore's (see :mod:`mslab.dataset.vision.color`). The four adjustments are
    applied in a random order, as in MindSpore.
    """

    keeps_pil = True

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
        self.brightness = _factor_range(brightness, "brightness", 1)
        self.contrast = _factor_range(contrast, "contrast", 1)
        self.saturation = _factor_range(saturation, "saturation", 1)
        self.hue = _factor_range(hue, "hue", 0)
        if not -0.5 <= self.hue[0] <= self.hue[1] <= 0.5:
            raise ValueError(f"RandomColorAdjust: hue must lie in [-0.5, 0.5], got {hue}")

    def apply(self, img):
        _check_image("RandomColorAdjust", img)
        if img.dtype != np.uint8:
            raise TypeError(f"RandomColorAdjust: expects a uint8 image (decoded, before Rescale), got {img.dtype}")
        steps = [(color.adjust_brightness, self.brightness, 1), (color.adjust_contrast, self.contrast, 1),
                 (color.adjust_saturation, self.saturation, 1), (color.adjust_hue, self.hue, 0)]
        for k in self.rng.permutation(len(steps)):
            fn, (lo, hi), identity = steps[k]
            factor = lo if lo == hi else self.rng.uniform(lo, hi)
            if factor != identity:
                img = fn(img, factor)
        return img
