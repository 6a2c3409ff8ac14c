"""FTRL: Follow-The-Regularized-Leader, for wide sparse models (``mindspore.nn.FTRL``, the ApplyFtrl kernel).

State: ``moments.<name>`` (accum, starts at ``initial_accum``) and ``linear.<name>`` (starts at 0)::

    accum_new = accum + g*g
    linear    = linear + g - (accum_new^(-lr_power) - accum^(-lr_power)) / lr * w
    quadratic = accum_new^(-lr_power) / lr + 2 * l2
    w         = (l1 - linear) / quadratic                  if |linear| > l1   else 0
    accum     = accum_new

(with the default ``lr_power=-0.5`` the powers are square roots). MindSpore documents the update of w as
``(sign(linear) * l1 - linear) / quadratic``; its 2.10 CPU kernel computes ``(l1 - linear) / quadratic``
(observed: w = 0.05, g = 0.3, l1 = 0.5 gives 0.01418502, where the documented formula gives 0.01189086).
mslab computes what the kernel computes, and warns once (kernel_differences.py) when l1 makes them differ.
"""
from mslab.nn.optim.optimizer import Optimizer, _check_number, clone_state
from mslab.ops import functional as F
from mslab.ops.kernel_differences import warn_kernel_differs


class FTRL(Optimizer):
    """``FTRL(params, initial_accum=0.1, learning_rate=0.001, lr_power=-0.5, l1=0.0, l2=0.0,
    use_locking=False, loss_scale=1.0, weight_decay=0.0)``."""

    def __init__(self, params, initial_accum=0.1, learning_rate=0.001, lr_power=-0.5, l1=0.0, l2=0.0,
                 use_locking=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if self.dynamic_lr or self.is_group_lr:
            raise ValueError("FTRL: the learning rate must be one fixed number (as in MindSpore)")
        self.initial_accum = _check_number("initial_accum", initial_accum, owner="FTRL")
        lr_power = float(lr_power)
        if lr_power > 0:
            raise ValueError(f"FTRL: lr_power must be <= 0, got {lr_power}")
        self.lr_power = lr_power
        self.l1 = _check_number("l1", l1, owner="FTRL")
        self.l2 = _check_number("l2", l2, owner="FTRL")
        if self.l1 > 0:
            warn_kernel_differs("FTRL")
        self.moments = clone_state(self.parameters, "moments", self.initial_accum)
        self.linear = clone_state(self.parameters, "linear", "zeros")

    def _power(self, x):
        if self.lr_power == -0.5:
            return F.sqrt(x)
        return F.pow(x, -self.lr_power)

    def construct(self, gradients):
        grads, lrs = self._prepare(gradients)
        out = []
        for w, acc, lin, g, lr in zip(self.parameters, self.moments, self.linear, grads, lrs):
            acc_new = F.add(acc, F.mul(g, g))
            y = self._power(acc_new)
            lin_new = F.add(lin, F.sub(g, F.mul(F.div(F.sub(y, self._power(acc)), lr), w)))
            quadratic = F.add(F.div(y, lr), 2.0 * self.l2)
            x = F.sub(self.l1, lin_new)  # MindSpore's CPU kernel: no sign(linear) on l1 (see the module docstring)
            w_new = F.select(F.greater(F.abs(lin_new), self.l1), F.div(x, quadratic), F.zeros_like(w))
            out.append(F.assign(acc, self._keep(acc, acc_new)))
            out.append(F.assign(lin, self._keep(lin, lin_new)))
            out.append(F.assign(w, self._keep(w, w_new)))
        return tuple(out)
