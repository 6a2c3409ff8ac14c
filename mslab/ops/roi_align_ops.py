"""RoI Align (Mask R-CNN): a fixed-size grid of features pooled from each region of a feature map.

``P.ROIAlign(pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1)(features, rois)``
with features (N, C, H, W) and rois (R, 5) rows (image index, x0, y0, x1, y1) gives (R, C, ph, pw). Each
output cell averages ``sample_num`` x ``sample_num`` bilinear samples (MindSpore 2.10's CPU kernel):

    start = (x0, y0) * spatial_scale,  end = ((x1, y1) + roi_end_mode) * spatial_scale,
    bin = (end - start) / pooled,      sample (iy, ix) of cell (py, px) at start + (p + (i + 0.5) / grid) * bin

A sample outside [-1, size] counts as zero; one inside is clamped to the map and interpolated between its
four neighbours. ``sample_num <= 0`` takes floor(bin) samples per side (none: 0 / 0 = NaN, as MindSpore).
roi_end_mode=0 is the legacy form: end = (x1, y1) * scale, regions at least 1 x 1.

Bilinear sampling separates into rows and columns, so each region is two small matrices,
Wy (ph, H) and Wx (pw, W), and out[r, c] = Wy @ x[n, c] @ Wx.T / samples. The gradient of x puts dout
back through the same matrices (ROIAlignGrad, MindSpore's name); it is linear in dout, and its own
gradient is ROIAlign again. MindSpore's ROIAlignGrad always uses roi_end_mode=1 geometry, so with
roi_end_mode=0 its gradient is not the forward's derivative; mslab gives what MindSpore gives. rois get
a zero gradient.
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core.op_registry import op_table
from mslab.ops.primitive import Primitive, instance

__all__ = ["ROIAlign", "ROIAlignGrad"]

_EPS = 0.00007  # the kernel's tolerance for "at zero" and for rounding the image index
_SKIP = 0.001   # the kernel skips a region whose x0 and x1 are both within this of 0


def _axis_weights(start, bin_size, grid, pooled, size, t):
    """(pooled, size) matrix: each output cell's summed bilinear weights on one axis of the feature map."""
    w = np.zeros((pooled, size), t)
    if grid <= 0:
        return w
    p = np.arange(pooled, dtype=t)[:, None]
    i = np.arange(grid, dtype=t)[None, :] + t(0.5)
    pos = start + p * bin_size + i * bin_size / t(grid)  # (pooled, grid), in the kernel's order of operations
    inside = (pos >= t(-1)) & (pos <= t(size))
    pos = np.maximum(pos, t(0))
    low = np.where(pos <= t(_EPS), 0, np.floor(pos)).astype(np.int64)
    at_edge = low >= size - 1
    low = np.where(at_edge, size - 1, low)
    high = np.where(at_edge, low, low + 1)
    pos = np.where(at_edge, low.astype(t), pos)
    frac = (pos - low.astype(t)).astype(t)
    rows = np.broadcast_to(np.arange(pooled)[:, None], low.shape)
    np.add.at(w, (rows[inside], low[inside]), (t(1) - frac)[inside])
    np.add.at(w, (rows[inside], high[inside]), frac[inside])
    return w


class _Regions:
    """Each region's image, row weights, column weights and sample count, worked out once per call."""

    def __init__(self, prim, rois, shape, roi_end_mode):
        n, _, height, width = shape
        t = rois.dtype.type
        scale = t(prim.spatial_scale)
        self.items = []
        for r, roi in enumerate(rois):
            if -_SKIP < roi[1] < _SKIP and -_SKIP < roi[3] < _SKIP:
                self.items.append(None)  # MindSpore leaves this output unwritten; mslab gives zeros
                continue
            image = int(np.rint(np.float32(roi[0]) + np.float32(_EPS)))
            if not 0 <= image < n:
                raise ValueError(f"{prim.name}: rois[{r}] names image {image}, but features has {n} images")
            start_w, start_h = roi[1] * scale, roi[2] * scale
            roi_w = (roi[3] + t(roi_end_mode)) * scale - start_w
            roi_h = (roi[4] + t(roi_end_mode)) * scale - start_h
            if roi_end_mode == 0:  # legacy: malformed regions become 1 x 1
                roi_w, roi_h = max(roi_w, t(1)), max(roi_h, t(1))
            bin_h, bin_w = t(roi_h / t(prim.pooled_height)), t(roi_w / t(prim.pooled_width))
            grid_h = prim.sample_num if prim.sample_num > 0 else int(np.floor(roi_h / t(prim.pooled_height)))
            grid_w = prim.sample_num if prim.sample_num > 0 else int(np.floor(roi_w / t(prim.pooled_width)))
            wy = _axis_weights(start_h, bin_h, grid_h, prim.pooled_height, height, t)
            wx = _axis_weights(start_w, bin_w, grid_w, prim.pooled_width, width, t)
            self.items.append((image, wy, wx, t(t(grid_h) * t(grid_w))))


def _check(prim, features_shape, features_dtype, rois):
    # Float64 too, which MindSpore's kernel rejects: the central-difference gradient checks need it
    if features_dtype.type not in (np.float16, np.float32, np.float64):
        raise TypeError(f"{prim.name} needs Float16 or Float32 inputs, got {mstype.from_numpy(features_dtype)}")
    if rois.dtype != features_dtype:
        raise TypeError(f"{prim.name} needs features and rois of one dtype, got {mstype.from_numpy(features_dtype)} "
                        f"and {mstype.from_numpy(rois.dtype)} (MindSpore 2.10 on CPU gives meaningless numbers)")
    if len(features_shape) != 4:
        raise ValueError(f"{prim.name}: features must be (N, C, H, W), got shape {tuple(features_shape)}")
    if len(rois.shape) != 2 or rois.shape[1] != 5:
        raise ValueError(f"{prim.name}: rois must be (R, 5) rows (image index, x0, y0, x1, y1), got shape "
                         f"{tuple(rois.shape)}")


def _attrs(name, pooled_height, pooled_width, spatial_scale, sample_num):
    for attr, v, kind in (("pooled_height", pooled_height, int), ("pooled_width", pooled_width, int),
                          ("spatial_scale", spatial_scale, float), ("sample_num", sample_num, int)):
        if isinstance(v, bool) or not isinstance(v, kind):
            raise TypeError(f"For '{name}', the type of '{attr}' should be '{kind.__name__}', but got type "
                            f"'{type(v).__name__}'.")
    if pooled_height <= 0 or pooled_width <= 0:
        raise ValueError(f"{name}: pooled_height and pooled_width must be positive, got {pooled_height} and "
                         f"{pooled_width}")
    return dict(pooled_height=pooled_height, pooled_width=pooled_width, spatial_scale=spatial_scale,
                sample_num=sample_num)


class ROIAlign(Primitive):
    """Bilinear RoI pooling (``P.ROIAlign``); see the module's docstring for the sampling rule."""

    def __init__(self, pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1):
        attrs = _attrs("ROIAlign", pooled_height, pooled_width, spatial_scale, sample_num)
        if isinstance(roi_end_mode, bool) or not isinstance(roi_end_mode, int):
            raise TypeError(f"For 'ROIAlign', the type of 'roi_end_mode' should be 'int', but got type "
                            f"'{type(roi_end_mode).__name__}'.")
        if roi_end_mode not in (0, 1):
            raise ValueError(f"For 'ROIAlign', the 'roi_end_mode' must be in range of [0, 1], but got {roi_end_mode}.")
        super().__init__(**attrs, roi_end_mode=roi_end_mode)

    def infer(self, features, rois):
        _check(self, features.shape, features.dtype, rois)
        return (rois.shape[0], features.shape[1], self.pooled_height, self.pooled_width), features.dtype

    def compute(self, features, rois):
        out = np.zeros((rois.shape[0], features.shape[1], self.pooled_height, self.pooled_width), features.dtype)
        with np.errstate(invalid="ignore", divide="ignore"):
            for r, item in enumerate(_Regions(self, rois, features.shape, self.roi_end_mode).items):
                if item is not None:
                    image, wy, wx, count = item
                    out[r] = (wy @ features[image] @ wx.T) / count
        return out

    def bprop(self, features, rois, out, dout):
        grad = instance(ROIAlignGrad, tuple(features.shape), self.pooled_height, self.pooled_width,
                        self.spatial_scale, self.sample_num)
        return grad(dout, rois), op_table.zeros_like(rois)


class ROIAlignGrad(Primitive):
    """ROIAlign's gradient with respect to the features: dout spread back over each region's samples.

    dx[n, c] = sum over regions r of image n: Wy.T @ dout[r, c] @ Wx / samples, always with
    roi_end_mode=1 geometry (MindSpore's ROIAlignGrad); ``xdiff_shape`` is the features' shape.
    """

    def __init__(self, xdiff_shape, pooled_height, pooled_width, spatial_scale, sample_num=2):
        super().__init__(xdiff_shape=tuple(xdiff_shape),
                         **_attrs("ROIAlignGrad", pooled_height, pooled_width, spatial_scale, sample_num))

    def infer(self, dout, rois):
        _check(self, self.xdiff_shape, dout.dtype, rois)
        expect = (rois.shape[0], self.xdiff_shape[1], self.pooled_height, self.pooled_width)
        if tuple(dout.shape) != expect:
            raise ValueError(f"{self.name}: dy must have shape {expect}, got {tuple(dout.shape)}")
        return self.xdiff_shape, dout.dtype

    def compute(self, dout, rois):
        dx = np.zeros(self.xdiff_shape, dout.dtype)
        with np.errstate(invalid="ignore", divide="ignore"):
            for r, item in enumerate(_Regions(self, rois, self.xdiff_shape, 1).items):
                if item is not None and item[3]:  # no samples: the forward's 0 / 0, but nothing flows back
                    image, wy, wx, count = item
                    dx[image] += (wy.T @ dout[r] @ wx) / count
        return dx

    def bprop(self, dout, rois, out, dx_grad):
        forward = instance(ROIAlign, self.pooled_height, self.pooled_width, self.spatial_scale, self.sample_num, 1)
        return forward(dx_grad, rois), op_table.zeros_like(rois)


op_table.register(globals(), __all__)
