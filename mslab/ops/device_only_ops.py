"""Primitives MindSpore 2.10 has no CPU kernel for: ``ops.Randperm`` and ``ops.Einsum``.

MindSpore builds these, but on CPU the call fails with RuntimeError "Unsupported op [...] on CPU" (observed,
docs/mindspore_observed/opsthree.md), in PYNATIVE mode at the call, in GRAPH mode when the graph compiles.
mslab raises the same kind of error in both modes, naming what does run on CPU instead.
(``F.scalar_to_array``, which MindSpore 2.10 cannot run either, is beside ``P.ScalarToArray`` in creation_ops.)
"""
from mslab.core import dtype as mstype
from mslab.core.op_registry import op_table
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
            raise TypeError(f"the equation must be str! (For 'Einsum', got {type(equation).__name__}.)")
        super().__init__(equation=equation.replace(" ", ""))


op_table.register(globals(), __all__)
