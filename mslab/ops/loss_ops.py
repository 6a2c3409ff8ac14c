"""Loss functions as ops (``ops.cross_entropy``, ``ops.mse_loss``, ...), composed of other ops.

``reduction`` is 'mean', 'sum' or 'none' (the per-element / per-sample loss). The nn loss Cells
(``nn.CrossEntropyLoss``, ``nn.BCELoss``, ...) call these. With class-index targets:

    logp = log_softmax(x, axis=1)                      (class axis 1: shapes (N, C) or (N, C, d1, ...))
    nll_i = -w[t_i] * logp[i, t_i]                     (0 where t_i == ignore_index)
    mean  = sum_i nll_i / sum_i w[t_i]                 (a weighted mean over the targets not ignored)
    label smoothing e: (1 - e) * nll + e / C * sum_c -w_c * logp[i, c]   (same normaliser)

The target's entry is picked with a one-hot of the target, zeroed where the target is ignore_index.
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core.op_registry import op_table
from mslab.ops.primitive import Primitive, broadcast_shape, instance

__all__ = ["SigmoidCrossEntropyWithLogits", "SmoothL1Loss", "KLDiv", "KLDivLoss"]

_REDUCTIONS = ("mean", "sum", "none")


def reduce_loss(loss, reduction, name="loss"):
    """``loss`` averaged ('mean'), summed ('sum') or left as it is ('none')."""
    if reduction == "mean":
        return op_table.reduce_mean(loss, (), False)
    if reduction == "sum":
        return op_table.reduce_sum(loss, (), False)
    if reduction == "none":
        return loss
    raise ValueError(f"For '{name}', the 'reduction' must be in {list(_REDUCTIONS)}, but got {reduction!r}.")


def _class_weights(weight, classes, like):
    """``weight`` shaped to broadcast along the class axis 1 of ``like`` (None: all ones)."""
    if weight is None:
        return None
    return op_table.reshape(op_table.cast(weight, like.dtype), (1, classes) + (1,) * (len(like.shape) - 2))


def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """Negative log-likelihood of class-index ``target`` under log-probabilities ``inputs`` (N, C, ...)."""
    if reduction not in _REDUCTIONS:
        reduce_loss(inputs, reduction, "nll_loss")
    if len(inputs.shape) < 2:
        raise ValueError(f"nll_loss: inputs must be (N, C) or (N, C, d1, ...), got shape {tuple(inputs.shape)}")
    classes = inputs.shape[1]
    if target.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"nll_loss: target must hold class indices (Int32/Int64), got {target.dtype}")
    one = op_table.scalar_to_tensor(1, inputs.dtype)
    zero = op_table.scalar_to_tensor(0, inputs.dtype)
    kept = op_table.cast(op_table.not_equal(target, ignore_index), inputs.dtype)
    # a zero row where ignored
    hot = op_table.mul(op_table.one_hot(target, classes, one, zero, 1), op_table.expand_dims(kept, 1))
    w = _class_weights(weight, classes, inputs)
    picked_w = hot if w is None else op_table.mul(hot, w)
    per_sample_w = op_table.reduce_sum(picked_w, 1, False)           # w[t_i], 0 where ignored
    loss = op_table.neg(op_table.reduce_sum(op_table.mul(picked_w, inputs), 1, False))
    if label_smoothing:
        all_w = inputs if w is None else op_table.mul(inputs, w)
        smooth = op_table.mul(op_table.neg(op_table.reduce_sum(all_w, 1, False)), kept)
        loss = op_table.add(op_table.mul(loss, 1.0 - label_smoothing), op_table.mul(smooth, label_smoothing / classes))
    if reduction == "mean":
        return op_table.div(op_table.reduce_sum(loss, (), False), op_table.reduce_sum(per_sample_w, (), False))
    return reduce_loss(loss, reduction, "nll_loss")


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):  # noqa: A002
    """Cross entropy of softmax(``input``) (class axis 1) against class indices or class probabilities.

    Probability targets (same shape as input): loss_i = -sum_c w_c * t_ic * logp_ic, smoothed as
    t (1 - e) + e / C, and 'mean' divides by N.
    """
    logp = op_table.log_softmax(input, 1)
    if tuple(target.shape) != tuple(input.shape):
        return nll_loss(logp, target, weight, ignore_index, reduction, label_smoothing)
    classes = input.shape[1]
    t = op_table.cast(target, input.dtype)
    if label_smoothing:
        t = op_table.add(op_table.mul(t, 1.0 - label_smoothing), label_smoothing / classes)
    w = _class_weights(weight, classes, input)
    loss = op_table.neg(op_table.reduce_sum(op_table.mul(t, logp if w is None else op_table.mul(logp, w)), 1, False))
    return reduce_loss(loss, reduction, "cross_entropy")


def mse_loss(input, target, reduction="mean"):  # noqa: A002 - MindSpore's argument name
    """(input - target)^2, reduced."""
    return reduce_loss(op_table.square(op_table.sub(input, target)), reduction, "mse_loss")


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction="mean"):  # noqa: A002
    """w * [(1 - y) x + (1 + (pos_weight - 1) y) softplus(-x)]: BCE of sigmoid(x), computed without overflow.

    Its gradient is w * ((1 + (pw - 1) y) sigmoid(x) - pw y), i.e. sigmoid(x) - y when no weights are given.
    As MindSpore 2.10's BCEWithLogitsLoss kernel, ``weight`` and ``pos_weight`` get no gradient (observed: zeros).
    """
    weight = None if weight is None else op_table.stop_gradient(weight)
    pos_weight = None if pos_weight is None else op_table.stop_gradient(pos_weight)
    sp = op_table.softplus(op_table.neg(input))
    scale = 1.0 if pos_weight is None else op_table.add(1.0, op_table.mul(op_table.sub(pos_weight, 1.0), target))
    loss = op_table.add(op_table.mul(op_table.sub(1.0, target), input),
                        op_table.mul(scale, sp) if pos_weight is not None else sp)
    if weight is not None:
        loss = op_table.mul(loss, weight)
    return reduce_loss(loss, reduction, "binary_cross_entropy_with_logits")


_LOG_EPS = 1e-12  # MindSpore clamps the probabilities inside the logs: -log(0) is -log(1e-12) = 27.631021


def binary_cross_entropy(logits, labels, weight=None, reduction="mean"):
    """-w [y log p + (1 - y) log(1 - p)] for probabilities ``logits``; each log is of max(., 1e-12)."""
    log_p = op_table.log(op_table.maximum(logits, _LOG_EPS))
    log_q = op_table.log(op_table.maximum(op_table.sub(1.0, logits), _LOG_EPS))
    loss = op_table.neg(op_table.add(op_table.mul(labels, log_p), op_table.mul(op_table.sub(1.0, labels), log_q)))
    if weight is not None:
        loss = op_table.mul(loss, weight)
    return reduce_loss(loss, reduction, "binary_cross_entropy")


def smooth_l1_loss(input, target, beta=1.0, reduction="none"):  # noqa: A002 - MindSpore's argument name
    """0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (d = input - target); unreduced by default."""
    d = op_table.abs(op_table.sub(input, target))
    loss = op_table.select(op_table.less(d, beta), op_table.div(op_table.mul(op_table.square(d), 0.5), float(beta)),
                           op_table.sub(d, 0.5 * beta))
    return reduce_loss(loss, reduction, "smooth_l1_loss")


def huber_loss(input, target, reduction="mean", delta=1.0):  # noqa: A002 - MindSpore's argument name
    """0.5 d^2 where |d| <= delta, else delta (|d| - 0.5 delta) (d = input - target)."""
    d = op_table.abs(op_table.sub(input, target))
    loss = op_table.select(op_table.less_equal(d, delta), op_table.mul(op_table.square(d), 0.5),
                           op_table.mul(op_table.sub(d, 0.5 * delta), float(delta)))
    return reduce_loss(loss, reduction, "huber_loss")


class SmoothL1Loss:
    """``ops.SmoothL1Loss(beta=1.0, reduction='none')(logits, labels)``: :func:`smooth_l1_loss` as a class."""

    def __init__(self, beta=1.0, reduction="none"):
        self.beta, self.reduction = float(beta), reduction

    def __call__(self, logits, labels):
        return smooth_l1_loss(logits, labels, self.beta, self.reduction)


class SigmoidCrossEntropyWithLogits:
    """``ops.SigmoidCrossEntropyWithLogits()(logits, labels)``: the elementwise (unreduced) BCE with logits.

    As MindSpore 2.10's kernel, only logits get a gradient, sigmoid(x) - y; labels get zeros (observed).
    """

    def __call__(self, logits, labels):
        return binary_cross_entropy_with_logits(logits, op_table.stop_gradient(labels), reduction="none")



class KLDiv(Primitive):
    """The elementwise Kullback-Leibler term of :class:`KLDivLoss` (logits are log-probabilities)::

        l = labels * (log(labels) - logits)   where labels > 0,   else 0

    d/dlogits = -labels * dout everywhere, also where labels <= 0 and l is 0; labels get no gradient. Both are
    MindSpore 2.10's CPU kernels (observed: logits 0.3, label -1 give l = 0 and the gradient 1).
    """

    n_tensors = 2

    def infer(self, logits, labels):
        return broadcast_shape(self, logits.shape, labels.shape), logits.dtype

    def compute(self, logits, labels):
        positive = labels > 0
        terms = labels * (np.log(np.where(positive, labels, 1)) - logits)
        return np.where(positive, terms, 0).astype(logits.dtype, copy=False)

    def bprop(self, logits, labels, out, dout):
        return -labels * dout, op_table.zeros_like(labels)


class KLDivLoss:
    """``ops.KLDivLoss(reduction='mean')(logits, labels)``: the Kullback-Leibler divergence of labels from
    exp(logits), :class:`KLDiv`'s terms reduced as 'none', 'sum', 'mean' (sum / number of elements) or
    'batchmean' (sum / shape[0]), as MindSpore 2.10's ``ops.kl_div``."""

    def __init__(self, reduction="mean"):
        if reduction not in ("none", "mean", "batchmean", "sum"):
            raise ValueError(f"For 'KLDivLoss', the 'reduction' must be str and must be in "
                             f"'['none', 'mean', 'batchmean', 'sum']', but got {reduction!r}.")
        self.reduction = reduction

    def __call__(self, logits, labels):
        return kl_div(logits, labels, self.reduction)


def kl_div(logits, labels, reduction="mean"):
    """``ops.kl_div``: the Kullback-Leibler divergence of labels from exp(logits) (see :class:`KLDiv`), reduced."""
    if reduction not in ("none", "mean", "batchmean", "sum"):
        KLDivLoss(reduction)  # raises MindSpore's message
    loss = instance(KLDiv)(logits, labels)
    if reduction == "none":
        return loss
    total = op_table.reduce_sum(loss)
    if reduction == "sum":
        return total
    count = loss.shape[0] if reduction == "batchmean" and loss.shape else max(1, int(np.prod(loss.shape)))
    return op_table.div(total, float(count))


__all__ += ["kl_div", "reduce_loss", "nll_loss", "cross_entropy", "mse_loss", "binary_cross_entropy_with_logits",
            "binary_cross_entropy", "smooth_l1_loss", "huber_loss"]
op_table.register(globals(), __all__)
