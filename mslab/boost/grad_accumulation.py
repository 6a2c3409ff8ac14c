"""Gradient accumulation, as ``mindspore.boost.GradientAccumulation``: M small batches make one update.

Each call adds this step's gradients, divided by M (``max_accumulation_step``), into a zero-initialised copy of the
weights (``grad_accumulation.<name>``); on every M-th call the optimizer applies the accumulated gradients (the mean
over the M steps) and the sums go back to zero. In between, the weights do not move::

    acc += g / M                      every step
    step += 1
    if step >= M:  optimizer(acc); step = 0; acc = 0

So M batches of size B update the weights as one batch of size M * B would with a mean loss.
"""
from mslab.autodiff.control_flow import if_
from mslab.core import dtype as mstype
from mslab.core.tensor import Parameter, Tensor
from mslab.nn.cell import Cell
from mslab.ops import functional as F
from mslab.ops.composite_ops import HyperMap, MultitypeFuncGraph

__all__ = ["GradientAccumulation", "gradient_accumulation_op", "gradient_clear_op"]

gradient_accumulation_op = MultitypeFuncGraph("gradient_accumulation_op")


@gradient_accumulation_op.register("Int", "Tensor", "Tensor")
def _accumulate(accumulation_step, cumulative_grad, grad):
    """cumulative_grad += grad / accumulation_step (in place)."""
    F.assign_add(cumulative_grad, grad / accumulation_step)
    return cumulative_grad


gradient_clear_op = MultitypeFuncGraph("gradient_clear_op")


@gradient_clear_op.register("Tensor")
def _clear(cumulative_grad):
    """cumulative_grad = 0 (in place)."""
    return F.assign(cumulative_grad, F.zeros_like(cumulative_grad))


class GradientAccumulation(Cell):
    """``GradientAccumulation(max_accumulation_step, optimizer)``, called as ``loss = acc(loss, grads)``.

    Holds the optimizer, ``weights`` (its parameters), ``hyper_map``, the sums ``_grad_accumulation`` and the
    counter ``_accumulation_step`` (an int32 Parameter), under MindSpore 2.10's names: subclasses use them.
    """

    def __init__(self, max_accumulation_step, optimizer):
        super().__init__()
        self._max_accumulation_step = max_accumulation_step
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.hyper_map = HyperMap()
        self._grad_accumulation = self.weights.clone(prefix="grad_accumulation", init="zeros")
        self._accumulation_step = Parameter(Tensor(0, dtype=mstype.int32), name="accumulation_step")

    def construct(self, loss, grads):
        loss = F.depend(loss, self.hyper_map(F.partial(gradient_accumulation_op, self._max_accumulation_step),
                                             self._grad_accumulation, grads))
        loss = F.depend(loss, F.assign_add(self._accumulation_step, Tensor(1, mstype.int32)))
        # `if step >= M:` on a tensor: an If node in GRAPH mode (the graph front end converts user code, not
        # mslab's own, so this library code calls the If helper that converted code would call)
        return if_(self._accumulation_step >= self._max_accumulation_step, self._update, lambda x: x, (loss,),
                   ("loss",))

    def _update(self, loss):
        """Apply the accumulated gradients, then start counting and summing again."""
        loss = F.depend(loss, self.optimizer(self._grad_accumulation))
        loss = F.depend(loss, F.assign(self._accumulation_step, Tensor(0, mstype.int32)))
        return F.depend(loss, self.hyper_map(F.partial(gradient_clear_op), self._grad_accumulation))
