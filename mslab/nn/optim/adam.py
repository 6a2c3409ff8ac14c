"""Adam and AdamWeightDecay (``mindspore.nn.Adam``, ``mindspore.nn.AdamWeightDecay``).

Adam (the Adam kernel; state ``moment1.<name>``, ``moment2.<name>``, ``beta1_power``, ``beta2_power``)::

    beta1_power *= beta1; beta2_power *= beta2            # beta^t
    m = m + (g - m) * (1 - beta1)                         # = beta1*m + (1-beta1)*g
    v = v + (g*g - v) * (1 - beta2)
    w = w - lr * sqrt(1 - beta2^t) / (1 - beta1^t) * m / (sqrt(v) + eps)   # eps outside the correction

As MindSpore's kernel, ``1 - beta`` is taken in float32, from float32 beta: 1 - 0.999 is 0.000999987, not
0.001 (MindSpore 2.10 CPU: one step of w = 0.05, g = 1e-4 leaves moment1 at 1.0000002e-05).

AdamWeightDecay (state ``adam_m.<name>``, ``adam_v.<name>``; no bias correction, decoupled decay)::

    m = beta1*m + (1-beta1)*g;  v = beta2*v + (1-beta2)*g*g
    update = m / (sqrt(v) + eps) + weight_decay * w       # decay skipped for "beta"/"gamma" names
    w = w - lr * update
"""
import numpy as np

from mslab.nn.optim.optimizer import Optimizer, _check_number, clone_state, state_param
from mslab.ops import functional as F


def float32_complement(beta):
    """``1 - beta`` as float32 arithmetic gives it (what MindSpore's kernels use), as a Python float."""
    return float(np.float32(1.0) - np.float32(beta))


def _check_betas(owner, beta1, beta2, eps):
    for name, b in (("beta1", beta1), ("beta2", beta2)):
        b = _check_number(name, b, owner=owner)
        if not 0.0 <= b < 1.0:
            raise ValueError(f"{owner}: {name} must be in [0, 1), got {b}")
    _check_number("eps", eps, strict=True, owner=owner)
    return float(beta1), float(beta2), float(eps)


class Adam(Optimizer):
    """``Adam(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
    use_nesterov=False, weight_decay=0.0, loss_scale=1.0)``."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0, use_amsgrad=False, **kwargs):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.beta1, self.beta2, self.eps = _check_betas("Adam", beta1, beta2, eps)
        self.use_nesterov = bool(use_nesterov)
        self.beta1_power = state_param(1.0, "beta1_power")
        self.beta2_power = state_param(1.0, "beta2_power")
        self.moment1 = clone_state(self.parameters, "moment1", "zeros")
        self.moment2 = clone_state(self.parameters, "moment2", "zeros")

    def construct(self, gradients):
        grads, lrs = self._prepare(gradients)
        b1, b2 = self.beta1, self.beta2
        b1p = F.mul(self.beta1_power, b1)
        b2p = F.mul(self.beta2_power, b2)
        out = [F.assign(self.beta1_power, self._keep(self.beta1_power, b1p)),
               F.assign(self.beta2_power, self._keep(self.beta2_power, b2p))]
        correction = F.div(F.sqrt(F.sub(1.0, b2p)), F.sub(1.0, b1p))
        rest1, rest2 = float32_complement(b1), float32_complement(b2)
        for w, m, v, g, lr in zip(self.parameters, self.moment1, self.moment2, grads, lrs):
            m_new = F.add(m, F.mul(F.sub(g, m), rest1))
            v_new = F.add(v, F.mul(F.sub(F.mul(g, g), v), rest2))
            out.append(F.assign(m, self._keep(m, m_new)))
            out.append(F.assign(v, self._keep(v, v_new)))
            step = m_new
            if self.use_nesterov:
                step = F.add(F.mul(m_new, b1), F.mul(g, rest1))
            lr_t = F.mul(lr, correction)
            w_new = F.sub(w, F.div(F.mul(lr_t, step), F.add(F.sqrt(v_new), self.eps)))
            out.append(F.assign(w, self._keep(w, w_new)))
        return tuple(out)


class AdamWeightDecay(Optimizer):
    """``AdamWeightDecay(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0)``."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0,
                 loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.beta1, self.beta2, self.eps = _check_betas("AdamWeightDecay", beta1, beta2, eps)
        self.moments1 = clone_state(self.parameters, "adam_m", "zeros")
        self.moments2 = clone_state(self.parameters, "adam_v", "zeros")

    def decay_weight(self, gradients):
        return tuple(gradients)  # the decay is part of the update itself (decoupled), not of the gradient

    def construct(self, gradients):
        grads, lrs = self._prepare(gradients)
        b1, b2 = self.beta1, self.beta2
        rest1, rest2 = float32_complement(b1), float32_complement(b2)
        out = []
        for w, m, v, g, lr, wd in zip(self.parameters, self.moments1, self.moments2, grads, lrs, self._decays):
            m_new = F.add(F.mul(m, b1), F.mul(g, rest1))
            v_new = F.add(F.mul(v, b2), F.mul(F.mul(g, g), rest2))
            update = F.div(m_new, F.add(F.sqrt(v_new), self.eps))
            if wd > 0:
                update = F.add(update, F.mul(w, wd))
            out.append(F.assign(m, self._keep(m, m_new)))
            out.append(F.assign(v, self._keep(v, v_new)))
            out.append(F.assign(w, self._keep(w, F.sub(w, F.mul(lr, update)))))
        return tuple(out)
