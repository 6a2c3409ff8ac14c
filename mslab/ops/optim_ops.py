"""Optimizer update kernels: each writes one weight (and its optimizer state) in place.

MindSpore's optimizers call one primitive per weight (``nn.Momentum`` calls ``ApplyMomentum``, ``nn.SGD``
calls ``SGD``), so a training step's graph shows one update node per weight; mslab's do the same. Like
``Assign`` they are side effects (never merged or removed, run in recording order, after the backward
nodes that read the weight) and have no gradient. Every array they write is journaled first
(``primitive.write_in_place``), so a step that fails part-way can put it back.

The arithmetic is the one the element-wise ops would do, in the same order and dtype.
"""
import numpy as np

from mslab.core import state
from mslab.core.tensor import Parameter, Tensor
from mslab.ops.kernel_differences import warn_kernel_differs
from mslab.ops.primitive import Primitive, check_float, subtract_in_place, write_in_place

__all__ = ["ApplyMomentum", "SGD"]  # MindSpore's P.ApplyMomentum and P.SGD


def _check_like(prim, variable, names, others):
    if variable.dtype.kind != "f":
        check_float(prim, variable)  # raises, naming the op and the dtype
    shape = variable.shape
    for i, v in enumerate(others):
        if v.shape != shape:
            raise ValueError(f"{names[i]} has shape {tuple(v.shape)} but the variable has shape {tuple(shape)}")


def _prepared(prim, args, written):
    """Check that the inputs written in place are Parameters; Python numbers (a learning rate, SGD's momentum)
    become tensors of the weight's dtype, as ``F.mul(v, 0.9)`` would make them."""
    for i in written:
        if not isinstance(args[i], Parameter):
            raise TypeError(f"{prim.name} writes its input {i} in place, so it must be a Parameter, "
                            f"got {type(args[i]).__name__}")
    for a in args:
        if not isinstance(a, Tensor):
            break
    else:  # the usual call: nothing to lift (a loop, not all(...): one optimizer call per weight pays this)
        return args
    dtype = args[0]._np_dtype
    return tuple(a if isinstance(a, Tensor) else Tensor._wrap(np.asarray(a, dtype)) for a in args)


class ApplyMomentum(Primitive):
    """``ApplyMomentum(use_nesterov=False)(variable, accumulation, learning_rate, gradient, momentum)``::

        accumulation = accumulation * momentum + gradient
        variable = variable - learning_rate * accumulation
        (use_nesterov: variable = variable - gradient * learning_rate - accumulation * momentum * learning_rate)

    Both Parameters are written in place; the updated variable is returned (MindSpore's ApplyMomentum).
    MindSpore 2.10's CPU kernel ignores ``use_nesterov`` (observed: the same numbers either way, for
    ``nn.Momentum`` and for this primitive); mslab follows the kernel, so an ApplyMomentum asked for Nesterov
    is made without it, with a warning that names the difference from the documented formula above.
    """

    n_tensors = 5
    side_effect = True
    differentiable = False
    mixed_precision = False

    def __init__(self, use_nesterov=False, use_locking=False, gradient_scale=1.0):
        if use_nesterov:
            warn_kernel_differs("Momentum(use_nesterov=True)")
        super().__init__(use_nesterov=False, use_locking=bool(use_locking), gradient_scale=float(gradient_scale))

    def prepare(self, args):
        return _prepared(self, args, (0, 1))

    def infer(self, variable, accumulation, learning_rate, gradient, momentum):
        _check_like(self, variable, ("accumulation", "gradient"), (accumulation, gradient))
        return tuple(variable.shape), variable.dtype

    def compute(self, variable, accumulation, learning_rate, gradient, momentum):
        if not self.use_nesterov and accumulation.dtype == gradient.dtype == momentum.dtype:
            # one dtype throughout: the accumulation is updated where it lies (journaled first), the same numbers
            # as below without two temporary arrays and a copy
            state.before_write(accumulation)
            np.add(np.multiply(accumulation, momentum, out=accumulation), gradient, out=accumulation)
            subtract_in_place(variable, np.multiply(learning_rate, accumulation))
            return variable
        acc = np.add(np.multiply(accumulation, momentum), gradient)
        write_in_place(accumulation, acc)
        if self.use_nesterov:
            write_in_place(variable, np.subtract(np.subtract(variable, np.multiply(gradient, learning_rate)),
                                                 np.multiply(np.multiply(acc, momentum), learning_rate)))
        else:
            subtract_in_place(variable, np.multiply(learning_rate, acc))
        return variable


class SGD(Primitive):
    """``SGD(dampening=0.0, weight_decay=0.0, nesterov=False)(parameters, gradient, learning_rate, accum,
    momentum, stat)``, MindSpore's SGD kernel (numbers observed on MindSpore 2.10 CPU)::

        gradient = gradient + weight_decay * parameters        (when weight_decay > 0)
        with momentum > 0:  accum = gradient where stat > 0 (the first step),
                                    else accum * momentum + gradient * (1 - dampening);   stat = 0
                            step = gradient + accum * momentum if nesterov else accum
        with momentum 0:    step = gradient (accum and stat are left alone, as observed on MindSpore 2.10)
        parameters = parameters - learning_rate * step

    ``parameters``, ``accum`` and ``stat`` are written in place; the updated parameters are returned.
    """

    n_tensors = 6
    side_effect = True
    differentiable = False
    mixed_precision = False

    def __init__(self, dampening=0.0, weight_decay=0.0, nesterov=False):
        super().__init__(dampening=float(dampening), weight_decay=float(weight_decay), nesterov=bool(nesterov))

    def prepare(self, args):
        return _prepared(self, args, (0, 3, 5))

    def infer(self, parameters, gradient, learning_rate, accum, momentum, stat):
        _check_like(self, parameters, ("gradient", "accum", "stat"), (gradient, accum, stat))
        return tuple(parameters.shape), parameters.dtype

    def compute(self, parameters, gradient, learning_rate, accum, momentum, stat):
        if self.weight_decay > 0:  # nn.SGD decays the gradient itself and gives 0 here
            gradient = np.add(gradient, np.multiply(parameters, np.asarray(self.weight_decay, parameters.dtype)))
        step = gradient
        if float(momentum) > 0:
            later = np.add(np.multiply(accum, momentum),
                           np.multiply(gradient, np.asarray(1.0 - self.dampening, gradient.dtype)))
            acc = np.where(np.greater(stat, np.asarray(0.0, stat.dtype)), gradient, later)
            step = np.add(gradient, np.multiply(acc, momentum)) if self.nesterov else acc
            write_in_place(accum, acc)
            write_in_place(stat, np.zeros_like(stat))
        subtract_in_place(parameters, np.multiply(learning_rate, step))
        return parameters

