"""Loss functions, as ``mindspore.nn``: MSELoss, L1Loss, CrossEntropyLoss, BCEWithLogitsLoss, ...

Each takes ``reduction``: 'none' (the elementwise / per-sample loss), 'mean' or 'sum' over every
axis. ``LossBase.get_loss(x, weights=1.0)`` applies the weights and the reduction; custom losses
subclass LossBase and end their construct with ``return self.get_loss(x)``.
"""
from mslab.nn.cell import Cell
from mslab.ops import functional as F

__all__ = ["LossBase", "MSELoss", "L1Loss", "SoftmaxCrossEntropyWithLogits", "BCEWithLogitsLoss", "SmoothL1Loss",
           "HuberLoss", "BCELoss", "CrossEntropyLoss", "NLLLoss", "MAELoss", "DiceLoss", "KLDivLoss"]

_REDUCTIONS = ("mean", "sum", "none")


class LossBase(Cell):
    """Base class of losses: holds ``reduction`` and reduces with :meth:`get_loss`."""

    def __init__(self, reduction="mean"):
        super().__init__()
        if reduction not in _REDUCTIONS:
            raise ValueError(f"For '{type(self).__name__}', the 'reduction' must be in {list(_REDUCTIONS)}, "
                             f"but got {reduction!r}.")
        self.reduction = reduction
        self.average = reduction == "mean"
        self.reduce = reduction != "none"

    def get_axis(self, x):
        """Every axis of x, as a tuple."""
        return tuple(range(len(x.shape)))

    def get_loss(self, x, weights=1.0):
        """``x * weights`` reduced by ``self.reduction`` ('mean' / 'sum' over every axis, or 'none')."""
        if not (isinstance(weights, (int, float)) and weights == 1.0):
            x = F.mul(weights, x)
        if self.reduction == "mean":
            return F.reduce_mean(x, self.get_axis(x))
        if self.reduction == "sum":
            return F.reduce_sum(x, self.get_axis(x))
        return x

    def construct(self, logits, labels):
        raise NotImplementedError(f"{type(self).__name__} must define construct(logits, labels)")


class _Loss(LossBase):
    """MindSpore's old name for LossBase (``mindspore.nn.loss.loss._Loss``, deprecated since 1.3): same API."""


def _check_same_shape(cls_name, logits, labels):
    if tuple(logits.shape) != tuple(labels.shape):
        raise ValueError(f"For '{cls_name}', logits shape {tuple(logits.shape)} and labels shape "
                         f"{tuple(labels.shape)} must be the same")


class MSELoss(LossBase):
    """(logits - labels)^2, elementwise, then reduced (default 'mean')."""

    def construct(self, logits, labels):
        return self.get_loss(F.square(F.sub(logits, labels)))


class L1Loss(LossBase):
    """|logits - labels|, elementwise, then reduced (default 'mean')."""

    def construct(self, logits, labels):
        return self.get_loss(F.abs(F.sub(logits, labels)))


class MAELoss(L1Loss):
    """Mean absolute error (``mindspore.nn.MAELoss``): the same as L1Loss, |logits - labels| reduced."""


class SoftmaxCrossEntropyWithLogits(LossBase):
    """Cross entropy of softmax(logits) against labels, per sample: ``-sum(labels * log_softmax(logits), -1)``.

    logits (N, C); labels (N, C) probabilities, or with ``sparse=True`` integer class ids (N,).
    ``reduction='none'`` (the default) gives the per-sample loss of shape (N,). The gradient with
    respect to logits is ``softmax(logits) - labels``.
    """

    def __init__(self, sparse=False, reduction="none"):
        super().__init__(reduction)
        self.sparse = bool(sparse)

    def construct(self, logits, labels):
        if len(logits.shape) != 2:
            raise ValueError(f"SoftmaxCrossEntropyWithLogits: logits must be (N, C), got shape {tuple(logits.shape)}")
        if self.sparse:
            if len(labels.shape) != 1 or labels.shape[0] != logits.shape[0]:
                raise ValueError(f"SoftmaxCrossEntropyWithLogits(sparse=True): labels must be class ids of shape "
                                 f"({logits.shape[0]},), got shape {tuple(labels.shape)}")
            x = F.sparse_softmax_cross_entropy(logits, labels)
        else:
            _check_same_shape(type(self).__name__, logits, labels)
            x = F.softmax_cross_entropy(logits, labels)
        return self.get_loss(x)


class BCEWithLogitsLoss(LossBase):
    """Binary cross entropy of sigmoid(logits) against labels in [0, 1], computed stably.

    ``loss = (1 - y) * x + (1 + (pos_weight - 1) * y) * (log(1 + exp(-|x|)) + max(-x, 0))``, which for
    pos_weight=None is ``max(x, 0) - x * y + log(1 + exp(-|x|))``; multiplied by ``weight`` if given,
    then reduced (default 'mean').
    """

    def __init__(self, reduction="mean", weight=None, pos_weight=None):
        super().__init__(reduction)
        self.weight = weight
        self.pos_weight = pos_weight

    def construct(self, logits, labels):
        _check_same_shape(type(self).__name__, logits, labels)
        x, y = logits, labels
        abs_x = F.abs(x)
        softplus_neg_abs = F.log(F.add(F.exp(F.neg(abs_x)), 1.0))  # log(1 + exp(-|x|)), never overflows
        # max(x, 0) written as (x + |x|) / 2: the same numbers, and at x == 0 its gradient is 1/2, so the
        # whole gradient is sigmoid(x) - y there too (relu's gradient at 0 is 0, which would give -y)
        if self.pos_weight is None:
            loss = F.add(F.sub(F.mul(F.add(x, abs_x), 0.5), F.mul(x, y)), softplus_neg_abs)
        else:
            log_weight = F.add(F.mul(F.sub(self.pos_weight, 1.0), y), 1.0)
            max_neg_x = F.mul(F.sub(abs_x, x), 0.5)  # max(-x, 0)
            loss = F.add(F.mul(F.sub(1.0, y), x), F.mul(log_weight, F.add(softplus_neg_abs, max_neg_x)))
        if self.weight is not None:
            loss = F.mul(loss, self.weight)
        return self.get_loss(loss)


class SmoothL1Loss(LossBase):
    """0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (d = logits - labels).

    MindSpore's default reduction here is 'none': the elementwise loss (observed on MindSpore 2.10).
    """

    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(reduction)
        self.beta = float(beta)

    def construct(self, logits, labels):
        _check_same_shape(type(self).__name__, logits, labels)
        return F.smooth_l1_loss(logits, labels, self.beta, self.reduction)


class HuberLoss(LossBase):
    """0.5 d^2 where |d| <= delta, else delta (|d| - 0.5 delta) (d = logits - labels); 'mean' by default."""

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction)
        self.delta = float(delta)

    def construct(self, logits, labels):
        _check_same_shape(type(self).__name__, logits, labels)
        return F.huber_loss(logits, labels, self.reduction, self.delta)


class BCELoss(LossBase):
    """-w [y log p + (1 - y) log(1 - p)] for probabilities p (each log clamped at log(1e-12), as MindSpore)."""

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, logits, labels):
        _check_same_shape(type(self).__name__, logits, labels)
        return F.binary_cross_entropy(logits, labels, self.weight, self.reduction)


class NLLLoss(LossBase):
    """-w[t] * logits[t] for log-probabilities ``logits`` (N, C, ...) and class indices ``labels`` (N, ...).

    'mean' divides by the sum of the weights of the targets not equal to ``ignore_index``.
    """

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight
        self.ignore_index = int(ignore_index)

    def construct(self, logits, labels):
        return F.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


class CrossEntropyLoss(LossBase):
    """Cross entropy of softmax(logits) (class axis 1) against class indices or class probabilities.

    ``nn.CrossEntropyLoss()(logits, labels)`` as in MindSpore 2.x's quick start; ``weight``,
    ``ignore_index`` and ``label_smoothing`` as ``ops.cross_entropy`` (see mslab.ops.loss_ops).
    """

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        if not 0.0 <= float(label_smoothing) <= 1.0:
            raise ValueError(f"For 'CrossEntropyLoss', label_smoothing must be in [0, 1], got {label_smoothing}")
        self.weight = weight
        self.ignore_index = int(ignore_index)
        self.label_smoothing = float(label_smoothing)

    def construct(self, logits, labels):
        return F.cross_entropy(logits, labels, self.weight, self.ignore_index, self.reduction, self.label_smoothing)


class DiceLoss(LossBase):
    """``1 - 2 * sum(logits * labels) / (sum(logits^2) + sum(labels^2) + smooth)`` over every element.

    ``mindspore.nn.DiceLoss`` (deprecated there since 2.8): 0 when logits equal binary labels, 1 when
    they do not overlap at all; ``smooth`` keeps the ratio finite for all-zero inputs.
    """

    def __init__(self, smooth=1e-5):
        super().__init__()
        if isinstance(smooth, bool) or not isinstance(smooth, float) or smooth <= 0:
            raise ValueError(f"For 'DiceLoss', the 'smooth' must be float and must > 0, but got {smooth!r}.")
        self.smooth = smooth

    def construct(self, logits, label):
        if tuple(logits.shape) != tuple(label.shape):
            raise ValueError(f"For 'DiceLoss', the 'logits_shape' should be = label_shape: {tuple(label.shape)}, "
                             f"but got {tuple(logits.shape)}.")
        intersection = F.reduce_sum(F.mul(logits, label))
        union = F.add(F.reduce_sum(F.square(logits)), F.reduce_sum(F.square(label)))
        return F.sub(1.0, F.div(F.mul(intersection, 2.0), F.add(union, self.smooth)))


class KLDivLoss(LossBase):
    """Kullback-Leibler divergence of labels from exp(logits) (``mindspore.nn.KLDivLoss``): ``ops.kl_div``,

        l = labels * (log(labels) - logits)   where labels > 0,   else 0,

    reduced by ``reduction``: 'mean' (the default: over every element), 'sum', 'none' or 'batchmean' (the sum
    over shape[0]). As MindSpore's, an unknown reduction is refused when the loss is computed."""

    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = reduction

    def construct(self, logits, labels):
        return F.kl_div(logits, labels, self.reduction)
