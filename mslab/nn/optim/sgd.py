"""SGD with optional momentum, dampening and Nesterov (``mindspore.nn.SGD``).

    v = momentum * v + (1 - dampening) * g      (v = g on the first step)
    w = w - lr * v                              (nesterov: w = w - lr * (g + momentum * v))

With ``momentum=0`` it is plain ``w = w - lr * g``. State: ``accum.<name>`` (v) and ``stat.<name>``
(1 until the first step, then 0: how the first step is told apart without Python branching), and the
Parameter ``momentum`` (as in MindSpore's parameter list and checkpoints). Each weight
is updated by one ``SGD`` node, as in MindSpore (inside ``skip_update_if``, the state of a skipped step is
written back).
"""

from mslab.nn.optim.optimizer import Optimizer, _check_number, clone_state, state_param
from mslab.ops.optim_ops import SGD as SGDUpdate


class SGD(Optimizer):
    """``SGD(params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False,
    loss_scale=1.0)``."""

    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False,
                 loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self._momentum = _check_number("momentum", momentum, owner="SGD")
        self.dampening = _check_number("dampening", dampening, owner="SGD")
        if nesterov and (self._momentum <= 0 or self.dampening != 0):
            raise ValueError("SGD: nesterov needs momentum > 0 and dampening == 0")
        self.nesterov = bool(nesterov)
        # a Parameter named "momentum" after the weights, as MindSpore's (checkpoints hold it, even when 0)
        self.momentum = state_param(self._momentum, "momentum")
        self.accum = clone_state(self.parameters, "accum", "zeros")
        self.stat = clone_state(self.parameters, "stat", "ones")
        self._sgd = SGDUpdate(dampening=self.dampening, nesterov=self.nesterov)

    def construct(self, gradients):
        grads, lrs = self._prepare(gradients)
        sgd, momentum = self._sgd, self.momentum
        with self.kept_if_skipped(*self.parameters, *self.accum, *self.stat):  # one SGD node per weight
            return tuple([sgd(w, g, lr, v, momentum, s)
                          for w, v, s, g, lr in zip(self.parameters, self.accum, self.stat, grads, lrs)])
