"""Loss scaling: train in low precision without gradients underflowing (``mindspore.nn.wrap.loss_scale``).

The loss is multiplied by a large *scale* before backprop (by passing the scale as the sens), the
gradients are divided by it afterwards, and if any gradient came out inf/nan (overflow) the step is
skipped. ``DynamicLossScaleUpdateCell`` then halves the scale (never below 1); after ``scale_window``
clean steps in a row it multiplies the scale by ``scale_factor``.

GRAPH mode cannot write ``if not overflow: optimizer(grads)`` (a branch on a tensor's value), so the
update is always computed and ``ops.select(overflow, old, new)`` keeps the old values on overflow.
"""
import numpy as np

from mslab.autodiff.grad_operation import LossAndGrads
from mslab.core.tensor import Parameter, Tensor
from mslab.nn.cell import Cell
from mslab.nn.wrap.cell_wrapper import TrainOneStepCell
from mslab.ops import functional as F
from mslab.ops.composite_ops import HyperMap


def all_finite(grads):
    """A 0-d bool tensor: True when every element of every gradient is finite."""
    ok = None
    for g in grads:
        big = float(np.finfo(g._np_dtype).max) if g._np_dtype.kind == "f" else None
        if big is None:
            continue
        # |g| <= max is False for inf and for nan (every comparison with nan is False)
        fin = F.reduce_all(F.less_equal(F.abs(g), big), ())
        ok = fin if ok is None else F.logical_and(ok, fin)
    if ok is None:
        return Tensor(np.array(True))
    return ok


class FixedLossScaleUpdateCell(Cell):
    """A scale that never changes: ``construct(loss_scale, overflow)`` returns ``overflow``."""

    def __init__(self, loss_scale_value):
        super().__init__()
        if isinstance(loss_scale_value, bool) or not isinstance(loss_scale_value, (int, float)):
            raise TypeError("FixedLossScaleUpdateCell: loss_scale_value must be a number")
        self.loss_scale_value = float(loss_scale_value)

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        return overflow


class DynamicLossScaleUpdateCell(Cell):
    """Halve the scale on overflow (at least 1); grow it by ``scale_factor`` after ``scale_window`` clean steps.

    State: ``current_iterator_step`` (starts at 1) and ``last_overflow_iterator_step`` (starts at 0);
    the scale grows when ``cur - last >= scale_window``, and ``last`` then moves to ``cur``.
    """

    def __init__(self, loss_scale_value, scale_factor, scale_window):
        super().__init__()
        if scale_factor <= 1:
            raise ValueError(f"DynamicLossScaleUpdateCell: scale_factor must be > 1, got {scale_factor}")
        if int(scale_window) < 1:
            raise ValueError(f"DynamicLossScaleUpdateCell: scale_window must be >= 1, got {scale_window}")
        self.loss_scale_value = float(loss_scale_value)
        self.scale_factor = float(scale_factor)
        self.scale_window = int(scale_window)
        self.cur_iter = Parameter(Tensor(np.array(1, np.int32)), name="current_iterator_step", requires_grad=False)
        self.last_overflow_iter = Parameter(Tensor(np.array(0, np.int32)), name="last_overflow_iterator_step",
                                            requires_grad=False)

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        on_overflow = F.select(overflow, F.maximum(F.div(loss_scale, self.scale_factor), 1.0), loss_scale)
        should_inc = F.less_equal(self.scale_window, F.sub(self.cur_iter, self.last_overflow_iter))
        last_iter_cond = F.logical_or(overflow, should_inc)
        last_overflow_iter = F.select(last_iter_cond, self.cur_iter, self.last_overflow_iter)
        last_iter = F.assign(self.last_overflow_iter, last_overflow_iter)
        grow = F.logical_and(should_inc, F.logical_not(overflow))
        new_scale = F.select(grow, F.mul(on_overflow, self.scale_factor), on_overflow)
        F.assign(loss_scale, new_scale)
        inc = F.depend(F.add(self.cur_iter, 1), last_iter)
        F.assign(self.cur_iter, inc)
        return overflow


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """A training step with loss scaling; returns ``(loss, overflow, scale)``.

    ``scale_sense``: an update Cell (Fixed/DynamicLossScaleUpdateCell) or a Tensor scale. The step::

        scale = self.scale_sense                       # Parameter "scale_sense"
        grads = grad(network)(*inputs, ones_like(loss) * scale) / scale
        overflow = not all_finite(grads)
        overflow = update_cell(scale_sense, overflow)  # may change the scale
        optimizer(grads), unless overflow              # select(overflow, old, new) for every write

    ``scale`` returned is the one this step used.
    """

    def __init__(self, network, optimizer, scale_sense):
        super().__init__(network, optimizer, sens=None)
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            value = np.array(scale_sense.get_loss_scale(), np.float32)
        elif isinstance(scale_sense, Tensor):
            value = np.asarray(scale_sense.asnumpy(), np.float32)
            if value.size != 1:
                raise ValueError(f"TrainOneStepWithLossScaleCell: scale_sense must hold one number, got {value.shape}")
            value = value.reshape(())
        else:
            raise TypeError("TrainOneStepWithLossScaleCell: scale_sense must be an update Cell "
                            f"(e.g. DynamicLossScaleUpdateCell) or a Tensor, got {type(scale_sense).__name__}")
        self.scale_sense = Parameter(Tensor(value), name="scale_sense", requires_grad=False)
        self.hyper_map = HyperMap()

    def start_overflow_check(self, pre_cond, compute_input):
        """``(status, compute_input)``, status eight int32 zeros ordered after ``pre_cond`` (MindSpore's names).

        On Ascend, MindSpore clears the device's overflow flags here; mslab (like MindSpore on CPU) keeps no flags:
        :meth:`get_overflow_status` looks at the gradients themselves. Subclasses (mindcv's TrainStep) call it."""
        return F.depend(Tensor(np.zeros(8, np.int32)), pre_cond), compute_input

    def get_overflow_status(self, status, compute_output):
        """A 0-d bool tensor: True if any tensor of ``compute_output`` (the gradients) has an inf or nan.
        ``status`` is :meth:`start_overflow_check`'s first output (it orders the check)."""
        return F.logical_not(F.depend(all_finite(compute_output), status))

    def process_loss_scale(self, overflow):
        if self.loss_scaling_manager is None:
            return overflow
        return self.loss_scaling_manager(self.scale_sense, overflow)

    def set_sense_scale(self, sens):
        """Set the scale (a Tensor or a number)."""
        arr = sens.asnumpy() if isinstance(sens, Tensor) else np.asarray(sens, np.float32)
        self.scale_sense.set_data(Tensor(np.asarray(arr, np.float32).reshape(())))

    def construct(self, *inputs):
        scaling_sens = F.identity(self.scale_sense)  # a copy: the scale this step uses

        def scaled_sens(loss):
            return F.mul(F.ones_like(loss), F.cast(scaling_sens, loss.dtype))

        # one forward pass gives the loss and, seeded with the scaled sens, the gradients
        loss, grads = LossAndGrads(scaled_sens)(self.network, self.weights)(*inputs)
        inv = F.div(1.0, scaling_sens)
        grads = tuple(F.mul(g, F.cast(inv, g.dtype)) for g in grads)
        grads = self.grad_reducer(grads)
        status, scaling_sens = self.start_overflow_check(loss, scaling_sens)
        cond = self.get_overflow_status(status, grads)
        overflow = self.process_loss_scale(cond)
        with self.optimizer.skip_update_if(overflow):
            updates = self.optimizer(grads)
        loss = F.depend(loss, updates)
        return loss, cond, scaling_sens
