"""Neural-network kernels (softmax, cross-entropy, bias, dropout): compute, infer, bprop.

Layout is NCHW throughout. Each forward op's backward work is done by a kernel primitive of its own
(``Conv2DBackpropInput``, ``Conv2DBackpropFilter``, ``MaxPoolGrad``, ``AvgPoolGrad``, ``BiasAddGrad``,
``SoftmaxCrossEntropyWithLogitsGrad``, ...), as in MindSpore, so a backward graph shows them as nodes.
Convolution and pooling are in ``conv_ops`` (re-exported here, so ``nn_ops.X`` names every NN kernel).
"""
import numpy as np

from mslab.core.op_registry import op_table
from mslab.ops.primitive import Primitive, check_float, check_same_dtype, hashable, instance, normalize_axis

__all__ = [
    "BiasAdd",
    "BiasAddGrad",
    "Dropout",
    "DropoutGenMask",
    "L2Loss",
    "LogSoftmax",
    "Softmax",
    "SoftmaxCrossEntropyWithLogits",
    "SoftmaxCrossEntropyWithLogitsGrad",
    "SparseSoftmaxCrossEntropyWithLogits",
    "SparseSoftmaxCrossEntropyWithLogitsGrad",
]



def _shape(v):
    return tuple(v.shape)


# ---- softmax ------------------------------------------------------------------------------------------
class _SoftmaxBase(Primitive):
    n_tensors = 1

    def __init__(self, axis=-1):
        super().__init__(axis=tuple(axis) if isinstance(axis, list) else axis)

    def _axes(self, ndim):
        if self.axis == ():
            raise ValueError("axis must not be empty")
        return normalize_axis(self.axis, ndim)

    def infer(self, x):
        check_float(self, x)
        if len(x.shape) == 0:
            raise ValueError("needs a tensor of rank >= 1, got a scalar")
        self._axes(len(x.shape))
        return _shape(x), x.dtype


def _shifted(x, axes):
    return x - x.max(axis=axes, keepdims=True)


class Softmax(_SoftmaxBase):
    """exp(x) / sum(exp(x)) over ``axis`` (computed as exp(x - max) for stability).

    d/dx = out * (dout - sum(dout * out, axis)).
    """

    def compute(self, x):
        e = np.exp(_shifted(x, self._axes(x.ndim)))
        return e / e.sum(axis=self._axes(x.ndim), keepdims=True)

    def bprop(self, x, out, dout):
        s = (dout * out).sum(self._axes(len(x.shape)), keepdims=True)
        return (out * (dout - s),)


class LogSoftmax(_SoftmaxBase):
    """x - log(sum(exp(x))) over ``axis`` (as (x - max) - log(sum(exp(x - max)))).

    d/dx = dout - exp(out) * sum(dout, axis).
    """

    def compute(self, x):
        axes = self._axes(x.ndim)
        s = _shifted(x, axes)
        return s - np.log(np.exp(s).sum(axis=axes, keepdims=True))

    def bprop(self, x, out, dout):
        return (dout - out.exp() * dout.sum(self._axes(len(x.shape)), keepdims=True),)


def _log_softmax(x):
    s = _shifted(x, -1)
    return s - np.log(np.exp(s).sum(axis=-1, keepdims=True))


def _softmax(x):
    e = np.exp(_shifted(x, -1))
    return e / e.sum(axis=-1, keepdims=True)


# ---- cross-entropy ------------------------------------------------------------------------------------
def _check_logits(prim, logits):
    check_float(prim, logits)
    if len(logits.shape) != 2:
        raise ValueError(f"needs logits of shape (N, C), got {_shape(logits)}")


class SoftmaxCrossEntropyWithLogits(Primitive):
    """Per-sample loss -sum(labels * log_softmax(logits), -1): logits and labels (N, C) -> (N,).

    MindSpore's primitive returns ``(loss, backprop)``; mslab primitives have one output, so this one
    returns the loss and its bprop computes ``backprop`` with SoftmaxCrossEntropyWithLogitsGrad:
    d/dlogits = (softmax(logits) - labels) * dout[:, None]. Labels are data: their gradient is zero.
    """

    n_tensors = 2

    def infer(self, logits, labels):
        _check_logits(self, logits)
        if _shape(labels) != _shape(logits):
            raise ValueError(f"labels shape {_shape(labels)} differs from logits shape {_shape(logits)}")
        check_same_dtype(self, logits, labels)
        return _shape(logits)[:1], logits.dtype

    def compute(self, logits, labels):
        # no "+ 0.0": with all-zero labels the loss is -0.0, and MindSpore 2.10 prints it as -0. (observed: seed
        # train.md's example prints [-0. -0. ...], where the seed, written with an older MindSpore, shows 0.)
        return -np.sum(labels * _log_softmax(logits), axis=-1)

    def bprop(self, logits, labels, out, dout):
        return instance(SoftmaxCrossEntropyWithLogitsGrad)(logits, labels, dout), op_table.zeros_like(labels)


class SoftmaxCrossEntropyWithLogitsGrad(Primitive):
    """Backward kernel of SoftmaxCrossEntropyWithLogits: (softmax(logits) - labels) * dout[:, None].

    Its own gradient, with s = softmax(logits) and gd = g * dout[:, None]: d/dlogits = s * (gd - sum(gd * s, -1)),
    d/dlabels = -gd, d/d(dout) = sum(g * (s - labels), -1).
    """

    n_tensors = 3

    def infer(self, logits, labels, dout):
        _check_logits(self, logits)
        if _shape(labels) != _shape(logits) or _shape(dout) != _shape(logits)[:1]:
            raise ValueError(f"expected logits and labels of one shape (N, C) and dout (N,), got "
                             f"{_shape(logits)}, {_shape(labels)}, {_shape(dout)}")
        return _shape(logits), logits.dtype

    def compute(self, logits, labels, dout):
        return (_softmax(logits) - labels) * dout[:, None]

    def bprop(self, logits, labels, dout, out, g):
        s = instance(Softmax, -1)(logits)
        gd = g * dout.reshape((dout.shape[0], 1))
        dlogits = s * (gd - (gd * s).sum(-1, keepdims=True))
        ddout = (g * (s - labels)).sum(-1)
        return dlogits, -gd, ddout


def _check_sparse(prim, logits, labels):
    _check_logits(prim, logits)
    if 0 in _shape(logits):  # MindSpore 2.10 CPU: RuntimeError "Invalid batch size or class num input!"
        raise ValueError(f"Invalid batch size or class num input! logits {_shape(logits)} hold no samples or no "
                         "classes (an empty batch?)")
    if labels.dtype.kind not in "iu":
        raise TypeError(f"needs integer class labels, got {labels.dtype}")
    if _shape(labels) != _shape(logits)[:1]:
        raise ValueError(f"labels of shape (N,) = {_shape(logits)[:1]} expected for logits "
                         f"{_shape(logits)}, got {_shape(labels)}")


def _onehot_check(logits, labels):
    C = logits.shape[1]
    if labels.size and (labels.min() < 0 or labels.max() >= C):
        raise ValueError(f"labels must be class indices in [0, {C}), got values from {labels.min()} to {labels.max()}")


class SparseSoftmaxCrossEntropyWithLogits(Primitive):
    """The batch mean of -log_softmax(logits)[n, labels[n]]: logits (N, C), integer labels (N,) -> a scalar, as
    MindSpore 2.10's primitive (observed: 0-d). ``is_grad=True`` returns its gradient instead,
    (softmax(logits) - one_hot(labels)) / N, shape (N, C), and has no bprop. Labels are data: no gradient.

    ``per_sample=True`` (mslab's own, for the loss layers, which reduce as their ``reduction`` says) keeps the
    per-sample losses, shape (N,). Gradient of the mean: Grad(logits, labels, dout / N for every sample).
    """

    n_tensors = 2

    def __init__(self, is_grad=False, per_sample=False):
        super().__init__(is_grad=bool(is_grad), per_sample=bool(per_sample))

    def infer(self, logits, labels):
        _check_sparse(self, logits, labels)
        if self.is_grad:
            return _shape(logits), logits.dtype
        return (_shape(logits)[:1] if self.per_sample else ()), logits.dtype

    def compute(self, logits, labels):
        _onehot_check(logits, labels)
        n = logits.shape[0]
        if self.is_grad:
            g = _softmax(logits)
            g[np.arange(n), labels] -= 1
            return g / logits.dtype.type(max(n, 1))
        losses = -_log_softmax(logits)[np.arange(n), labels]  # -0.0 for a certain class, as MindSpore 2.10 (observed)
        return losses if self.per_sample else np.asarray(losses.mean(), logits.dtype)

    def bprop(self, logits, labels, out, dout):
        if self.is_grad:
            raise NotImplementedError("SparseSoftmaxCrossEntropyWithLogits(is_grad=True) returns a gradient and "
                                      "has no bprop of its own; differentiate the is_grad=False form instead")
        if not self.per_sample:  # the mean: each sample's loss weighs dout / N
            n = logits.shape[0]
            dout = op_table.broadcast_to(dout / float(max(n, 1)), (n,))
        return instance(SparseSoftmaxCrossEntropyWithLogitsGrad)(logits, labels, dout), None


class SparseSoftmaxCrossEntropyWithLogitsGrad(Primitive):
    """Backward kernel: (softmax(logits) - one_hot(labels)) * dout[:, None], shape (N, C).

    Its own gradient, with s = softmax(logits) and gd = g * dout[:, None]: d/dlogits = s * (gd - sum(gd * s, -1)),
    d/d(dout) = sum(g * (s - one_hot(labels)), -1); labels get none.
    """

    n_tensors = 3

    def infer(self, logits, labels, dout):
        _check_sparse(self, logits, labels)
        if _shape(dout) != _shape(logits)[:1]:
            raise ValueError(f"dout of shape {_shape(logits)[:1]} expected, got {_shape(dout)}")
        return _shape(logits), logits.dtype

    def compute(self, logits, labels, dout):
        _onehot_check(logits, labels)
        g = _softmax(logits)
        g[np.arange(logits.shape[0]), labels] -= 1
        return g * dout[:, None]

    def bprop(self, logits, labels, dout, out, g):
        s = instance(Softmax, -1)(logits)
        gd = g * dout.reshape((dout.shape[0], 1))
        dlogits = s * (gd - (gd * s).sum(-1, keepdims=True))
        ddout = (g * self(logits, labels, op_table.ones_like(dout))).sum(-1)
        return dlogits, None, ddout


# ---- bias ----------------------------------------------------------------------------------------------
def _channel_shape(c, ndim):
    return (1, c) + (1,) * (ndim - 2)


class BiasAdd(Primitive):
    """x + b with b (C,) added along axis 1 (the channel axis of NCHW; the last axis of a 2-D x).

    d/dx = dout; d/db = BiasAddGrad(dout), the sum of dout over every axis but 1.
    """

    n_tensors = 2

    def __init__(self, data_format="NCHW"):
        if data_format not in ("NCHW", "NCDHW"):
            raise ValueError(f"BiasAdd: only data_format 'NCHW' is supported, got {data_format!r}")
        super().__init__(data_format=data_format)

    def infer(self, x, b):
        if len(x.shape) < 2 or len(b.shape) != 1 or b.shape[0] != x.shape[1]:
            raise ValueError(f"needs x of rank >= 2 and a bias of shape (x.shape[1],), got x {_shape(x)} "
                             f"and bias {_shape(b)}")
        check_same_dtype(self, x, b)
        return _shape(x), x.dtype

    def compute(self, x, b):
        if x.ndim == 2:  # (N, C) + (C,) broadcasts as it is
            return x + b
        return x + b.reshape(_channel_shape(b.shape[0], x.ndim))

    def kernel(self, ins):
        shape = _channel_shape(ins[1].shape[0], len(ins[0].shape))
        return lambda x, b: x + b.reshape(shape)

    def bprop(self, x, b, out, dout):
        return dout, instance(BiasAddGrad, self.data_format)(dout)


class BiasAddGrad(Primitive):
    """Sum of dout over every axis except 1: BiasAdd's bias gradient (shape (C,)).  d/d(dout) = g broadcast back."""

    n_tensors = 1

    def __init__(self, data_format="NCHW"):
        super().__init__(data_format=data_format)

    def infer(self, dout):
        if len(dout.shape) < 2:
            raise ValueError(f"BiasAddGrad needs dout of rank >= 2, got {_shape(dout)}")
        return _shape(dout)[1:2], dout.dtype

    def compute(self, dout):
        axes = (0,) + tuple(range(2, dout.ndim))
        return np.add.reduce(dout, axis=axes, dtype=dout.dtype)  # np.sum's own call, without its wrapper

    def kernel(self, ins):
        axes, dt = (0,) + tuple(range(2, len(ins[0].shape))), ins[0].dtype
        return lambda dout: np.add.reduce(dout, axis=axes, dtype=dt)

    def bprop(self, dout, out, g):
        return (op_table.broadcast_to(g.reshape(_channel_shape(g.shape[0], len(dout.shape))), _shape(dout)),)


# ---- dropout ---------------------------------------------------------------------------------------------------
def _check_keep_prob(name, keep_prob):
    if not isinstance(keep_prob, (int, float)) or not 0.0 < float(keep_prob) <= 1.0:
        raise ValueError(f"{name}: keep_prob must be a number in (0, 1], got {keep_prob!r}")
    return float(keep_prob)


class DropoutGenMask(Primitive):
    """A fresh dropout mask of x's shape and dtype: 1/keep_prob with probability keep_prob, else 0.

    mslab's take on MindSpore's DropoutGenMask: it reads x (only its shape and dtype), not a shape
    tuple, so that the executor never folds it into a constant; and it gives the scaled mask itself.
    Not deterministic (CSE never merges two of them) and not differentiable. Randomness comes from
    numpy's global generator, so ``set_seed`` makes it reproducible; Seed0/Seed1 are accepted for
    MindSpore compatibility and not used.
    """

    n_tensors = 1
    differentiable = False
    deterministic = False

    def __init__(self, keep_prob=0.5, Seed0=0, Seed1=0):
        super().__init__(keep_prob=_check_keep_prob("DropoutGenMask", keep_prob), Seed0=Seed0, Seed1=Seed1)

    def infer(self, x):
        check_float(self, x)
        return _shape(x), x.dtype

    def compute(self, x):
        if self.keep_prob == 1.0:
            return np.ones(x.shape, x.dtype)
        keep = np.random.random_sample(x.shape) < self.keep_prob
        return keep.astype(x.dtype) * x.dtype.type(1.0 / self.keep_prob)

    def bprop(self, x, out, dout):
        return (op_table.zeros_like(x),)


class Dropout(Primitive):
    """``ops.Dropout(keep_prob)(x)`` -> x * mask, with mask from DropoutGenMask.

    MindSpore's returns ``(output, mask)``; this returns the output only. A call records two nodes,
    DropoutGenMask and Mul, so the gradient, dout * mask, reuses the forward's mask.
    """

    n_tensors = 1
    deterministic = False

    def __init__(self, keep_prob=0.5, Seed0=0, Seed1=0):
        super().__init__(keep_prob=_check_keep_prob("Dropout", keep_prob), Seed0=Seed0, Seed1=Seed1)
        self._gen = DropoutGenMask(self.keep_prob, Seed0, Seed1)

    def __call__(self, x):
        return op_table.mul(x, self._gen(x))

    def infer(self, x):
        return self._gen.infer(x)

    def compute(self, x):
        return x * self._gen.compute(x)

    def bprop(self, x, out, dout):
        raise NotImplementedError("Dropout is recorded as DropoutGenMask and Mul; it is never a node itself")


# ---- extras ------------------------------------------------------------------------------------------------------
class L2Loss(Primitive):
    """sum(x ** 2) / 2, a scalar (``ops.L2Loss()(x)``).  d/dx = x * dout."""

    n_tensors = 1

    def infer(self, x):
        check_float(self, x)
        return (), x.dtype

    def compute(self, x):
        return np.asarray(np.sum(np.square(x), dtype=x.dtype) / x.dtype.type(2), x.dtype)

    def bprop(self, x, out, dout):
        return (x * dout,)


# ---- functional forms (MindSpore 2.x's ``mindspore.ops`` signatures) ------------------------------------
def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) over ``axis``."""
    return instance(Softmax, axis=hashable(axis))(x)


def log_softmax(x, axis=-1):
    """x - log(sum(exp(x))) over ``axis``, computed stably."""
    return instance(LogSoftmax, axis=hashable(axis))(x)


def softmax_cross_entropy(logits, labels):
    """Per-sample -sum(labels * log_softmax(logits), -1): (N, C) and (N, C) -> (N,)."""
    return instance(SoftmaxCrossEntropyWithLogits)(logits, labels)


def sparse_softmax_cross_entropy(logits, labels):
    """Per-sample -log_softmax(logits)[n, labels[n]]: (N, C) and integer (N,) -> (N,)."""
    return instance(SparseSoftmaxCrossEntropyWithLogits, False, True)(logits, labels)


def bias_add(input_x, bias):
    """input_x + bias along axis 1 (the channel axis)."""
    return instance(BiasAdd)(input_x, bias)


def dropout(input, p=0.5, training=True, seed=None, *, keep_prob=None):
    """Zero each element with probability ``p`` and scale the rest by 1 / (1 - p) (``ops.dropout``).

    Returns the output only. ``training=False`` or p=0 returns ``input`` unchanged. ``keep_prob``
    (1.x style) may be given instead of p. ``seed`` is accepted and unused: the mask comes from numpy's
    global generator, which ``set_seed`` seeds.
    """
    if keep_prob is None:
        if not isinstance(p, (int, float)) or not 0.0 <= p < 1.0:
            raise ValueError(f"dropout: p must be in [0, 1), got {p!r}")
        keep_prob = 1.0 - float(p)
    if not training or keep_prob == 1.0:
        return input
    return op_table.mul(input, instance(DropoutGenMask, keep_prob=float(keep_prob))(input))


def l2_loss(x):
    """sum(x ** 2) / 2."""
    return instance(L2Loss)(x)


__all__ += ["softmax", "log_softmax", "softmax_cross_entropy", "sparse_softmax_cross_entropy", "bias_add", "dropout",
            "l2_loss"]
op_table.register(globals(), __all__)
