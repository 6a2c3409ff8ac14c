"""Primitives MindSpore 2.10 has no CPU kernel for: ``ops.Randperm``, ``ops.Einsum`` and
``ops.functional.scalar_to_array``.

MindSpore builds these, but on CPU the call fails (observed, docs/mindspore_observed/opsthree.md):
``Randperm`` and ``Einsum`` with RuntimeError "Unsupported op [...] on CPU" (in PYNATIVE mode at the call, in
GRAPH mode when the graph compiles), ``scalar_to_array`` with RuntimeError "prim:ScalarToArray has no
attr:__infer__" (PYNATIVE) or "Operator 'ScalarToArray' is invalid" (GRAPH). mslab raises the same kind of
error in both modes, naming what does run on CPU instead.
"""
from mslab.core import dtype as mstype
from mslab.core.op_registry import F
from mslab.ops.primitive import Primitive

__all__ = ["Randperm", "Einsum"]


class _DeviceOnly(Primitive):
    """A primitive with Ascend/GPU kernels only: calling it is MindSpore's CPU error."""

    differentiable = False
    instead = ""

    def __call__(self, *args):
        raise RuntimeError(f"Unsupported op [{self.name}] on CPU, Please confirm whether the device target setting "
                           f"is correct, or refer to 'mindspore.ops' to query the operator support list. (MindSpore "
                           f"2.10 has a {self.name} kernel for Ascend and GPU only; {self.instead})")


class Randperm(_DeviceOnly):
    """``ops.Randperm(max_length=1, pad=-1, dtype=int32)(n)``: n random indices padded to max_length (Ascend/GPU)."""

    instead = "ops.randperm(n) runs on CPU.)"

    def __init__(self, max_length=1, pad=-1, dtype=mstype.int32):
        super().__init__(max_length=int(max_length), pad=int(pad), dtype=dtype)


class Einsum(_DeviceOnly):
    """``ops.Einsum(equation)((x, y, ...))``: Einstein summation (Ascend/GPU)."""

    instead = "on CPU write the contraction with ops.matmul, ops.transpose and ops.reduce_sum.)"

    def __init__(self, equation):
        if not isinstance(equation, str):
            raise TypeError(f"For 'Einsum', the 'equation' must be a str, but got {type(equation).__name__}.")
        super().__init__(equation=equation.replace(" ", ""))


def scalar_to_array(input_x):
    """``F.scalar_to_array(x)``: a scalar as a 0-D Tensor; MindSpore 2.10 cannot run it (no infer for ScalarToArray);
    ``ops.scalar_to_tensor(x)`` (or ``Tensor(x)``) is the working form."""
    raise RuntimeError("prim:ScalarToArray has no attr:__infer__ (MindSpore 2.10 cannot run scalar_to_array, in "
                       "either mode; use ops.scalar_to_tensor(x) or Tensor(x))")


__all__ += ["scalar_to_array"]
F.register(globals(), __all__)
