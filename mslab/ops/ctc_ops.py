"""Connectionist temporal classification: ``P.CTCLoss`` (MindSpore's TensorFlow-style CTC loss).

``CTCLoss(preprocess_collapse_repeated, ctc_merge_repeated, ignore_longer_outputs_than_inputs)(inputs,
labels_indices, labels_values, sequence_length)`` takes unnormalised scores ``inputs`` (T, N, C) and labels
as a sparse tensor (``labels_indices`` (M, 2) Int64 of (sample, position), ``labels_values`` (M,) Int32) and
returns ``(loss (N,), gradient (T, N, C))``; the class C - 1 is the blank.

For one sample with softmax probabilities y[t, c] and the label l extended with blanks, l' = (b, l1, b, l2, ..., b):

    alpha[u, t] = y[l'u, t] * (alpha[u, t-1] + alpha[u-1, t-1] + alpha[u-2, t-1])    (the u-2 term only when
                  l'u is not blank and differs from l'(u-2); without ctc_merge_repeated a label state
                  cannot stay, and may always skip from u-2)
    loss = -log p(l | x),  p = alpha[U-1, T-1] + alpha[U-2, T-1]
    gradient[t, c] = y[t, c] - sum over u with l'u = c of alpha[u, t] * beta[u, t] / p   (d loss / d inputs)

with beta the same recursion run backwards. As MindSpore 2.10's CPU kernel (observed): a blank among the
label values is dropped; frames past a sample's sequence length get a zero gradient; a label that cannot fit
its frames gives loss inf and a zero gradient; a label longer than its sequence is an error unless
ignore_longer_outputs_than_inputs. Where MindSpore's kernel gives numbers that are not a CTC loss, mslab
keeps to the formula above (observed on MindSpore 2.10 CPU: a sample with an empty label, or with label
values outside [0, C - 1), gets a loss whose gradient's posteriors do not sum to 1; mslab drops those
values and gives -log p of what is left, -sum log y[blank] for an empty label). The gradient output carries
no gradient of its own; the loss's gradient is ``gradient * dloss`` (MindSpore's bprop).
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core.op_registry import op_table
from mslab.ops.primitive import Primitive, instance

__all__ = ["CTCLoss", "CTCLossValue", "CTCLossGradient"]


def _labels(indices, values, n, n_classes, collapse):
    """Each sample's label list, ordered by position, without values outside [0, blank)."""
    out = [[] for _ in range(n)]
    for (b, _pos), v in sorted(zip(map(tuple, indices.tolist()), values.tolist())):
        if 0 <= v < n_classes - 1:
            out[b].append(v)
    if collapse:
        out = [[v for i, v in enumerate(lab) if i == 0 or v != lab[i - 1]] for lab in out]
    return out


def _logsumexp(*terms):
    stacked = np.stack(terms)
    top = np.max(stacked, axis=0)
    safe = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        return safe + np.log(np.sum(np.exp(stacked - safe), axis=0))


def _shift(a, k, fill):
    """``a`` moved k places to the right (k < 0: to the left), ``fill`` coming in; same length."""
    out = np.full_like(a, fill)
    if k > 0:
        out[k:] = a[:-k]
    else:
        out[:k] = a[-k:]
    return out


def _one_sample(logy, label, blank, merge):
    """(loss, d loss / d scores) for one sample's log-probabilities ``logy`` (T, C)."""
    n_t, n_c = logy.shape
    lp = np.full(2 * len(label) + 1, blank)
    lp[1::2] = label
    n_u = len(lp)
    stay = merge | (lp == blank)  # a state may repeat its symbol
    skip = np.zeros(n_u, bool)
    skip[2:] = (lp[2:] != blank) & ((lp[2:] != lp[:-2]) | (not merge))
    ninf = -np.inf
    alpha = np.full((n_t, n_u), ninf)
    alpha[0, 0] = logy[0, blank]
    if n_u > 1:
        alpha[0, 1] = logy[0, lp[1]]
    for t in range(1, n_t):
        prev = alpha[t - 1]
        a = np.where(stay, prev, ninf)
        c = np.where(skip, _shift(prev, 2, ninf), ninf)
        alpha[t] = _logsumexp(a, _shift(prev, 1, ninf), c) + logy[t, lp]
    beta = np.full((n_t, n_u), ninf)
    beta[-1, -1] = 0.0
    if n_u > 1:
        beta[-1, -2] = 0.0
    for t in range(n_t - 2, -1, -1):
        nxt = beta[t + 1] + logy[t + 1, lp]
        a = np.where(stay, nxt, ninf)
        c = np.where(_shift(skip, -2, False), _shift(nxt, -2, ninf), ninf)
        beta[t] = _logsumexp(a, _shift(nxt, -1, ninf), c)
    log_p = _logsumexp(alpha[-1, -1], alpha[-1, -2]) if n_u > 1 else alpha[-1, -1]
    if not np.isfinite(log_p):
        return np.inf, np.zeros((n_t, n_c))
    post = np.exp(alpha + beta - log_p)  # P(state u at time t | x, l)
    grad = np.exp(logy)
    np.add.at(grad.T, lp, -post.T)
    return -log_p, grad


def ctc_loss_and_gradient(x, indices, values, seq_len, collapse, merge, ignore_longer):
    """numpy (loss (N,), gradient (T, N, C)) of the module docstring, in float64."""
    n_t, n, n_c = x.shape
    labels = _labels(indices, values, n, n_classes=n_c, collapse=collapse)
    loss, grad = np.zeros(n), np.zeros((n_t, n, n_c))
    z = x.astype(np.float64)
    logy = z - z.max(-1, keepdims=True)
    logy = logy - np.log(np.exp(logy).sum(-1, keepdims=True))
    for b in range(n):
        s = int(seq_len[b])
        if s <= 0:
            raise RuntimeError(f"For 'CTCLoss, the 'sequence_length' must be greater than 0, but got {s}.")
        if s > n_t:
            raise RuntimeError(f"For 'CTCLoss, the 'max_time'(the 1st dimension value of 'probs') must be greater "
                               f"than or equal to 'sequence_length', but got 'max_time': {n_t} and "
                               f"'sequence_length': {s}")
        if len(labels[b]) > s:
            if not ignore_longer:
                raise RuntimeError(f"For 'CTCLoss, input time(sequence length) must be greater than output "
                                   f"size(label length), but got sequence length: {s} and label length: "
                                   f"{len(labels[b])}")
            loss[b] = np.inf
            continue
        loss[b], grad[:s, b] = _one_sample(logy[:s, b], labels[b], n_c - 1, merge)
    return loss, grad


class CTCLossValue(Primitive):
    """The loss output of CTCLoss, (N,); d/dinputs = CTCLossGradient * dloss (per sample)."""

    n_tensors = 4

    def __init__(self, preprocess_collapse_repeated=False, ctc_merge_repeated=True,
                 ignore_longer_outputs_than_inputs=False):
        super().__init__(preprocess_collapse_repeated=bool(preprocess_collapse_repeated),
                         ctc_merge_repeated=bool(ctc_merge_repeated),
                         ignore_longer_outputs_than_inputs=bool(ignore_longer_outputs_than_inputs))

    def _check(self, x, indices, values, seq_len):
        name = "CTCLoss"
        if x.dtype.kind != "f":
            raise TypeError(f"For primitive[{name}], the input argument[inputs] must be a type of {{Tensor[Float16], "
                            f"Tensor[Float32], Tensor[Float64]}}, but got Tensor[{mstype.from_numpy(x.dtype)}].")
        if len(x.shape) != 3:
            raise ValueError(f"For primitive[{name}], the inputs rank must be equal to 3, but got {len(x.shape)}.")
        for what, v, dt in (("labels_indices", indices, np.int64), ("labels_values", values, np.int32),
                            ("sequence_length", seq_len, np.int32)):
            if v.dtype != dt:
                raise TypeError(f"For primitive[{name}], the input argument[{what}] must be a type of "
                                f"{{Tensor[{mstype.from_numpy(np.dtype(dt))}]}}, but got "
                                f"Tensor[{mstype.from_numpy(v.dtype)}].")
        if len(indices.shape) != 2 or indices.shape[1] != 2 or tuple(values.shape) != (indices.shape[0],):
            raise ValueError(f"For '{name}', labels_indices must be (M, 2) and labels_values (M,), got "
                             f"{tuple(indices.shape)} and {tuple(values.shape)}")
        if tuple(seq_len.shape) != (x.shape[1],):
            raise ValueError(f"For '{name}', input batch_size must be same with 'sequence_length' batch_size, but "
                             f"got input batch_size:{x.shape[1]}, 'sequence_length' batch_size: {seq_len.shape[0]}.")

    def infer(self, x, indices, values, seq_len):
        self._check(x, indices, values, seq_len)
        return (x.shape[1],), x.dtype

    def _run(self, x, indices, values, seq_len):
        return ctc_loss_and_gradient(x, indices, values, seq_len, self.preprocess_collapse_repeated,
                                     self.ctc_merge_repeated, self.ignore_longer_outputs_than_inputs)

    def compute(self, x, indices, values, seq_len):
        return self._run(x, indices, values, seq_len)[0].astype(x.dtype)

    def bprop(self, x, indices, values, seq_len, out, dout):
        grad = instance(CTCLossGradient, **self.attrs)(x, indices, values, seq_len)
        return grad * dout.reshape((1, -1, 1)), None, None, None


class CTCLossGradient(CTCLossValue):
    """The gradient output of CTCLoss, (T, N, C): d loss / d inputs. It has no gradient itself (as in MindSpore)."""

    differentiable = False

    def infer(self, x, indices, values, seq_len):
        self._check(x, indices, values, seq_len)
        return tuple(x.shape), x.dtype

    def compute(self, x, indices, values, seq_len):
        return self._run(x, indices, values, seq_len)[1].astype(x.dtype)

    def bprop(self, *args):  # no gradient for any input
        *inputs, out, dout = args
        return (None,) * len(inputs)


class CTCLoss(CTCLossValue):
    """``P.CTCLoss(...)(inputs, labels_indices, labels_values, sequence_length)`` -> (loss, gradient).

    Recorded as two nodes, CTCLossValue and CTCLossGradient (see the module docstring).
    """

    def __call__(self, x, indices, values, seq_len):
        return (instance(CTCLossValue, **self.attrs)(x, indices, values, seq_len),
                instance(CTCLossGradient, **self.attrs)(x, indices, values, seq_len))

    def bprop(self, *args):
        raise NotImplementedError("CTCLoss is recorded as CTCLossValue and CTCLossGradient; it is never a node itself")


op_table.register(globals(), __all__)
