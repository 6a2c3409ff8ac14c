"""Object detection's box arithmetic: encode/decode, IoU, validity, and random picks of positive samples.

The primitives SSD, Faster R-CNN and YOLO code imports as ``P.X`` from ``mindspore.ops.operations``, each
computing what MindSpore 2.10's CPU kernel computes (NMSWithMask is in nms_ops, ROIAlign in roi_align_ops).
A box is ``(x0, y0, x1, y1)``; BoundingBoxEncode, BoundingBoxDecode and IOU count pixels inclusively (a
box from x0 = 0 to x1 = 9 is 10 wide: the "+1" convention).

Gradients, as in MindSpore 2.10: IOU's are zeros; BoundingBoxEncode and BoundingBoxDecode have no bprop,
and a gradient that reaches one raises ``RuntimeError: Illegal primitive <name>'s bprop not defined``.
MindSpore raises so for CheckValid and RandomChoiceWithMask too; in mslab no gradient flows through a Bool
value (CheckValid's output, RandomChoiceWithMask's input), so there the gradient is zeros instead.
"""
import warnings

import numpy as np

from mslab.core import dtype as mstype
from mslab.core import seed as _seed
from mslab.core.op_registry import op_table
from mslab.ops.primitive import Primitive, instance

__all__ = ["BoundingBoxEncode", "BoundingBoxDecode", "IOU", "CheckValid", "RandomChoiceWithMask"]

FLOATS = (np.float16, np.float32)


def no_bprop(name):
    """What MindSpore 2.10 says when a gradient reaches a primitive it cannot differentiate."""
    raise RuntimeError(f"Illegal primitive {name}'s bprop not defined (MindSpore has no gradient for {name}; "
                       f"wrap its inputs in ops.stop_gradient)")


def check_dtypes(prim, allowed, *vals):
    """A TypeError naming the op unless every input has one dtype, among ``allowed``."""
    for v in vals:
        if v.dtype.type not in allowed:
            names = ", ".join(str(mstype.from_numpy(np.dtype(a))) for a in allowed)
            raise TypeError(f"{prim.name} needs {names} inputs, got {mstype.from_numpy(v.dtype)}")
    if len({v.dtype for v in vals}) > 1:
        raise TypeError(f"{prim.name} needs inputs of one dtype, got "
                        f"{' and '.join(str(mstype.from_numpy(v.dtype)) for v in vals)}")


def check_boxes(prim, name, v, n=None, cols=4):
    """A ValueError naming the op unless ``v`` is a (n, cols) table of boxes."""
    shape = tuple(v.shape)
    if len(shape) != 2 or shape[1] != cols or (n is not None and shape[0] != n):
        rows = "N" if n is None else n
        raise ValueError(f"{prim.name}: {name} must have shape ({rows}, {cols}), got {shape}")


def box_pair(prim, anchor_box, name, other):
    """Shape and dtype of an encode/decode: anchors (n, 4) and ``other`` (n, 4), both Float16 or Float32."""
    check_dtypes(prim, FLOATS, anchor_box, other)
    check_boxes(prim, "anchor_box", anchor_box)
    check_boxes(prim, name, other, anchor_box.shape[0])
    return tuple(anchor_box.shape), anchor_box.dtype


def float_tuple(prim, name, value, length):
    """MindSpore's checks of a means / stds / max_shape attribute: a tuple, of floats, of ``length``."""
    if not isinstance(value, tuple):
        raise TypeError(f"For '{prim}', the type of '{name}' should be 'tuple', but got type "
                        f"'{type(value).__name__}'.")
    if name != "max_shape":
        for i, v in enumerate(value):
            if not isinstance(v, float):
                raise TypeError(f"For '{prim}', the type of '{name}[{i}]' should be 'float', but got type "
                                f"'{type(v).__name__}'.")
    if len(value) != length:
        raise ValueError(f"For '{prim}', the '{name} len' must be {length}, but got {len(value)}.")
    return value


def _log(x):
    """log rounded once to x's dtype: nearer the kernel's than numpy's float32 log (1-ulp differences in 15
    rather than 204 of 2000 encoded values, docs/mindspore_observed/detect.md)."""
    return np.log(x.astype(np.float64)).astype(x.dtype)


def _exp(x):
    """exp rounded once to x's dtype: 2000 decoded values equal MindSpore's (numpy's float32 exp: 142 an ulp off)."""
    return np.exp(x.astype(np.float64)).astype(x.dtype)


def _centre_size(boxes, one):
    """Centres and inclusive sizes (x1 - x0 + 1) of (n, 4) boxes, in their own dtype."""
    x0, y0, x1, y1 = boxes.T
    half = boxes.dtype.type(0.5)
    return (x0 + x1) * half, (y0 + y1) * half, x1 - x0 + one, y1 - y0 + one


class BoundingBoxEncode(Primitive):
    """Offsets taking anchor boxes to ground-truth boxes (``P.BoundingBoxEncode(means, stds)``).

    With centres p, g and inclusive sizes (x1 - x0 + 1): d = ((gx - px) / pw, (gy - py) / ph,
    log(gw / pw), log(gh / ph)), normalised as (d - means) / stds. Float16 or Float32, shape (n, 4).
    """

    n_tensors = None

    def __init__(self, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)):
        super().__init__(means=float_tuple("BoundingBoxEncode", "means", means, 4),
                         stds=float_tuple("BoundingBoxEncode", "stds", stds, 4))

    def infer(self, anchor_box, groundtruth_box):
        return box_pair(self, anchor_box, "groundtruth_box", groundtruth_box)

    def compute(self, anchor_box, groundtruth_box):
        t = anchor_box.dtype.type
        px, py, pw, ph = _centre_size(anchor_box, t(1))
        gx, gy, gw, gh = _centre_size(groundtruth_box, t(1))
        with np.errstate(divide="ignore", invalid="ignore"):
            d = np.stack([(gx - px) / pw, (gy - py) / ph, _log(gw / pw), _log(gh / ph)], axis=1)
            return ((d - np.array(self.means, d.dtype)) / np.array(self.stds, d.dtype)).astype(d.dtype)

    def bprop(self, anchor_box, groundtruth_box, out, dout):
        no_bprop(self.name)


class BoundingBoxDecode(Primitive):
    """Boxes from anchors and offsets, the inverse of BoundingBoxEncode (``P.BoundingBoxDecode``).

    d = deltas * stds + means; the size offsets are clipped to |log(wh_ratio_clip)|; then
    g = (px + pw dx, py + ph dy, pw exp(dw), ph exp(dh)) and the box (gx - gw/2 + 0.5, gy - gh/2 + 0.5,
    gx + gw/2 - 0.5, gy + gh/2 - 0.5), clipped to x in [0, max_shape[1]], y in [0, max_shape[0]].
    """

    n_tensors = None

    def __init__(self, max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0), wh_ratio_clip=0.016):
        if not isinstance(wh_ratio_clip, float):
            raise TypeError(f"For 'BoundingBoxDecode', the type of 'wh_ratio_clip' should be 'float', but got type "
                            f"'{type(wh_ratio_clip).__name__}'.")
        if max_shape is not None:
            float_tuple("BoundingBoxDecode", "max_shape", max_shape, 2)
        super().__init__(max_shape=max_shape, means=float_tuple("BoundingBoxDecode", "means", means, 4),
                         stds=float_tuple("BoundingBoxDecode", "stds", stds, 4), wh_ratio_clip=wh_ratio_clip)

    def infer(self, anchor_box, deltas):
        if self.max_shape is None:
            raise ValueError("BoundingBoxDecode: max_shape is None; give the image size as a tuple (height, width)")
        return box_pair(self, anchor_box, "deltas", deltas)

    def compute(self, anchor_box, deltas):
        t = anchor_box.dtype.type
        px, py, pw, ph = _centre_size(anchor_box, t(1))
        d = deltas * np.array(self.stds, deltas.dtype) + np.array(self.means, deltas.dtype)
        limit = t(abs(np.log(np.float32(self.wh_ratio_clip))))
        dw, dh = np.clip(d[:, 2], -limit, limit), np.clip(d[:, 3], -limit, limit)
        gx, gy = px + pw * d[:, 0], py + ph * d[:, 1]
        gw, gh = pw * _exp(dw), ph * _exp(dh)
        half = t(0.5)
        out = np.stack([gx - gw * half + half, gy - gh * half + half, gx + gw * half - half, gy + gh * half - half], 1)
        height, width = t(self.max_shape[0]), t(self.max_shape[1])
        return np.clip(out, t(0), np.array([width, height, width, height], out.dtype)).astype(out.dtype)

    def bprop(self, anchor_box, deltas, out, dout):
        no_bprop(self.name)


class IOU(Primitive):
    """Intersection over union of every (gt box, anchor box) pair, shape (M, N) (``P.IOU(mode)``).

    anchor_boxes (N, 4), gt_boxes (M, 4); areas and overlaps count pixels inclusively:
    iou = overlap / (area_anchor + area_gt - overlap + 1e-10), iof = overlap / (area_gt + 1e-10).
    Its gradient is zeros, as MindSpore 2.10 gives.
    """

    n_tensors = None

    def __init__(self, mode="iou"):
        if mode not in ("iou", "iof"):
            raise KeyError(f"For 'IOU', only 'iou' or 'iof' are supported, but got 'mode': {mode}.")
        super().__init__(mode=mode)

    def infer(self, anchor_boxes, gt_boxes):
        check_dtypes(self, FLOATS + (np.float64,), anchor_boxes, gt_boxes)
        check_boxes(self, "anchor_boxes", anchor_boxes)
        check_boxes(self, "gt_boxes", gt_boxes)
        return (gt_boxes.shape[0], anchor_boxes.shape[0]), anchor_boxes.dtype

    def compute(self, anchor_boxes, gt_boxes):
        t = anchor_boxes.dtype.type
        a, g = anchor_boxes[None, :, :], gt_boxes[:, None, :]  # rows: gt boxes, columns: anchors
        w = np.maximum(t(0), np.minimum(a[..., 2], g[..., 2]) - np.maximum(a[..., 0], g[..., 0]) + t(1))
        h = np.maximum(t(0), np.minimum(a[..., 3], g[..., 3]) - np.maximum(a[..., 1], g[..., 1]) + t(1))
        overlap = w * h
        area_a = (a[..., 2] - a[..., 0] + t(1)) * (a[..., 3] - a[..., 1] + t(1))
        area_g = (g[..., 2] - g[..., 0] + t(1)) * (g[..., 3] - g[..., 1] + t(1))
        union = area_g + t(1e-10) if self.mode == "iof" else area_a + area_g - overlap + t(1e-10)
        with np.errstate(divide="ignore", invalid="ignore"):
            return (overlap / union).astype(anchor_boxes.dtype)

    def bprop(self, anchor_boxes, gt_boxes, out, dout):
        return op_table.zeros_like(anchor_boxes), op_table.zeros_like(gt_boxes)


class CheckValid(Primitive):
    """Whether each box lies inside the image (``P.CheckValid()(bboxes, img_metas)``), Bool (N,).

    img_metas = (height, width, ratio): a box is valid when x0 >= 0, y0 >= 0, x1 <= width * ratio - 1
    and y1 <= height * ratio - 1. Deprecated in MindSpore 2.10 (it warns once, as MindSpore does).
    MindSpore's CPU kernel accepts img_metas of another dtype than bboxes; mslab casts it to bboxes' dtype.
    """

    n_tensors = None
    _warned = False

    def __init__(self):
        if not CheckValid._warned:
            CheckValid._warned = True
            warnings.warn("'CheckValid' is deprecated from version 2.10.0 and will be removed in a future version.",
                          DeprecationWarning, stacklevel=2)
        super().__init__()

    def infer(self, bboxes, img_metas):
        allowed = FLOATS + (np.int16, np.uint8)
        check_dtypes(self, allowed, bboxes)
        check_dtypes(self, allowed, img_metas)
        check_boxes(self, "bboxes", bboxes)
        if tuple(img_metas.shape) != (3,):
            raise ValueError(f"CheckValid: img_metas must be (height, width, ratio), shape (3,), got "
                             f"{tuple(img_metas.shape)}")
        return (bboxes.shape[0],), np.dtype(np.bool_)

    def compute(self, bboxes, img_metas):
        height, width, ratio = (float(v) for v in img_metas.astype(bboxes.dtype))
        x0, y0, x1, y1 = bboxes.astype(np.float64).T  # the kernel compares the far edges in double
        return (x0 >= 0) & (y0 >= 0) & (x1 <= width * ratio - 1.0) & (y1 <= height * ratio - 1.0)

    def bprop(self, bboxes, img_metas, out, dout):
        no_bprop(self.name)


# ---- random choice -------------------------------------------------------------------------------------------------
class RandomChoiceWithMask(Primitive):
    """``count`` randomly chosen True positions of a Bool tensor (``P.RandomChoiceWithMask(count, seed, seed2)``).

    Returns (index Int32 (count, rank), mask Bool (count,)). With fewer True positions than ``count``, all of
    them come first (in random order) and the rest are rows of zeros with mask False. As MindSpore 2.10's
    CPU kernel, a position is written as (i // (size / shape[0]), 0, ..., 0, i % (size / shape[0])) for
    flat index i: exact for rank 1 and 2; for rank 3 and more the middle coordinates are 0.

    Randomness: with seed or seed2 non-zero the op owns a generator seeded by them, so a new op gives the
    same first draw and later calls differ (as MindSpore's); with both 0 it draws from numpy's global
    generator (``mslab.set_seed`` makes it repeatable). MindSpore's own draws (Philox-scrambled) cannot be
    reproduced: the positions chosen differ, their layout and the mask do not.
    """

    differentiable = False
    deterministic = False

    def __init__(self, count=256, seed=0, seed2=0):
        for name, v in (("count", count), ("seed", seed), ("seed2", seed2)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"For 'RandomChoiceWithMask', the type of '{name}' should be 'int', but got type "
                                f"'{type(v).__name__}'.")
        if count <= 0:
            raise ValueError(f"For 'RandomChoiceWithMask', the 'count' must be int and must > 0, but got '{count}'.")
        super().__init__(count=count, seed=seed, seed2=seed2)
        # MindSpore accepts negative seeds here; numpy's seeding takes their 64-bit two's complement
        self._rng = np.random.default_rng([seed % 2**64, seed2 % 2**64]) if seed or seed2 else None

    def key(self):
        return (type(self), id(self))  # random: never merged with another call

    def infer(self, x):
        if x.dtype != np.bool_:
            raise TypeError(f"RandomChoiceWithMask needs a Bool input, got {mstype.from_numpy(x.dtype)}")
        if not 1 <= len(x.shape) <= 5:
            raise ValueError(f"RandomChoiceWithMask: the input's rank must be between 1 and 5, got {len(x.shape)}")
        # one array holds both outputs (they come from one draw): the index columns, then the mask
        return (self.count, len(x.shape) + 1), np.dtype(np.int32)

    def compute(self, x):
        true = np.flatnonzero(x)
        order = self._rng.permutation(len(true)) if self._rng is not None else np.random.permutation(len(true))
        picked = true[order[:self.count]]
        out = np.zeros((self.count, x.ndim + 1), np.int32)
        k = len(picked)
        block = x.size // x.shape[0] if x.size else 1
        out[:k, 0] = picked // block if x.ndim > 1 else picked
        if x.ndim > 1:
            out[:k, x.ndim - 1] = picked % block
        out[:k, -1] = 1
        return out

    def __call__(self, input_x):
        both = super().__call__(input_x)
        rank = len(input_x.shape)
        return (op_table.getitem(both, (slice(None), slice(0, rank))),
                op_table.cast(op_table.getitem(both, (slice(None), rank)), mstype.bool_))

    def bprop(self, x, out, dout):
        no_bprop(self.name)


# ---- functional forms ----------------------------------------------------------------------------------------------
def bounding_box_encode(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)):
    """Offsets from anchors to ground-truth boxes (``ops.bounding_box_encode``); see BoundingBoxEncode."""
    return instance(BoundingBoxEncode, means, stds)(anchor_box, groundtruth_box)


def bounding_box_decode(anchor_box, deltas, max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0),
                        wh_ratio_clip=0.016):
    """Boxes from anchors and offsets (``ops.bounding_box_decode``); see BoundingBoxDecode."""
    return instance(BoundingBoxDecode, max_shape, means, stds, wh_ratio_clip)(anchor_box, deltas)


def iou(anchor_boxes, gt_boxes, mode="iou"):
    """IoU (or IoF) of every (gt box, anchor box) pair, shape (M, N) (``ops.iou``); see IOU."""
    return instance(IOU, mode)(anchor_boxes, gt_boxes)


def check_valid(bboxes, img_metas):
    """Whether each box lies inside the image (``ops.check_valid``, deprecated in 2.10); see CheckValid."""
    return instance(CheckValid)(bboxes, img_metas)


# MindSpore's seeds for random functions: an op seed is advanced by this much after each use, so calls with
# one seed differ from each other but the sequence repeats from one run (or set_seed) to the next.
_DEFAULT_GRAPH_SEED, _SEED_STEP, _MAXINT32 = 87654321, 3528531795 ^ 3449720151, 2**31 - 1
_op_seeds = {}


def _graph_seeds(op_seed, name):
    """(seed, seed2) for a random function, as MindSpore's ``_get_graph_seed``."""
    global_seed = _seed.get_seed()
    global_seed = _DEFAULT_GRAPH_SEED if global_seed == 0 else (global_seed or 0)
    op_seed = op_seed or 0
    if global_seed == 0 and op_seed == 0:
        return 0, 0
    key = (name, op_seed)
    current = _op_seeds.setdefault(key, op_seed)
    _op_seeds[key] = current + _SEED_STEP
    return global_seed % _MAXINT32, current % _MAXINT32


def _reset_op_seeds(seed):
    _op_seeds.clear()


_seed._set_seed_hooks.append(_reset_op_seeds)  # set_seed restarts every op seed's sequence, as in MindSpore


def choice_with_mask(input_x, count=256, seed=None):
    """``count`` random True positions of ``input_x`` and their mask (``ops.choice_with_mask``).

    Seeds follow MindSpore's rule: the op seed and the global seed (``set_seed``) make the sequence of
    calls repeatable; each call draws anew. See RandomChoiceWithMask for what is chosen.
    """
    seed1, seed2 = _graph_seeds(seed, "choice_with_mask")
    return RandomChoiceWithMask(count, seed1, seed2)(input_x)


__all__ += ["bounding_box_encode", "bounding_box_decode", "iou", "check_valid", "choice_with_mask"]
op_table.register(globals(), __all__)
