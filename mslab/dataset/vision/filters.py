"""``GaussianBlur``, as ``mindspore.dataset.vision``: OpenCV's Gaussian filter, computed in numpy.

The kernel along each axis is ``exp(-x**2 / (2 sigma**2))`` normalized, for x = -(n-1)/2 ... (n-1)/2; sigma 0 or
None means OpenCV's ``0.3 * ((n - 1) / 2 - 1) + 0.8``. Borders mirror the image without repeating the edge
pixel (OpenCV's BORDER_REFLECT_101, numpy's "reflect"). uint8 images are filtered in OpenCV's exact
fixed point: the kernel in 256ths (rounded with the error carried to the next tap, the centre tap taking
what is left), the sums exact, the result rounded half up. This agrees with MindSpore 2.10 on CPU bit
for bit (observed); float images agree to float rounding.
"""
import numbers

import numpy as np

from mslab.dataset.vision.transforms import ImageTransform, _check_image

_BITS = 8  # OpenCV's ufixedpoint16: 8 fraction bits


def gaussian_kernel(n, sigma):
    """The normalized 1-D Gaussian kernel of ``n`` taps (OpenCV's getGaussianKernel for sigma > 0)."""
    if not sigma or sigma <= 0:
        sigma = ((n - 1) * 0.5 - 1) * 0.3 + 0.8
    x = np.arange(n) - (n - 1) / 2
    k = np.exp(-x * x / (2 * sigma * sigma))
    return k / k.sum()


def _fixed_kernel(n, sigma):
    """The kernel in integer 256ths summing to 256 exactly (OpenCV's error-diffused rounding)."""
    k, scale = gaussian_kernel(n, sigma), 1 << _BITS
    out, err = np.zeros(n, np.int64), 0.0
    for i in range(n // 2):
        adjusted = k[i] * scale + err
        out[i] = out[n - 1 - i] = int(np.rint(adjusted))
        err = adjusted - out[i]
    out[n // 2] = scale - 2 * out[:n // 2].sum()
    return out


def _filter(x, kx, ky):
    """Separable filtering of ``x`` with the row kernel ``kx`` and column kernel ``ky`` (reflect-101 borders)."""
    h, w = x.shape[:2]
    px, py = len(kx) // 2, len(ky) // 2
    if px >= w or py >= h:  # numpy's reflect needs the image to be wider than the padding, as OpenCV does
        raise ValueError(f"GaussianBlur: a {len(kx)}x{len(ky)} kernel is too large for a {h}x{w} image")
    padded = np.pad(x, ((py, py), (px, px)) + ((0, 0),) * (x.ndim - 2), mode="reflect")
    rows = sum(kx[j] * padded[:, j:j + w] for j in range(len(kx)))
    return sum(ky[i] * rows[i:i + h] for i in range(len(ky)))


def _odd_sizes(kernel_size):
    sizes = (kernel_size, kernel_size) if isinstance(kernel_size, numbers.Integral) else tuple(kernel_size)
    for n in sizes:
        if not 1 <= n <= 16777216:  # MindSpore's messages
            raise ValueError("Input kernel_size is not within the required interval of [1, 16777216].")
        if n % 2 == 0:
            raise ValueError("Input kernel_size is not an odd value.")
    return sizes


class GaussianBlur(ImageTransform):
    """Blur with a Gaussian kernel of ``kernel_size`` (odd; an int or (width, height)) and ``sigma`` (a number,
    (x, y), or None: from the kernel size)."""

    def __init__(self, kernel_size, sigma=None):
        self.kernel_size = _odd_sizes(kernel_size)
        sigma = (0.0, 0.0) if sigma is None else (sigma, sigma) if isinstance(sigma, numbers.Number) else tuple(sigma)
        if min(sigma) < 0:
            raise ValueError("Input sigma is not within the required interval of [0, 16777216].")
        self.sigma = tuple(float(s) for s in sigma)

    def apply(self, img):
        _check_image("GaussianBlur", img)
        (nx, ny), (sx, sy) = self.kernel_size, self.sigma
        if img.dtype == np.uint8:
            v = _filter(img.astype(np.int64), _fixed_kernel(nx, sx), _fixed_kernel(ny, sy))
            return np.clip((v + (1 << (2 * _BITS - 1))) >> (2 * _BITS), 0, 255).astype(np.uint8)
        return _filter(img.astype(np.float64), gaussian_kernel(nx, sx), gaussian_kernel(ny, sy)).astype(img.dtype)
