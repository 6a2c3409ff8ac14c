"""Sampling an image at given points: ``ops.grid_sample`` (MindSpore's GridSampler2D, PyTorch's grid_sample).

``grid_sample(input, grid, mode='bilinear', padding_mode='zeros', align_corners=None)`` with input (N, C, H, W)
and grid (N, Ho, Wo, 2) of (x, y) points in [-1, 1] gives (N, C, Ho, Wo). A point's pixel coordinates:

    align_corners=True:   ix = (x + 1) / 2 * (W - 1)          (-1 and 1 are the centres of the corner pixels)
    align_corners=False:  ix = ((x + 1) * W - 1) / 2          (-1 and 1 are the corner pixels' outer edges)

then padding_mode: 'zeros' leaves ix (pixels outside count as 0), 'border' clips it to [0, W - 1], 'reflection'
reflects it about the borders (the centres of the corner pixels, or their edges without align_corners) and
clips. 'bilinear' mixes the four neighbouring pixels, 'nearest' takes the nearest (halves away from zero).

Gradients (GridSampler2DGrad): the input's puts dout back on the pixels each point read; the grid's (bilinear) is
dout times the image's slope at the point, times d ix / d x (W / 2 or (W - 1) / 2, by 0 where 'border' clipped,
-1 where 'reflection' mirrored); nearest gives the grid a zero gradient. As observed on MindSpore 2.10 CPU
(docs/mindspore_observed/opsthree.md).
"""
import numpy as np

from mslab.core.op_registry import op_table
from mslab.ops.primitive import Primitive, instance

__all__ = ["GridSampler2D", "GridSampler2DGrad"]

_MODES = ("bilinear", "nearest")
_PADDINGS = ("zeros", "border", "reflection")


def _reflect(c, twice_low, twice_high):
    """c reflected into [twice_low / 2, twice_high / 2], and d(result)/dc (+1 or -1)."""
    if twice_low == twice_high:
        return np.zeros_like(c), np.zeros_like(c)
    low, span = twice_low / 2, (twice_high - twice_low) / 2
    c = c - low
    sign = np.where(c < 0, -1.0, 1.0)
    c = np.abs(c)
    extra, flips = np.fmod(c, span), np.floor(c / span)
    even = flips % 2 == 0
    return np.where(even, extra + low, span - extra + low), np.where(even, sign, -sign)


def _source(coord, size, padding, align):
    """Pixel coordinates of normalised ``coord`` along an axis of ``size``, and d(pixel)/d(coord)."""
    if align:
        c, mult = (coord + 1) / 2 * (size - 1), np.full(coord.shape, (size - 1) / 2)
    else:
        c, mult = ((coord + 1) * size - 1) / 2, np.full(coord.shape, size / 2)
    if padding == "reflection":
        c, g = _reflect(c, 0, 2 * (size - 1)) if align else _reflect(c, -1, 2 * size - 1)
        mult = mult * g
    if padding in ("border", "reflection"):
        inside = (c > 0) & (c < size - 1)
        mult = np.where(inside, mult, 0.0)
        c = np.clip(c, 0, size - 1)
    return c, mult


def _round_half_away(c):
    """The nearest integer, halves away from zero (C's round, as MindSpore's kernel: 2.5 -> 3, -0.5 -> -1)."""
    return (np.sign(c) * np.floor(np.abs(c) + 0.5)).astype(np.int64)


def _corners(prim, x, grid):
    """For each sample point: a list of (weight, y index, x index, inside) corners, plus the pieces of the grid
    gradient: ix, iy, the floors and the multipliers."""
    _, _, h, w = x.shape
    ix, mx = _source(grid[..., 0].astype(np.float64), w, prim.padding_mode, prim.align_corners)
    iy, my = _source(grid[..., 1].astype(np.float64), h, prim.padding_mode, prim.align_corners)
    if prim.mode == "nearest":
        xs, ys = _round_half_away(ix), _round_half_away(iy)
        return [(np.ones_like(ix), ys, xs)], (ix, iy, mx, my)
    x0, y0 = np.floor(ix).astype(np.int64), np.floor(iy).astype(np.int64)
    fx, fy = ix - x0, iy - y0
    corners = [((1 - fx) * (1 - fy), y0, x0), (fx * (1 - fy), y0, x0 + 1),
               ((1 - fx) * fy, y0 + 1, x0), (fx * fy, y0 + 1, x0 + 1)]
    return corners, (ix, iy, mx, my)


def _gather(x, ys, xs):
    """x[n, :, ys, xs] for index arrays (N, Ho, Wo) -> (N, C, Ho, Wo), 0 outside the image; and the inside mask."""
    n, _, h, w = x.shape
    inside = (ys >= 0) & (ys < h) & (xs >= 0) & (xs < w)
    yc, xc = np.clip(ys, 0, h - 1), np.clip(xs, 0, w - 1)
    v = x[np.arange(n)[:, None, None], :, yc, xc]  # (N, Ho, Wo, C)
    return np.moveaxis(v, -1, 1) * inside[:, None], inside


class GridSampler2D(Primitive):
    """``GridSampler2D(interpolation_mode, padding_mode, align_corners)(input, grid)``: see the module docstring."""

    n_tensors = 2

    def __init__(self, interpolation_mode="bilinear", padding_mode="zeros", align_corners=False):
        super().__init__(mode=interpolation_mode, padding_mode=padding_mode, align_corners=bool(align_corners))

    def infer(self, x, grid):
        if len(x.shape) != 4 or len(grid.shape) != 4 or grid.shape[-1] != 2 or grid.shape[0] != x.shape[0]:
            raise ValueError(f"For 'grid_sample', mslab takes a 4-D input (N, C, H, W) and a grid (N, H_out, W_out, "
                             f"2) with the same N, but got input {tuple(x.shape)} and grid {tuple(grid.shape)} (5-D "
                             f"volumes are not implemented yet)")
        return (x.shape[0], x.shape[1], grid.shape[1], grid.shape[2]), x.dtype

    def compute(self, x, grid):
        corners, _ = _corners(self, x, grid)
        xd = x.astype(np.float64)
        out = sum(_gather(xd, ys, xs)[0] * wt[:, None] for wt, ys, xs in corners)
        return out.astype(x.dtype)

    def bprop(self, x, grid, out, dout, needs):
        prim = instance(GridSampler2DGrad, self.mode, self.padding_mode, self.align_corners, want="input")
        dx = prim(dout, x, grid) if needs[0] else None
        dgrid = instance(GridSampler2DGrad, self.mode, self.padding_mode, self.align_corners,
                         want="grid")(dout, x, grid) if needs[1] else None
        return dx, dgrid


class GridSampler2DGrad(Primitive):
    """``GridSampler2DGrad(mode, padding_mode, align_corners, want)(dout, input, grid)``: the input's
    (want='input') or the grid's (want='grid') gradient of GridSampler2D."""

    n_tensors = 3
    differentiable = False

    def __init__(self, mode="bilinear", padding_mode="zeros", align_corners=False, want="input"):
        super().__init__(mode=mode, padding_mode=padding_mode, align_corners=bool(align_corners), want=want)

    def infer(self, dout, x, grid):
        return (tuple(x.shape), x.dtype) if self.want == "input" else (tuple(grid.shape), grid.dtype)

    def compute(self, dout, x, grid):
        corners, (ix, iy, mx, my) = _corners(self, x, grid)
        g = dout.astype(np.float64)
        if self.want == "input":
            dx = np.zeros(x.shape, np.float64)
            n_idx = np.broadcast_to(np.arange(x.shape[0])[:, None, None], ix.shape)
            for wt, ys, xs in corners:
                _, inside = _gather(dx, ys, xs)
                contrib = np.moveaxis(g * wt[:, None], 1, -1)  # (N, Ho, Wo, C)
                np.add.at(dx, (n_idx[inside], slice(None), ys[inside], xs[inside]), contrib[inside])
            return dx.astype(x.dtype)
        if self.mode == "nearest":
            return np.zeros(grid.shape, grid.dtype)
        xd = x.astype(np.float64)
        (_, y0, x0), ((_, _, x1)), ((_, y1, _)) = corners[0], corners[1], corners[2]
        fx, fy = ix - x0, iy - y0
        v = {(a, b): _gather(xd, ya, xb)[0] for a, ya in ((0, y0), (1, y1)) for b, xb in ((0, x0), (1, x1))}
        d_ix = (v[0, 1] - v[0, 0]) * (1 - fy)[:, None] + (v[1, 1] - v[1, 0]) * fy[:, None]
        d_iy = (v[1, 0] - v[0, 0]) * (1 - fx)[:, None] + (v[1, 1] - v[0, 1]) * fx[:, None]
        gx = (g * d_ix).sum(axis=1) * mx
        gy = (g * d_iy).sum(axis=1) * my
        return np.stack([gx, gy], axis=-1).astype(grid.dtype)


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):  # noqa: A002
    """``ops.grid_sample``: ``input`` (N, C, H, W) sampled at ``grid`` (N, Ho, Wo, 2) points; see the module doc."""
    if mode not in _MODES:
        raise ValueError(f"For 'grid_sample', mslab implements the 'mode' {list(_MODES)} for 4-D inputs, but got "
                         f"{mode!r}.")
    if padding_mode not in _PADDINGS:
        raise ValueError(f"For 'grid_sample', the 'padding_mode' must be in {list(_PADDINGS)}, but got "
                         f"{padding_mode!r}.")
    return instance(GridSampler2D, mode, padding_mode, bool(align_corners))(input, grid)


__all__ += ["grid_sample"]
op_table.register(globals(), __all__)
