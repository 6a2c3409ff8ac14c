"""Crop boxes out of a batch of images and resize each crop: ``P.CropAndResize`` (TensorFlow's crop_and_resize).

``P.CropAndResize(method='bilinear', extrapolation_value=0.0)(image, boxes, box_index, crop_size)`` with image
(N, H, W, C), boxes (B, 4) rows (y1, x1, y2, x2) in [0, 1] coordinates of the image, box_index (B,) Int32 and
crop_size (crop_h, crop_w) gives Float32 (B, crop_h, crop_w, C). Row i of a crop samples the image at

    y_i = y1 * (H - 1) + i * (y2 - y1) * (H - 1) / (crop_h - 1)       (crop_h > 1)
    y_0 = (y1 + y2) / 2 * (H - 1)                                    (crop_h = 1)

and the same for columns with x1, x2, W. A sample outside [0, H - 1] x [0, W - 1] is ``extrapolation_value``;
one inside is the bilinear mix of image[floor], image[ceil] (bilinear) or image[round half up] (nearest).

Sampling separates into rows and columns, so each box is two small matrices Wy (crop_h, H) and Wx (crop_w, W) and
crop = Wy @ image[n] @ Wx.T per channel. The image's gradient puts dout back through them; the boxes' gradient
is dout times the image's slope between floor and ceil, image[ceil] - image[floor] (0 at a whole pixel, as
MindSpore's CropAndResizeGradBoxes), times dy_i/dy1 = (H - 1)(1 - i / (crop_h - 1)) and dy_i/dy2 =
(H - 1) i / (crop_h - 1), the bilinear one whatever the method (as MindSpore's). Checked on MindSpore 2.10 CPU
(docs/mindspore_observed/opsthree.md).
"""
import numpy as np

from mslab.core.op_registry import op_table
from mslab.ops.primitive import Primitive

__all__ = ["CropAndResize", "CropAndResizeGradImage", "CropAndResizeGradBoxes"]

_METHODS = ("bilinear", "nearest")


def _axis(lo, hi, crop, size, method):
    """For one box on one axis: weights (crop, size), slope matrix D (crop, size), inside mask (crop,), and the
    derivatives of each sample's position by lo and hi (crop,) each."""
    i = np.arange(crop, dtype=np.float64)
    if crop > 1:
        d_hi = i * (size - 1) / (crop - 1)
        d_lo = (size - 1) - d_hi
    else:
        d_lo = d_hi = np.full(crop, 0.5 * (size - 1))
    pos = lo * d_lo + hi * d_hi
    inside = (pos >= 0) & (pos <= size - 1)
    p = np.clip(pos, 0, size - 1)
    w, d = np.zeros((crop, size)), np.zeros((crop, size))
    rows = np.arange(crop)
    low, high = np.floor(p).astype(np.int64), np.ceil(p).astype(np.int64)
    np.add.at(d, (rows, low), -1.0)
    np.add.at(d, (rows, high), 1.0)
    if method == "nearest":
        w[rows, np.floor(p + 0.5).astype(np.int64)] = 1.0
    else:
        np.add.at(w, (rows, low), 1.0 - (p - low))
        np.add.at(w, (rows, high), p - low)
    return w * inside[:, None], d * inside[:, None], inside, d_lo, d_hi


class _Boxes:
    """Each box's image index and row/column matrices, worked out once per call."""

    def __init__(self, prim, image_shape, boxes, box_index, crop_size):
        _, height, width, _ = image_shape
        ch, cw = crop_size
        self.items = []
        for b in range(boxes.shape[0]):
            y1, x1, y2, x2 = (float(v) for v in boxes[b])
            ys = _axis(y1, y2, ch, height, prim.method)
            xs = _axis(x1, x2, cw, width, prim.method)
            self.items.append((int(box_index[b]), ys, xs))


def _check(prim, image, boxes, box_index, crop_size):
    if len(image.shape) != 4:
        raise ValueError(f"For primitive[{prim.name}], the [x] rank must be equal to 4, but got {len(image.shape)} "
                         f"(the image is (N, H, W, C)).")
    if len(boxes.shape) != 2 or boxes.shape[1] != 4:
        raise ValueError(f"For '{prim.name}', the 'boxes' must be of shape (num_boxes, 4), but got "
                         f"{tuple(boxes.shape)}.")
    if tuple(box_index.shape) != (boxes.shape[0],):
        raise ValueError(f"For '{prim.name}', the 'box_index' must be of shape ({boxes.shape[0]},) (one per box), "
                         f"but got {tuple(box_index.shape)}.")
    if not isinstance(crop_size, tuple) or len(crop_size) != 2 or not all(isinstance(v, int) for v in crop_size):
        raise ValueError(f"For '{prim.name}', the 'crop_size' must be a tuple of two ints, but got {crop_size!r}.")
    for what, v in zip(("height", "width"), crop_size):
        if v <= 0:
            raise ValueError(f"For primitive[{prim.name}], the [crop] {what} must be greater than 0, but got {v}.")


class CropAndResize(Primitive):
    """``P.CropAndResize(method, extrapolation_value)(image, boxes, box_index, crop_size)``: see the module doc.

    d/dimage: CropAndResizeGradImage; d/dboxes: CropAndResizeGradBoxes (bilinear); box_index: none."""

    n_tensors = 3

    def __init__(self, method="bilinear", extrapolation_value=0.0):
        if method == "bilinear_v2":
            raise NotImplementedError("For 'CropAndResize', MindSpore 2.10's method 'bilinear_v2' exists but mslab "
                                      "does not implement it yet; 'bilinear' and 'nearest' work.")
        if method not in _METHODS:
            raise ValueError(f"For 'CropAndResize', the 'method' must be str and must be in "
                             f"'['bilinear', 'nearest', 'bilinear_v2']', but got {method!r}.")
        super().__init__(method=method, extrapolation_value=float(extrapolation_value))

    def infer(self, image, boxes, box_index, crop_size):
        _check(self, image, boxes, box_index, crop_size)
        return (boxes.shape[0], int(crop_size[0]), int(crop_size[1]), image.shape[3]), np.dtype(np.float32)

    def compute(self, image, boxes, box_index, crop_size):
        n = image.shape[0]
        out = np.empty((boxes.shape[0], crop_size[0], crop_size[1], image.shape[3]), np.float32)
        for b, (k, ys, xs) in enumerate(_Boxes(self, image.shape, boxes, box_index, crop_size).items):
            if not 0 <= k < n:
                raise ValueError(f"For 'CropAndResize', the value of box_index must be in [0, {n}), but got [{k}] "
                                 f"(box {b}).")
            crop = np.einsum("yh,hwc,xw->yxc", ys[0], image[k].astype(np.float64), xs[0])
            out[b] = np.where(ys[2][:, None, None] & xs[2][None, :, None], crop, self.extrapolation_value)
        return out

    def bprop(self, image, boxes, box_index, crop_size, out, dout, needs):
        dimage = CropAndResizeGradImage(self.method)(dout, image, boxes, box_index, crop_size) if needs[0] else None
        dboxes = CropAndResizeGradBoxes("bilinear")(dout, image, boxes, box_index, crop_size) if needs[1] else None
        return dimage, dboxes, None, None


class _Grad(Primitive):
    """A CropAndResize gradient ``(dout, image, boxes, box_index, crop_size)``, computed in float64."""

    n_tensors = 4
    differentiable = False

    def __init__(self, method="bilinear"):
        super().__init__(method=method)

    def gradients(self, dout, image, boxes, box_index, crop_size, want_boxes):
        dimage = np.zeros(image.shape, np.float64)
        dboxes = np.zeros(boxes.shape, np.float64)
        img = image.astype(np.float64)
        for b, (k, ys, xs) in enumerate(_Boxes(self, image.shape, boxes, box_index, crop_size).items):
            g = dout[b].astype(np.float64) * (ys[2][:, None, None] & xs[2][None, :, None])
            if not want_boxes:
                dimage[k] += np.einsum("yh,yxc,xw->hwc", ys[0], g, xs[0])
            else:
                slope_y = (np.einsum("yh,hwc,xw->yxc", ys[1], img[k], xs[0]) * g).sum(axis=(1, 2))
                slope_x = (np.einsum("yh,hwc,xw->yxc", ys[0], img[k], xs[1]) * g).sum(axis=(0, 2))
                dboxes[b] = (slope_y @ ys[3], slope_x @ xs[3], slope_y @ ys[4], slope_x @ xs[4])
        return dboxes if want_boxes else dimage


class CropAndResizeGradImage(_Grad):
    """``CropAndResizeGradImage(method)(dout, image, boxes, box_index, crop_size)``: sum of Wy.T @ dout @ Wx per box."""

    def infer(self, dout, image, boxes, box_index, crop_size):
        return tuple(image.shape), image.dtype if image.dtype.kind == "f" else np.dtype(np.float32)

    def compute(self, dout, image, boxes, box_index, crop_size):
        g = self.gradients(dout, image, boxes, box_index, crop_size, want_boxes=False)
        return g.astype(image.dtype if image.dtype.kind == "f" else np.float32)


class CropAndResizeGradBoxes(_Grad):
    """``CropAndResizeGradBoxes(method)(dout, image, boxes, box_index, crop_size)``: the boxes' gradient, always the
    bilinear one (MindSpore 2.10 gives it for method='nearest' too, observed)."""

    def infer(self, dout, image, boxes, box_index, crop_size):
        return tuple(boxes.shape), boxes.dtype

    def compute(self, dout, image, boxes, box_index, crop_size):
        return self.gradients(dout, image, boxes, box_index, crop_size, want_boxes=True).astype(boxes.dtype)


op_table.register(globals(), __all__)
