"""Per-coordinate adaptive optimizers: RMSProp, Adagrad, AdaMax, Adadelta (``mindspore.nn``).

Each divides the step by a running measure of the gradient's size, kept per weight element. As
MindSpore's kernels (ApplyRMSProp, ApplyCenteredRMSProp, ApplyAdagrad, ApplyAdaMax, ApplyAdadelta),
with state named as MindSpore names it (``opt.get_parameters()`` on MindSpore 2.10)::

    RMSProp   (mean_square.w = 1, moment.w = 0; centered adds mean_grad.w = 0)
        s = decay s + (1 - decay) g^2;  [c: gm = decay gm + (1 - decay) g;  s_hat = s - gm^2]
        mom = momentum mom + lr g / sqrt(s_hat + eps);  w = w - mom
    Adagrad   (accum.w = accum, default 0.1)
        a = a + g^2;  w = w - lr g / sqrt(a)
    AdaMax    (beta1_power = 1, moment1.w = 0, moment2.w = 0)
        beta1_power *= beta1;  m = beta1 m + (1 - beta1) g;  v = max(beta2 v, |g|)
        w = w - lr / (1 - beta1_power) * m / (v + eps)
    Adadelta  (accum.w = 0, accum_update.w = 0)
        a = rho a + (1 - rho) g^2;  u = sqrt(au + eps) / sqrt(a + eps) g
        au = rho au + (1 - rho) u^2;  w = w - lr u
"""
from mslab.nn.optim.adam import _check_betas
from mslab.nn.optim.optimizer import Optimizer, _check_number, clone_state, state_param
from mslab.ops import functional as F

__all__ = ["RMSProp", "Adagrad", "AdaMax", "Adadelta"]


def _fraction(owner, name, value):
    value = _check_number(name, value, owner=owner)
    if value > 1.0:
        raise ValueError(f"{owner}: {name} must be in [0, 1], got {value}")
    return value


class RMSProp(Optimizer):
    """``RMSProp(params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
    centered=False, loss_scale=1.0, weight_decay=0.0)``."""

    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
                 centered=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.decay = _fraction("RMSProp", "decay", decay)
        self.momentum = _check_number("momentum", momentum, owner="RMSProp")
        self.epsilon = _check_number("epsilon", epsilon, strict=True, owner="RMSProp")
        self.centered = bool(centered)
        if self.centered:
            self.mean_grad = clone_state(self.parameters, "mean_grad", "zeros")
        self.mean_square = clone_state(self.parameters, "mean_square", "ones")
        self.moment = clone_state(self.parameters, "moment", "zeros")

    def construct(self, gradients):
        grads, lrs = self._prepare(gradients)
        d = self.decay
        means = self.mean_grad if self.centered else [None] * len(grads)
        out = []
        for w, gm, s, mom, g, lr in zip(self.parameters, means, self.mean_square, self.moment, grads, lrs):
            s_new = F.add(F.mul(s, d), F.mul(F.square(g), 1.0 - d))
            out.append(F.assign(s, self._keep(s, s_new)))
            size = s_new
            if gm is not None:
                gm_new = F.add(F.mul(gm, d), F.mul(g, 1.0 - d))
                out.append(F.assign(gm, self._keep(gm, gm_new)))
                size = F.sub(s_new, F.square(gm_new))
            mom_new = F.add(F.mul(mom, self.momentum), F.div(F.mul(g, lr), F.sqrt(F.add(size, self.epsilon))))
            out.append(F.assign(mom, self._keep(mom, mom_new)))
            out.append(F.assign(w, self._keep(w, F.sub(w, mom_new))))
        return tuple(out)


class Adagrad(Optimizer):
    """``Adagrad(params, accum=0.1, learning_rate=0.001, update_slots=True, loss_scale=1.0, weight_decay=0.0)``."""

    def __init__(self, params, accum=0.1, learning_rate=0.001, update_slots=True, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.update_slots = bool(update_slots)
        self.accum = clone_state(self.parameters, "accum", _check_number("accum", accum, owner="Adagrad"))

    def construct(self, gradients):
        grads, lrs = self._prepare(gradients)
        out = []
        for w, a, g, lr in zip(self.parameters, self.accum, grads, lrs):
            a_new = F.add(a, F.square(g)) if self.update_slots else a
            if self.update_slots:
                out.append(F.assign(a, self._keep(a, a_new)))
            out.append(F.assign(w, self._keep(w, F.sub(w, F.div(F.mul(g, lr), F.sqrt(a_new))))))
        return tuple(out)


class AdaMax(Optimizer):
    """``AdaMax(params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08, weight_decay=0.0, loss_scale=1.0)``."""

    def __init__(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08, weight_decay=0.0,
                 loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.beta1, self.beta2, self.eps = _check_betas("AdaMax", beta1, beta2, eps)
        self.beta1_power = state_param(1.0, "beta1_power")
        self.moment1 = clone_state(self.parameters, "moment1", "zeros")
        self.moment2 = clone_state(self.parameters, "moment2", "zeros")

    def construct(self, gradients):
        grads, lrs = self._prepare(gradients)
        b1, b2 = self.beta1, self.beta2
        b1p = F.mul(self.beta1_power, b1)
        out = [F.assign(self.beta1_power, self._keep(self.beta1_power, b1p))]
        for w, m, v, g, lr in zip(self.parameters, self.moment1, self.moment2, grads, lrs):
            m_new = F.add(F.mul(m, b1), F.mul(g, 1.0 - b1))
            v_new = F.maximum(F.mul(v, b2), F.abs(g))
            out.append(F.assign(m, self._keep(m, m_new)))
            out.append(F.assign(v, self._keep(v, v_new)))
            step = F.div(F.mul(F.div(lr, F.sub(1.0, b1p)), m_new), F.add(v_new, self.eps))
            out.append(F.assign(w, self._keep(w, F.sub(w, step))))
        return tuple(out)


class Adadelta(Optimizer):
    """``Adadelta(params, learning_rate=1.0, rho=0.9, epsilon=1e-6, loss_scale=1.0, weight_decay=0.0)``."""

    def __init__(self, params, learning_rate=1.0, rho=0.9, epsilon=1e-6, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.rho = _fraction("Adadelta", "rho", rho)
        self.epsilon = _check_number("epsilon", epsilon, strict=True, owner="Adadelta")
        self.accum = clone_state(self.parameters, "accum", "zeros")
        self.accum_update = clone_state(self.parameters, "accum_update", "zeros")

    def construct(self, gradients):
        grads, lrs = self._prepare(gradients)
        rho, eps = self.rho, self.epsilon
        out = []
        for w, a, au, g, lr in zip(self.parameters, self.accum, self.accum_update, grads, lrs):
            a_new = F.add(F.mul(a, rho), F.mul(F.square(g), 1.0 - rho))
            update = F.mul(F.div(F.sqrt(F.add(au, eps)), F.sqrt(F.add(a_new, eps))), g)
            au_new = F.add(F.mul(au, rho), F.mul(F.square(update), 1.0 - rho))
            out.append(F.assign(a, self._keep(a, a_new)))
            out.append(F.assign(au, self._keep(au, au_new)))
            out.append(F.assign(w, self._keep(w, F.sub(w, F.mul(update, lr)))))
        return tuple(out)
