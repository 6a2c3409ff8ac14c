"""Momentum: SGD with a velocity per weight (``mindspore.nn.Momentum``, the ApplyMomentum kernel).

    v = v * momentum + g
    w = w - lr * v                          (documented for use_nesterov: w = w - lr * g - lr * momentum * v)

MindSpore 2.10's CPU kernel ignores ``use_nesterov`` (observed), and so does mslab, saying so once.

The velocities are Parameters named ``moments.<param name>``, made with
``parameters.clone(prefix="moments", init="zeros")``. Each weight is updated by one ``ApplyMomentum`` node,
as in MindSpore (inside ``skip_update_if``, the weights and velocities of a skipped step are written back).
"""
from mslab.nn.optim.optimizer import Optimizer, _check_number, clone_state, state_param
from mslab.ops.kernel_differences import warn_kernel_differs
from mslab.ops.optim_ops import ApplyMomentum


class Momentum(Optimizer):
    """``Momentum(params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0, use_nesterov=False)``."""

    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0, use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self._momentum = _check_number("momentum", momentum, owner="Momentum")
        self.momentum = state_param(self._momentum, "momentum")
        self.use_nesterov = bool(use_nesterov)
        if self.use_nesterov:
            warn_kernel_differs("Momentum(use_nesterov=True)")
        self.moments = clone_state(self.parameters, "moments", "zeros")
        self._apply_momentum = ApplyMomentum(use_nesterov=self.use_nesterov)

    def construct(self, gradients):
        grads, lrs = self._prepare(gradients)
        apply, m = self._apply_momentum, self.momentum
        with self.kept_if_skipped(*self.parameters, *self.moments):  # one ApplyMomentum per weight
            return tuple([apply(w, v, lr, g, m) for w, v, g, lr in zip(self.parameters, self.moments, grads, lrs)])
