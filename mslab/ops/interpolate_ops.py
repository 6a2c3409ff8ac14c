"""``ops.interpolate``: resize a batch of signals (N, C, L) or images (N, C, H, W), by name of the method.

A functional form made of resize_ops' primitives (ResizeNearestNeighbor, ResizeBilinearV2, ResizeBicubic,
AdaptiveAvgPool2D); their gradients are its gradients. Argument checks and messages as MindSpore 2.10's
(observed on CPU; tests/ops/test_resize_ops.py).
"""
import math

import numpy as np

from mslab.core.op_registry import op_table
from mslab.ops.primitive import instance
from mslab.ops.resize_ops import AdaptiveAvgPool2D, ResizeBicubic, ResizeBilinearV2, ResizeNearestNeighbor

__all__ = []

_MODES = ("nearest", "linear", "bilinear", "bicubic", "area", "nearest-exact", "trilinear")
_RANKS = {"linear": (3,), "bilinear": (4,), "bicubic": (4,), "trilinear": (5,), "nearest": (3, 4, 5),
          "nearest-exact": (3, 4, 5), "area": (3, 4, 5)}  # as MindSpore 2.10 checks them
_MSLAB = ("nearest", "nearest-exact", "linear", "bilinear", "bicubic", "area")  # on 3-D and 4-D inputs


def _out_size(x, size, scale_factor, recompute_scale_factor, mode, nd):
    """The new spatial size from ``size`` or ``scale_factor``, checked as MindSpore's interpolate checks them."""
    where = f"the mode = {mode} and dim = {nd}D"
    if size is not None and scale_factor is not None:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be set simultaneously")
    if size is None and scale_factor is None:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be both empty")
    spatial = tuple(x.shape[2:])
    if size is not None:
        if recompute_scale_factor:
            raise ValueError("For 'interpolate', it is incorrect to set 'recompute_scale_factor' to True after "
                             "specifying an explicit 'size'.")
        size = (size,) * len(spatial) if isinstance(size, (int, np.integer)) else tuple(size)
    else:
        if not recompute_scale_factor and mode != "area":
            raise ValueError(f"For 'interpolate', 'scale_factor' option cannot currently be set with {where}.")
        scales = (scale_factor,) * len(spatial) if not isinstance(scale_factor, (tuple, list)) else scale_factor
        for s in scales:
            if not isinstance(s, float):
                raise TypeError(f"For 'interpolate', the 'scale_factor' must be float, but got '{type(s).__name__}'")
        size = tuple(int(math.floor(n * float(s))) for n, s in zip(spatial, scales))
    if len(size) != len(spatial) or not all(isinstance(s, (int, np.integer)) and s > 0 for s in size):
        raise ValueError(f"For 'interpolate', 'size' must be {len(spatial)} positive ints for {where}, got {size!r}")
    return tuple(int(s) for s in size)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,  # noqa: A002
                recompute_scale_factor=None):
    """``ops.interpolate``: resize (N, C, L) or (N, C, H, W) to ``size`` (or ``floor(in * scale_factor)``).

    mode 'nearest' / 'nearest-exact' (ResizeNearestNeighbor), 'linear' (3-D) / 'bilinear' (4-D)
    (ResizeBilinearV2 with half-pixel centres, or align_corners), 'bicubic' (ResizeBicubic, likewise),
    'area' (AdaptiveAvgPool2D). A 3-D input runs as a 4-D one with H = 1. 'trilinear' and 5-D inputs are
    not implemented in mslab.
    """
    if mode not in _MODES:
        raise ValueError(f"For 'interpolate', 'mode' must be in '{list(_MODES)}', but got {mode}")
    nd = len(input.shape)
    if nd not in _RANKS[mode]:
        raise ValueError(f"For 'interpolate', {mode} only support '{list(_RANKS[mode])}'D, but got {nd}D")
    if mode not in _MSLAB or nd == 5:
        raise NotImplementedError(f"interpolate: mode={mode!r} on a {nd}-D input exists in MindSpore 2.10 but mslab "
                                  f"does not implement it yet (it has {', '.join(map(repr, _MSLAB))} on 3-D and 4-D)")
    if not input.dtype.is_float:
        raise TypeError(f"For 'interpolate', the input must be a float tensor, but got {input.dtype}")
    if align_corners is not None and mode in ("nearest", "nearest-exact", "area"):
        raise ValueError(f"For 'interpolate', 'align_corners' option cannot currently be set with the mode = {mode}, "
                         f"and dim = {nd}D")
    size = _out_size(input, size, scale_factor, recompute_scale_factor, mode, nd)
    if nd == 3:
        if mode == "area" and input.shape[-1] % size[0]:
            raise ValueError(f"For adaptive_avg_pool1d input's last dimension must be divisible by output size "
                             f"{size[0]}, but got {input.shape[-1]}.")
        x4 = op_table.reshape(input, tuple(input.shape[:2]) + (1, input.shape[2]))
        out = interpolate(x4, (1,) + size, None, "bilinear" if mode == "linear" else mode, align_corners)
        return op_table.reshape(out, tuple(out.shape[:2]) + (out.shape[3],))
    if mode in ("nearest", "nearest-exact"):
        return instance(ResizeNearestNeighbor, size, False, mode == "nearest-exact")(input)
    if mode == "area":
        return instance(AdaptiveAvgPool2D, size)(input)
    resize = ResizeBicubic if mode == "bicubic" else ResizeBilinearV2
    return instance(resize, bool(align_corners), not align_corners, size)(input)


__all__ += ["interpolate"]
op_table.register(globals(), __all__)
