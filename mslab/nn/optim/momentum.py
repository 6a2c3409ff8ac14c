"""Momentum: SGD with a velocity per weight (``mindspore.nn.Momentum``, the ApplyMomentum kernel).

    v = v * momentum + g
    w = w - lr * v                          (use_nesterov: w = w - lr * g - lr * momentum * v)

The velocities are Parameters named ``moments.<param name>``, made with
``parameters.clone(prefix="moments", init="zeros")``. Each weight is updated by one ``ApplyMomentum`` node,
as in MindSpore (inside ``skip_update_if``, by the element-wise ops and ``Assign``).
"""
from mslab.nn.optim.optimizer import Optimizer, _check_number, clone_state, state_param
from mslab.ops import functional as F
from mslab.ops.optim_ops import ApplyMomentum


class Momentum(Optimizer):
    """``Momentum(params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0, use_nesterov=False)``."""

    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0, use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self._momentum = _check_number("momentum", momentum, owner="Momentum")
        self.momentum = state_param(self._momentum, "momentum")
        self.use_nesterov = bool(use_nesterov)
        self.moments = clone_state(self.parameters, "moments", "zeros")
        self._apply_momentum = ApplyMomentum(use_nesterov=self.use_nesterov)

    def construct(self, gradients):
        grads, lrs = self._prepare(gradients)
        m = self.momentum
        if self._skip_cond is None:  # one ApplyMomentum per weight, as MindSpore's nn.Momentum
            apply = self._apply_momentum
            return tuple([apply(w, v, lr, g, m) for w, v, g, lr in zip(self.parameters, self.moments, grads, lrs)])
        out = []
        for w, v, g, lr in zip(self.parameters, self.moments, grads, lrs):
            # inside ``skip_update_if``: the same update op by op, each write keeping the old value where skipped
            v_new = F.add(F.mul(v, m), g)
            out.append(F.assign(v, self._keep(v, v_new)))
            if self.use_nesterov:
                w_new = F.sub(F.sub(w, F.mul(g, lr)), F.mul(F.mul(v_new, m), lr))
            else:
                w_new = F.sub(w, F.mul(lr, v_new))
            out.append(F.assign(w, self._keep(w, w_new)))
        return tuple(out)
