"""Image transforms, as ``mindspore.dataset.vision``: Resize, Rescale, Normalize, HWC2CHW, ToTensor.

Each transform is an object you call on one image (a numpy array, height x width x channels or
height x width) and that ``dataset.map(operations=...)`` calls on every row:

    >>> import numpy as np
    >>> img = np.array([[0, 10], [20, 30]], np.float32)[..., None]        # 2x2, one channel
    >>> Resize((4, 4))(img)[..., 0]
    array([[ 0. ,  2.5,  7.5, 10. ],
           [ 5. ,  7.5, 12.5, 15. ],
           [15. , 17.5, 22.5, 25. ],
           [20. , 22.5, 27.5, 30. ]], dtype=float32)
    >>> HWC2CHW()(img).shape
    (1, 2, 2)
"""
import functools

import numpy as np

from mslab.core import dtype as mstype
from mslab.dataset.transforms.transforms import Transform, is_pil
from mslab.dataset.vision.utils import Inter


def to_pil(array):
    """A numpy image as a Pillow image (its mode from the array: "L" for 2-D uint8, "RGB" for 3 channels, ...)."""
    from PIL import Image  # optional dependency: only when Pillow images come in

    return Image.fromarray(np.ascontiguousarray(array))


class ImageTransform(Transform):
    """Base of the image transforms: ``transform(image) -> image``.

    A Pillow image goes to :meth:`apply_pil`. MindSpore 2.10 runs a transform's Pillow version on a Pillow
    image when it has one (``_execute_py``) and returns a Pillow image; the others take the image as a numpy
    array and return an array (observed for every transform here: ``Resize``, ``CenterCrop``, ``Pad``, the
    flips, crops, colour and geometry transforms keep Pillow; ``Crop``, ``CutOut``, ``GaussianBlur``,
    ``Rescale``, ``Normalize``, ``HWC2CHW`` ... return arrays).
    """

    keeps_pil = False  # True: a Pillow image comes back as a Pillow image, as in MindSpore
    python_only = False  # True: MindSpore has only a Python version (a Compose of it returns a tuple)

    def __call__(self, *images):
        if len(images) != 1:
            raise TypeError(f"{type(self).__name__} takes one image, got {len(images)} inputs")
        img = images[0]
        if is_pil(img):
            return self.apply_pil(img)
        img = img.asnumpy() if hasattr(img, "asnumpy") else np.asarray(img)
        return self.apply(img)

    def apply(self, img):
        raise NotImplementedError

    def apply_pil(self, img):
        """A Pillow image: by default the numpy result (as a Pillow image again when ``keeps_pil``).

        The random transforms keep Pillow this way: their draws are mslab's, not MindSpore's, either way.
        The deterministic ones (``Resize``, ``CenterCrop``, ``Pad``, ``Invert``, ``Equalize``, ``AutoContrast``)
        call Pillow as MindSpore's Pillow versions do, so the pixels are MindSpore's too.
        """
        out = self.apply(np.asarray(img))
        return to_pil(out) if self.keeps_pil else out


def _check_image(name, img):
    if img.ndim not in (2, 3):
        raise ValueError(f"{name}: expected an image of shape (height, width) or (height, width, channels), "
                         f"got shape {img.shape}")


@functools.lru_cache(maxsize=64)  # the same sizes come back for every image of a data set
def _linear_taps(out_n, in_n, clamp_weights=True):
    """For each output pixel: the two source pixels and the weight of the second (OpenCV INTER_LINEAR).

    Pixel centres line up ("half-pixel"): output pixel d samples the source at
    ``(d + 0.5) * in_n / out_n - 0.5`` (in float32, as OpenCV). Positions beyond the first or last
    pixel centre take that edge pixel. (OpenCV clamps the weights along the width, but only the
    row indices along the height; the values agree except for the rounding of uint8 images.)
    """
    src = ((np.arange(out_n, dtype=np.float64) + 0.5) * (in_n / out_n) - 0.5).astype(np.float32)
    i0 = np.floor(src).astype(np.int64)
    frac = (src - i0).astype(np.float32)
    if clamp_weights:
        low, high = i0 < 0, i0 >= in_n - 1
        i0[low], frac[low] = 0, 0.0
        i0[high], frac[high] = in_n - 1, 0.0
    taps = np.clip(i0, 0, in_n - 1), np.clip(i0 + 1, 0, in_n - 1), frac
    for a in taps:
        a.flags.writeable = False  # shared through the cache
    return taps


def _nearest_taps(out_n, in_n):
    """OpenCV INTER_NEAREST: output pixel d takes source pixel floor(d * in_n / out_n)."""
    return np.minimum(np.floor(np.arange(out_n) * (in_n / out_n)).astype(np.int64), in_n - 1)


_COEF_BITS = 11  # OpenCV's INTER_RESIZE_COEF_BITS: uint8 weights are integers out of 2048


def _resize_linear_u8(img, height, width):
    """OpenCV's fixed-point bilinear resize of a uint8 image (bit-exact with cv2.resize INTER_LINEAR).

    The weights become integers out of 2048; a horizontal pass sums pixel * weight exactly, and a
    vertical pass combines two such rows with the shifts OpenCV's vector code uses.
    """
    h, w = img.shape[:2]
    scale = 1 << _COEF_BITS
    y0, y1, fy = _linear_taps(height, h, clamp_weights=False)
    x0, x1, fx = _linear_taps(width, w)
    ax0 = np.rint((np.float32(1) - fx) * np.float32(scale)).astype(np.int64)
    by0 = np.rint((np.float32(1) - fy) * np.float32(scale)).astype(np.int64)
    ax1, by1 = scale - ax0, scale - by0
    if img.ndim == 3:
        ax0, ax1, by0, by1 = ax0[:, None], ax1[:, None], by0[:, None, None], by1[:, None, None]
    else:
        by0, by1 = by0[:, None], by1[:, None]
    x = img.astype(np.int64)
    rows = x[:, x0] * ax0 + x[:, x1] * ax1                      # (h, width[, c]), scaled by 2048
    v = (((rows[y0] >> 4) * by0) >> 16) + (((rows[y1] >> 4) * by1) >> 16)
    return np.clip((v + 2) >> 2, 0, 255).astype(np.uint8)      # total shift 22 = 2 * 11 bits


def resize(img, height, width, interpolation=Inter.LINEAR):
    """``img`` resized to (height, width): bilinear (half-pixel centres) or nearest, in numpy.

    Matches OpenCV's ``cv2.resize`` (which MindSpore uses): uint8 images bit for bit (OpenCV's
    fixed-point arithmetic), float images to rounding. Other integer types are computed in float,
    rounded to nearest and clipped to the type's range. The result keeps the input's dtype.
    """
    _check_image("Resize", img)
    h, w = img.shape[:2]
    if interpolation == Inter.NEAREST:
        return img[_nearest_taps(height, h)][:, _nearest_taps(width, w)]
    if interpolation != Inter.LINEAR:
        raise NotImplementedError(f"Resize: interpolation {Inter(interpolation).name} is not supported by mslab; "
                                  f"use Inter.LINEAR or Inter.NEAREST")
    if img.dtype == np.uint8:
        return _resize_linear_u8(img, height, width)
    y0, y1, fy = _linear_taps(height, h)
    x0, x1, fx = _linear_taps(width, w)
    x = img.astype(np.float64)
    fy, fx = fy.astype(np.float64), fx.astype(np.float64)
    if x.ndim == 3:
        fy, fx = fy[:, None, None], fx[None, :, None]
    else:
        fy, fx = fy[:, None], fx[None, :]
    rows0, rows1 = x[y0], x[y1]
    top = rows0[:, x0] * (1 - fx) + rows0[:, x1] * fx
    bottom = rows1[:, x0] * (1 - fx) + rows1[:, x1] * fx
    out = top * (1 - fy) + bottom * fy
    if img.dtype.kind in "ui":
        info = np.iinfo(img.dtype)
        out = np.clip(np.rint(out), info.min, info.max)
    elif img.dtype.kind == "b":
        out = out >= 0.5
    return out.astype(img.dtype)


class Resize(ImageTransform):
    """Resize to ``size`` = (height, width), or an int: the shorter side becomes ``size``, keeping the
    aspect ratio. ``interpolation`` is ``Inter.LINEAR`` (bilinear, the default) or ``Inter.NEAREST``.
    """

    def __init__(self, size, interpolation=Inter.LINEAR):
        if isinstance(size, (int, np.integer)):
            size = int(size)
        else:
            size = tuple(int(s) for s in size)
            if len(size) == 1:
                size = size[0]
            elif len(size) != 2:
                raise ValueError(f"Resize: size must be an int or (height, width), got {size}")
        if min(size if isinstance(size, tuple) else (size,)) < 1:
            raise ValueError(f"Resize: sizes must be >= 1, got {size}")
        self.size = size
        self.interpolation = Inter(interpolation)

    def apply_pil(self, img):
        """MindSpore's Pillow resize (``py_transforms_util.resize``): Pillow's filter of the same name."""
        if self.interpolation in (Inter.AREA, Inter.PILCUBIC):  # MindSpore's message
            raise TypeError("Current Interpolation is not supported with PIL input.")
        if isinstance(self.size, tuple):
            return img.resize(self.size[::-1], int(self.interpolation))
        w, h = img.size
        if (w <= h and w == self.size) or (h <= w and h == self.size):
            return img
        if w < h:
            return img.resize((self.size, int(self.size / (w / h))), int(self.interpolation))
        return img.resize((int(self.size * (w / h)), self.size), int(self.interpolation))

    def apply(self, img):
        _check_image("Resize", img)
        h, w = img.shape[:2]
        if isinstance(self.size, tuple):
            oh, ow = self.size
        elif h <= w:
            oh, ow = self.size, int(self.size * w / h)
        else:
            oh, ow = int(self.size * h / w), self.size
        return resize(img, oh, ow, self.interpolation)


class Rescale(ImageTransform):
    """``image * rescale + shift`` as float32 (``Rescale(1/255, 0)`` maps 0..255 to 0..1)."""

    def __init__(self, rescale, shift):
        self.rescale = float(rescale)
        self.shift = float(shift)

    def apply(self, img):
        return img.astype(np.float32) * np.float32(self.rescale) + np.float32(self.shift)


class Normalize(ImageTransform):
    """``(image - mean) / std`` per channel, as float32. Channels are last (``is_hwc=True``) or first."""

    def __init__(self, mean, std, is_hwc=True):
        self.mean = [float(m) for m in np.atleast_1d(mean)]
        self.std = [float(s) for s in np.atleast_1d(std)]
        if len(self.mean) != len(self.std):
            raise ValueError(f"Normalize: mean has {len(self.mean)} values but std has {len(self.std)}")
        if any(s <= 0 for s in self.std):
            raise ValueError(f"Normalize: std values must be > 0, got {self.std}")
        self.is_hwc = is_hwc

    def apply(self, img):
        _check_image("Normalize", img)
        mean, std = np.float32(self.mean), np.float32(self.std)
        if img.ndim == 3:
            channels = img.shape[-1] if self.is_hwc else img.shape[0]
            if len(mean) not in (1, channels):
                raise ValueError(f"Normalize: {len(mean)} mean/std values for an image with {channels} channels "
                                 f"(shape {img.shape}, is_hwc={self.is_hwc})")
            if not self.is_hwc:
                mean, std = mean[:, None, None], std[:, None, None]
        elif len(mean) != 1:
            raise ValueError(f"Normalize: {len(mean)} mean/std values for a one-channel image of shape {img.shape}")
        return (img.astype(np.float32) - mean) / std


class HWC2CHW(ImageTransform):
    """Move channels first: (height, width, channels) -> (channels, height, width), as networks expect.

    A (height, width) image is returned unchanged.
    """

    def apply(self, img):
        _check_image("HWC2CHW", img)
        return img if img.ndim == 2 else np.ascontiguousarray(img.transpose(2, 0, 1))


class ToTensor(ImageTransform):
    """HWC image (0..255) -> CHW float32 in 0..1, as ``vision.ToTensor``."""

    def __init__(self, output_type=np.float32):
        self.output_type = output_type

    def apply(self, img):
        _check_image("ToTensor", img)
        if img.ndim == 2:
            img = img[..., None]
        return (img.transpose(2, 0, 1) / 255.0).astype(mstype.to_numpy(self.output_type))
