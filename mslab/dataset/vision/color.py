"""Colour adjustments of uint8 RGB images, as MindSpore's CPU kernels compute them (OpenCV arithmetic).

Each blends the image with a reference and rounds half to even (OpenCV's ``saturate_cast``):

- brightness f: ``img * f`` (blend with black);
- contrast f:   ``img * f + m * (1 - f)``, m the mean grey level, rounded to an integer;
- saturation f: ``img * f + grey * (1 - f)``, grey = round(0.299 R + 0.587 G + 0.114 B) per pixel;
- hue h (in [-0.5, 0.5]): the hue turned by h of a full turn, in HSV.

Brightness, contrast and saturation agree bit for bit with MindSpore 2.10 on CPU (observed); hue,
computed here in floating point, agrees to within a few grey levels.
"""
import numpy as np

LUMA = np.array([0.299, 0.587, 0.114])


def _to_u8(x):
    return np.clip(np.rint(x), 0, 255).astype(np.uint8)


def grey(img):
    """Per-pixel grey levels (float, rounded to integers) of an RGB image."""
    return np.rint(img.astype(np.float64) @ LUMA)


def adjust_brightness(img, factor):
    return _to_u8(img.astype(np.float64) * factor)


def adjust_contrast(img, factor):
    mean = np.rint(grey(img).mean()) if img.ndim == 3 else np.rint(img.mean())
    return _to_u8(img.astype(np.float64) * factor + mean * (1 - factor))


def adjust_saturation(img, factor):
    if img.ndim == 2:
        return img
    return _to_u8(img.astype(np.float64) * factor + grey(img)[..., None] * (1 - factor))


def adjust_hue(img, shift):
    """Turn every pixel's hue by ``shift`` (a fraction of the colour wheel)."""
    if img.ndim == 2 or shift == 0:
        return img
    rgb = img.astype(np.float64) / 255.0
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    v = rgb.max(-1)
    c = v - rgb.min(-1)
    safe = np.where(c == 0, 1, c)
    h = np.select([c == 0, v == r, v == g], [0, ((g - b) / safe) % 6, (b - r) / safe + 2], (r - g) / safe + 4) / 6
    h = (h + shift) % 1.0
    s = np.where(v == 0, 0, c / np.where(v == 0, 1, v))
    k = lambda n: (n + h * 6) % 6  # noqa: E731 - the standard HSV -> RGB formula, per channel
    out = np.stack([v - v * s * np.clip(np.minimum(k(n), 4 - k(n)), 0, 1) for n in (5, 3, 1)], -1)
    return _to_u8(out * 255)
