"""Image resizing (NCHW): ResizeNearestNeighbor, ResizeBilinearV2, ResizeBicubic, AdaptiveAvgPool2D.

Each output pixel reads the input along H and W independently, so a resize is one rule per axis:

    nearest        out[i] = x[src(i)]      src = floor(i * in/out)            (align_corners: round(i * (in-1)/(out-1)))
    nearest-exact  out[i] = x[src(i)]      src = floor((i + 0.5) * in/out)
    linear         out[i] = (1-t) x[lo] + t x[lo+1], with the source coordinate s = lo + t
                   s = i * in/out (legacy), (i + 0.5) * in/out - 0.5 (half pixel), i * (in-1)/(out-1) (align_corners)
    cubic          out[i] = sum of 4 inputs around s, weighted by Keys' cubic kernel (``cubic_matrix``)
    area           out[i] = mean of x[floor(i*in/out) : ceil((i+1)*in/out)]   (adaptive average pooling)

``ops.interpolate`` (interpolate_ops) picks one of them by name. Nearest gathers (its gradient scatter-adds
dout back); linear, cubic and area are linear maps ``W`` (out x in) per
axis, out = W_h x W_w^T, whose gradient is the transposed map dx = W_h^T dout W_w. Rules and numbers as
MindSpore 2.10's CPU kernels (observed; see tests/ops/test_resize_ops.py).
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor
from mslab.ops.primitive import Primitive, check_float, hashable, instance

__all__ = ["ResizeNearestNeighbor", "ResizeNearestNeighborGrad", "ResizeBilinearV2", "ResizeBilinearGrad",
           "ResizeBicubic", "ResizeBicubicGrad", "AdaptiveAvgPool2D", "AdaptiveAvgPool2DGrad"]


# ---- the per-axis rules ---------------------------------------------------------------------------------
def nearest_index(n_in, n_out, align_corners=False, exact=False):
    """Source index of each of the ``n_out`` outputs (see the module docstring)."""
    i = np.arange(n_out, dtype=np.float64)
    if align_corners:
        scale = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
        src = np.floor(i * scale + 0.5)  # C's roundf: halves away from zero
    elif exact:
        src = np.floor((i + 0.5) * (n_in / n_out))
    else:
        src = np.floor(i * (n_in / n_out))
    return np.minimum(src, n_in - 1).astype(np.intp)


def source_coordinate(n_in, n_out, align_corners=False, half_pixel=False):
    """Where each of the ``n_out`` outputs reads the input, as a real coordinate (see the module docstring)."""
    i = np.arange(n_out, dtype=np.float64)
    if align_corners:
        return i * ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0)
    if half_pixel:
        return (i + 0.5) * (n_in / n_out) - 0.5
    return i * (n_in / n_out)


def linear_matrix(n_in, n_out, align_corners=False, half_pixel=False):
    """The (n_out, n_in) matrix of linear interpolation along one axis."""
    src = source_coordinate(n_in, n_out, align_corners, half_pixel)
    floor = np.floor(src)
    lo = np.clip(floor, 0, n_in - 1).astype(np.intp)
    hi = np.clip(np.ceil(src), 0, n_in - 1).astype(np.intp)
    t = src - floor
    w = np.zeros((n_out, n_in))
    np.add.at(w, (np.arange(n_out), lo), 1.0 - t)
    np.add.at(w, (np.arange(n_out), hi), t)
    return w


def cubic_matrix(n_in, n_out, align_corners=False, half_pixel=False):
    """The (n_out, n_in) matrix of bicubic interpolation along one axis (MindSpore's ResizeBicubic kernel).

    Keys' cubic kernel on the 4 inputs around each source coordinate s, with a = -0.5 and the taps that fall
    outside the input dropped (weights renormalised) for half-pixel centres, else a = -0.75 and the taps
    clamped to the edge; the fraction t = s - floor(s) is rounded to 1/1024, as the kernel's weight table.
    """
    src = source_coordinate(n_in, n_out, align_corners, half_pixel)
    floor = np.floor(src)
    t = np.round((src - floor) * 1024) / 1024
    a = -0.5 if half_pixel else -0.75

    def near(d):  # |d| <= 1
        return ((a + 2) * d - (a + 3)) * d * d + 1

    def far(d):  # 1 < |d| < 2
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
    w = np.zeros((n_out, n_in))
    for k, weight in enumerate((far(t + 1), near(t), near(1 - t), far(2 - t))):
        tap = floor.astype(np.intp) - 1 + k
        if half_pixel:
            weight = np.where((tap >= 0) & (tap < n_in), weight, 0.0)
        np.add.at(w, (np.arange(n_out), np.clip(tap, 0, n_in - 1)), weight)
    return w / w.sum(axis=1, keepdims=True) if half_pixel else w


def area_matrix(n_in, n_out):
    """The (n_out, n_in) matrix of adaptive average pooling along one axis."""
    w = np.zeros((n_out, n_in))
    for i in range(n_out):
        start, end = (i * n_in) // n_out, -((-(i + 1) * n_in) // n_out)
        w[i, start:end] = 1.0 / (end - start)
    return w


def _shape(v):
    return tuple(v.shape)


def _check_4d(name, x):
    if len(x.shape) != 4:
        raise ValueError(f"For primitive[{name}], the image rank must be equal to 4, but got {len(x.shape)}.")


def _size(name, size):
    if not isinstance(size, (tuple, list)) or len(size) != 2 or not all(
            isinstance(s, (int, np.integer)) and not isinstance(s, bool) and s > 0 for s in size):
        raise TypeError(f"For '{name}', the type of 'size' should be one of '[list of int, tuple of int]' "
                        f"with two positive ints, but got {size!r}.")
    return tuple(int(s) for s in size)


# ---- nearest ------------------------------------------------------------------------------------------------
class ResizeNearestNeighbor(Primitive):
    """``ops.ResizeNearestNeighbor(size, align_corners=False)(x)``: x (N, C, H, W) -> (N, C, *size), any dtype.

    d/dx = ResizeNearestNeighborGrad: each output's dout added to the input pixel it copied.
    ``exact=True`` (mslab's, for interpolate's 'nearest-exact') reads pixel centres.
    """

    n_tensors = 1

    def __init__(self, size, align_corners=False, exact=False):
        super().__init__(size=_size("ResizeNearestNeighbor", size), align_corners=bool(align_corners),
                         exact=bool(exact))

    def index(self, in_hw):
        (h, w), (oh, ow) = in_hw, self.size
        return (nearest_index(h, oh, self.align_corners, self.exact)[:, None],
                nearest_index(w, ow, self.align_corners, self.exact)[None, :])

    def infer(self, x):
        _check_4d(self.name, x)
        return _shape(x)[:2] + self.size, x.dtype

    def compute(self, x):
        rows, cols = self.index(x.shape[2:])
        return np.ascontiguousarray(x[:, :, rows, cols])

    def bprop(self, x, out, dout):
        return (instance(ResizeNearestNeighborGrad, **self.attrs)(x, dout),)


class ResizeNearestNeighborGrad(ResizeNearestNeighbor):
    """``(x, dout) -> dx``: dout scatter-added to the pixels ResizeNearestNeighbor copied (x gives the shape)."""

    n_tensors = 2

    def infer(self, x, dout):
        _check_4d(self.name, x)
        if _shape(dout) != _shape(x)[:2] + self.size:
            raise ValueError(f"dout of shape {_shape(x)[:2] + self.size} expected, got {_shape(dout)}")
        return _shape(x), dout.dtype

    def compute(self, x, dout):
        rows, cols = np.broadcast_arrays(*self.index(x.shape[2:]))
        dx = np.zeros(x.shape, dout.dtype)
        np.add.at(dx, (slice(None), slice(None), rows, cols), dout)
        return dx

    def bprop(self, x, dout, out, g):
        return None, instance(ResizeNearestNeighbor, **self.attrs)(g)


# ---- linear maps per axis: bilinear, area -------------------------------------------------------------------------
class _Separable(Primitive):
    """out = W_h x W_w^T over the last two axes; subclasses give ``matrices(in_hw)`` and ``out_hw(x_shape)``."""

    n_tensors = 1
    grad_class = None

    def matrices(self, in_hw):
        raise NotImplementedError

    def out_hw(self, x_shape):
        raise NotImplementedError

    def infer(self, x):
        check_float(self, x)
        return _shape(x)[:-2] + self.out_hw(_shape(x)), x.dtype

    def compute(self, x):
        wh, ww = self.matrices(x.shape[-2:])
        return (wh @ x.astype(np.float64) @ ww.T).astype(x.dtype)

    def bprop(self, x, *rest):
        dout = rest[-1]
        return (instance(self.grad_class, **self.attrs)(x, dout),)


class _SeparableGrad(Primitive):
    """dx = W_h^T dout W_w for the forward class ``forward`` (x gives the shape); linear in dout."""

    n_tensors = 2
    forward = None

    def infer(self, x, dout):
        fwd = self.forward(**self.attrs)
        expected = _shape(x)[:-2] + fwd.out_hw(_shape(x))
        if _shape(dout) != expected:
            raise ValueError(f"dout of shape {expected} expected, got {_shape(dout)}")
        return _shape(x), dout.dtype

    def compute(self, x, dout):
        wh, ww = self.forward(**self.attrs).matrices(x.shape[-2:])
        return (wh.T @ dout.astype(np.float64) @ ww).astype(dout.dtype)

    def bprop(self, x, dout, out, g):
        return None, instance(self.forward, **self.attrs)(g)


class _ResizeV2(_Separable):
    """``(align_corners=False, half_pixel_centers=False)(x, size)``: a resize of x (N, C, H, W) to ``size``.

    ``size`` is (new_h, new_w): a tuple, or a tensor whose numbers mslab reads (a constant of the graph).
    """

    axis_matrix = None

    def __init__(self, align_corners=False, half_pixel_centers=False, size=None):
        super().__init__(align_corners=bool(align_corners), half_pixel_centers=bool(half_pixel_centers),
                         size=None if size is None else _size(type(self).__name__, size))

    def __call__(self, x, size=None):
        if size is None:
            return super().__call__(x)
        if isinstance(size, Tensor):  # MindSpore also takes the size as a tensor; mslab reads its numbers
            size = tuple(int(v) for v in size.asnumpy().reshape(-1))
        size = _size(self.name, hashable(size))
        return instance(type(self), self.align_corners, self.half_pixel_centers, size)(x)

    def out_hw(self, x_shape):
        if self.size is None:
            raise TypeError(f"{self.name} needs the output size: call it as {self.name}()(x, (h, w))")
        return self.size

    def infer(self, x):
        _check_4d(self.name, x)
        return super().infer(x)

    def matrices(self, in_hw):
        make = type(self).axis_matrix
        return tuple(make(n, m, self.align_corners, self.half_pixel_centers) for n, m in zip(in_hw, self.size))


class ResizeBilinearV2(_ResizeV2):
    """``ops.ResizeBilinearV2(align_corners=False, half_pixel_centers=False)(x, size)``: bilinear resize, NCHW.

    Source coordinates as in the module docstring; align_corners and half_pixel_centers cannot both be True
    (MindSpore's rule). d/dx = ResizeBilinearGrad.
    """

    axis_matrix = staticmethod(linear_matrix)

    def __init__(self, align_corners=False, half_pixel_centers=False, size=None):
        if align_corners and half_pixel_centers:
            raise ValueError("For ResizeBilinearV2, the half_pixel_centers must be false when align_corners is "
                             "true, but half_pixel_centers got True.")
        super().__init__(align_corners, half_pixel_centers, size)


class ResizeBicubic(_ResizeV2):
    """``ops.ResizeBicubic(align_corners=False, half_pixel_centers=False)(x, size)``: bicubic resize, NCHW.

    Weights as ``cubic_matrix`` says (MindSpore's kernel, numbers observed). d/dx = ResizeBicubicGrad.
    """

    axis_matrix = staticmethod(cubic_matrix)


class ResizeBilinearGrad(_SeparableGrad):
    """ResizeBilinearV2's backward kernel ``(x, dout) -> dx``."""

    forward = ResizeBilinearV2


class ResizeBicubicGrad(_SeparableGrad):
    """ResizeBicubic's backward kernel ``(x, dout) -> dx``."""

    forward = ResizeBicubic


class AdaptiveAvgPool2D(_Separable):
    """``ops.AdaptiveAvgPool2D(output_size)(x)``: mean over adaptive windows, x (C, H, W) or (N, C, H, W).

    Output pixel (i, j) averages rows floor(i*H/oh) .. ceil((i+1)*H/oh) - 1 and likewise the columns;
    ``output_size`` is an int or (oh, ow), where None keeps that input size. d/dx = AdaptiveAvgPool2DGrad.
    """

    def __init__(self, output_size):
        if isinstance(output_size, (int, np.integer)) and not isinstance(output_size, bool):
            output_size = (int(output_size),) * 2
        if not isinstance(output_size, (tuple, list)) or len(output_size) != 2:
            n = len(output_size) if isinstance(output_size, (tuple, list)) else output_size
            raise ValueError(f"For 'AdaptiveAvgPool2D', the 'length of output_size' must be int and must = 2, but "
                             f"got '{n}' with type 'int'.")
        for s in output_size:
            if s is not None and (not isinstance(s, (int, np.integer)) or s <= 0):
                raise ValueError(f"For 'AdaptiveAvgPool2D', each of 'output_size' must be a positive int or None, "
                                 f"got {output_size!r}")
        super().__init__(output_size=tuple(output_size))

    def out_hw(self, x_shape):
        return tuple(x_shape[k - 2] if s is None else s for k, s in enumerate(self.output_size))

    def infer(self, x):
        if len(x.shape) not in (3, 4):
            raise ValueError(f"For primitive[AdaptiveAvgPool2D], the dim of x must be in [3,4], but got "
                             f"{len(x.shape)}.")
        if x.dtype.kind != "f":
            raise TypeError(f"For primitive[AdaptiveAvgPool2D], the input argument[x] must be a type of "
                            f"{{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got "
                            f"Tensor[{mstype.from_numpy(x.dtype)}].")
        return super().infer(x)

    def matrices(self, in_hw):
        return tuple(area_matrix(n, m) for n, m in zip(in_hw, self.out_hw((0, 0) + tuple(in_hw))))


class AdaptiveAvgPool2DGrad(_SeparableGrad):
    """AdaptiveAvgPool2D's backward kernel ``(x, dout) -> dx``: each window's dout / its size spread over it."""

    forward = AdaptiveAvgPool2D


ResizeBilinearV2.grad_class = ResizeBilinearGrad
ResizeBicubic.grad_class = ResizeBicubicGrad
AdaptiveAvgPool2D.grad_class = AdaptiveAvgPool2DGrad


# ---- functional forms ---------------------------------------------------------------------------------
def adaptive_avg_pool2d(input, output_size):  # noqa: A002 - MindSpore's argument name
    """``ops.adaptive_avg_pool2d``: AdaptiveAvgPool2D(output_size)(input)."""
    return instance(AdaptiveAvgPool2D, hashable(output_size))(input)


__all__ += ["adaptive_avg_pool2d"]
op_table.register(globals(), __all__)
