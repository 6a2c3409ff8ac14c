"""Affine warps of images, as OpenCV's ``cv2.warpAffine`` computes them (MindSpore's Rotate and Affine use it).

An affine matrix M (2x3) maps a source pixel (x, y) to ``M @ (x, y, 1)``. To fill output pixel (u, v),
OpenCV inverts M and samples the source at ``Minv @ (u, v, 1)``, in fixed point:

- coordinates are rounded to 1/1024 of a pixel (``AB_BITS``), per column ``round(Minv[0, 0] * u * 1024)``
  plus per row ``round((Minv[0, 1] * v + Minv[0, 2]) * 1024)``;
- nearest neighbour rounds that to a whole pixel; bilinear keeps 1/32 of a pixel (``INTER_BITS``) and
  weighs the four neighbours with weights out of 32768 (for uint8: ``(sum + 16384) >> 15``);
- a neighbour outside the image takes the fill value (``BORDER_CONSTANT``).

This numpy version agrees with MindSpore 2.10 on CPU bit for bit on uint8 images (observed).
"""
import math

import numpy as np

from mslab.dataset.vision.utils import Inter

AB_BITS, INTER_BITS = 10, 5
_COEF_BITS = 15  # OpenCV's INTER_REMAP_COEF_BITS


def rotation_matrix(cx, cy, degrees, scale=1.0):
    """``cv2.getRotationMatrix2D``: turn by ``degrees`` counter-clockwise about (cx, cy), then scale."""
    a = math.radians(degrees)
    alpha, beta = scale * math.cos(a), scale * math.sin(a)
    return np.array([[alpha, beta, (1 - alpha) * cx - beta * cy], [-beta, alpha, beta * cx + (1 - alpha) * cy]])


def rotated_bounds(cx, cy, width, height, degrees):
    """(width, height) of the box around a width x height rectangle turned by ``degrees`` about (cx, cy),
    in float32 as ``cv2.RotatedRect(...).boundingRect2f()`` computes it."""
    f = np.float32
    a = f(math.radians(degrees))
    b, s = f(math.cos(a)) * f(0.5), f(math.sin(a)) * f(0.5)
    cx, cy, w, h = f(cx), f(cy), f(width), f(height)
    p0 = (cx - s * h - b * w, cy + b * h - s * w)
    p1 = (cx + s * h - b * w, cy - b * h - s * w)
    xs = [p0[0], p1[0], 2 * cx - p0[0], 2 * cx - p1[0]]
    ys = [p0[1], p1[1], 2 * cy - p0[1], 2 * cy - p1[1]]
    return float(max(xs) - min(xs)), float(max(ys) - min(ys))


def _invert(m):
    """``cv2.invertAffineTransform``."""
    a, b, c, d = m[0, 0], m[0, 1], m[1, 0], m[1, 1]
    det = a * d - b * c
    det = 1.0 / det if det else 0.0
    inv = np.array([[d * det, -b * det], [-c * det, a * det]])
    return np.concatenate([inv, -(inv @ m[:, 2])[:, None]], 1)


def _fixed(x):
    return np.rint(x).astype(np.int64)  # cvRound: to nearest, ties to even


def _gather(img, ys, xs, fill):
    """``img[ys, xs]``, with ``fill`` where (ys, xs) is outside the image."""
    h, w = img.shape[:2]
    inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    out = img[np.clip(ys, 0, h - 1), np.clip(xs, 0, w - 1)]
    return np.where(inside[..., None] if img.ndim == 3 else inside, out, np.asarray(fill, img.dtype))


def warp_affine(img, m, height, width, interpolation=Inter.NEAREST, fill=0):
    """The (height, width) image ``cv2.warpAffine(img, m, (width, height), interpolation, BORDER_CONSTANT, fill)``.

    ``fill`` is a number or one value per channel. Nearest and bilinear (``Inter.LINEAR``; MindSpore's
    ``Inter.AREA`` gives the same pixels here, observed) are supported.
    """
    if interpolation not in (Inter.NEAREST, Inter.LINEAR, Inter.AREA):
        raise NotImplementedError(f"interpolation {Inter(interpolation).name} is not supported by mslab's affine "
                                  f"transforms; use Inter.NEAREST or Inter.BILINEAR")
    inv, scale = _invert(np.asarray(m, np.float64)), 1 << AB_BITS
    u, v = np.arange(width), np.arange(height)
    xs = _fixed(inv[0, 0] * u * scale)[None, :] + _fixed((inv[0, 1] * v + inv[0, 2]) * scale)[:, None]
    ys = _fixed(inv[1, 0] * u * scale)[None, :] + _fixed((inv[1, 1] * v + inv[1, 2]) * scale)[:, None]
    if interpolation == Inter.NEAREST:
        half = scale // 2
        return _gather(img, (ys + half) >> AB_BITS, (xs + half) >> AB_BITS, fill)
    shift, steps = AB_BITS - INTER_BITS, 1 << INTER_BITS
    half = (1 << shift) // 2
    xs, ys = (xs + half) >> shift, (ys + half) >> shift
    fx, fy = xs & (steps - 1), ys & (steps - 1)  # the position within the pixel, in 32nds
    x0, y0 = xs >> INTER_BITS, ys >> INTER_BITS
    # OpenCV's weights, products of 32nds, are whole numbers out of 2**15 (no rounding needed)
    unit = (1 << _COEF_BITS) // (steps * steps)
    taps = [(y0, x0, (steps - fy) * (steps - fx)), (y0, x0 + 1, (steps - fy) * fx),
            (y0 + 1, x0, fy * (steps - fx)), (y0 + 1, x0 + 1, fy * fx)]
    if img.dtype == np.uint8:
        total = sum(_gather(img, y, x, fill).astype(np.int64) * _expand(wt * unit, img) for y, x, wt in taps)
        return np.clip((total + (1 << (_COEF_BITS - 1))) >> _COEF_BITS, 0, 255).astype(np.uint8)
    total = sum(_gather(img, y, x, fill).astype(np.float64) * _expand(wt / (steps * steps), img) for y, x, wt in taps)
    if img.dtype.kind in "ui":
        info = np.iinfo(img.dtype)
        total = np.clip(np.rint(total), info.min, info.max)
    return total.astype(img.dtype)


def _expand(weights, img):
    return weights[..., None] if img.ndim == 3 else weights
