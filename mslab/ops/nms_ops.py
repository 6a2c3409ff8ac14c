"""Non-maximum suppression as MindSpore 2.10's CPU NMSWithMask: sort by score, then suppress greedily.

``P.NMSWithMask(iou_threshold)(bboxes)`` with bboxes (N, 5) rows (x0, y0, x1, y1, score) returns
(boxes, indices, mask). Unlike IOU, box sizes here are x1 - x0 (no "+1"). Three outputs, so not one graph
node: NMSSort (the sorted boxes), a constant range and NMSMask. No gradient: a gradient that reaches
NMSWithMask raises ``RuntimeError: Illegal primitive NMSWithMask's bprop not defined``, as in MindSpore.
"""
import numpy as np

from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor
from mslab.ops.detection_ops import FLOATS, check_boxes, check_dtypes, no_bprop
from mslab.ops.primitive import Primitive, instance

__all__ = ["NMSWithMask"]


def bitonic_order(scores):
    """Indices sorting ``scores`` in descending order, ties placed as MindSpore's CPU NMSWithMask places them.

    Its kernel pads the scores to a power of two with the dtype's largest value, runs an ascending bitonic
    sorting network and reads the result backwards. A bitonic network is not stable, so equal scores come
    out in the network's order, not the input's: this runs the same network (one vectorised step per stage).
    """
    n = len(scores)
    size = 1 << max(n - 1, 0).bit_length()
    data = np.full(size, np.finfo(scores.dtype).max, scores.dtype)
    data[:n] = scores
    index = np.arange(size)
    tid = np.arange(size)
    block = 2
    while block <= size:
        stride = block >> 1
        while stride:
            partner = tid ^ stride
            lo, hi = tid[partner > tid], partner[partner > tid]
            ascending = (lo & block) == 0
            swap = np.where(ascending, data[lo] > data[hi], data[lo] < data[hi])
            a, b = lo[swap], hi[swap]
            data[a], data[b] = data[b], data[a]
            index[a], index[b] = index[b], index[a]
            stride >>= 1
        block <<= 1
    return index[:n][::-1]


class NMSSort(Primitive):
    """NMSWithMask's first output: the (N, 5) boxes in descending order of score (the last column).

    Ties come in the order of MindSpore's bitonic sort (see :func:`bitonic_order`). No gradient, as
    NMSWithMask has none in MindSpore 2.10.
    """

    def infer(self, bboxes):
        check_dtypes(self, FLOATS, bboxes)
        check_boxes(self, "NMSWithMask's bboxes (x0, y0, x1, y1, score)", bboxes, cols=5)
        return tuple(bboxes.shape), bboxes.dtype

    def compute(self, bboxes):
        return bboxes[bitonic_order(bboxes[:, 4])]

    def bprop(self, bboxes, out, dout):
        no_bprop("NMSWithMask")


class NMSMask(Primitive):
    """NMSWithMask's third output: which of the sorted boxes survive greedy suppression (Bool, N).

    Walking the boxes from the highest score, each kept box removes every later box whose overlap
    ratio with it, inter / (area_a + area_b - inter) with area = (x1 - x0) * (y1 - y0), exceeds
    iou_threshold. Computed in the boxes' dtype, as MindSpore's kernel does.
    """

    differentiable = False

    def __init__(self, iou_threshold=0.5):
        super().__init__(iou_threshold=iou_threshold)

    def infer(self, boxes):
        return (boxes.shape[0],), np.dtype(np.bool_)

    def compute(self, boxes):
        t = boxes.dtype.type
        a, b = boxes[:, None, :], boxes[None, :, :]
        w = np.maximum(np.minimum(a[..., 2], b[..., 2]) - np.maximum(a[..., 0], b[..., 0]), t(0))
        h = np.maximum(np.minimum(a[..., 3], b[..., 3]) - np.maximum(a[..., 1], b[..., 1]), t(0))
        area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
        inter = w * h
        with np.errstate(all="ignore"):  # Float16 sums of areas can overflow to inf
            overlaps = inter / (area[:, None] + area[None, :] - inter) > t(self.iou_threshold)
        n = len(boxes)
        keep = np.ones(n, np.bool_)
        later = np.triu(np.ones((n, n), np.bool_), 1)
        for i in range(n - 1):
            if keep[i]:
                keep &= ~(overlaps[i] & later[i])
        return keep

    def bprop(self, boxes, out, dout):
        return (None,)


class NMSWithMask:
    """Non-maximum suppression (``P.NMSWithMask(iou_threshold=0.5)(bboxes)``) -> (boxes, indices, mask).

    ``bboxes`` is (N, 5): x0, y0, x1, y1, score; Float16 or Float32. As MindSpore 2.10 on CPU: ``boxes`` are
    the input sorted by descending score, ``indices`` (Int32) are 0..N-1 (positions in ``boxes``, not in the
    input) and ``mask`` (Bool) marks the boxes kept, so ``boxes[mask]`` is the result. Three outputs, so
    not one graph node: NMSSort, a constant range and NMSMask.
    """

    def __init__(self, iou_threshold=0.5):
        if not isinstance(iou_threshold, float):
            raise TypeError(f"For 'NMSWithMask', the type of 'iou_threshold' should be 'float', but got type "
                            f"'{type(iou_threshold).__name__}'.")
        self.iou_threshold = iou_threshold

    def __call__(self, bboxes):
        boxes = instance(NMSSort)(bboxes)
        indices = Tensor(np.arange(bboxes.shape[0], dtype=np.int32))
        return boxes, indices, instance(NMSMask, self.iou_threshold)(boxes)

    def __repr__(self):
        return f"NMSWithMask(iou_threshold={self.iou_threshold})"


op_table.register(globals(), __all__)
