"""Ascend's float-overflow status ops: ``P.FloatStatus``, ``P.NPUAllocFloatStatus``,
``P.NPUClearFloatStatus``, ``P.NPUGetFloatStatus``.

On an Ascend chip, loss-scaling code reads a hardware register that records whether any operation
overflowed (inf or nan) since it was cleared. A CPU has no such register: MindSpore 2.10 on CPU builds
these primitives but fails when one runs, in PYNATIVE mode at the call and in GRAPH mode when the graph
compiles, with a RuntimeError "Unsupported op [FloatStatus] on CPU" (observed). mslab does the same in
both modes, whatever device_target says (mslab always computes on the CPU). The CPU way to detect an
overflow is ``mslab.amp.all_finite(grads)``, which ``DynamicLossScaleUpdateCell`` uses.
"""
from mslab.core.op_registry import op_table
from mslab.ops.primitive import Primitive

__all__ = ["FloatStatus", "NPUAllocFloatStatus", "NPUClearFloatStatus", "NPUGetFloatStatus"]


class _DeviceStatusOp(Primitive):
    """A primitive that exists only on Ascend: calling it is MindSpore's CPU error."""

    differentiable = False

    def __call__(self, *args):
        raise RuntimeError(
            f"Unsupported op [{self.name}] on CPU, Please confirm whether the device target setting is correct, or "
            f"refer to 'mindspore.ops' to query the operator support list. ({self.name} reads the float-overflow "
            "status register of an Ascend chip, which a CPU does not have; use mslab.amp.all_finite(tensors) to "
            "check for inf and nan.)")


class FloatStatus(_DeviceStatusOp):
    """Ascend only: ``[1.]`` if ``x`` holds an inf or nan, else ``[0.]``."""


class NPUAllocFloatStatus(_DeviceStatusOp):
    """Ascend only: a float32 tensor of 8 zeros to receive the overflow status."""


class NPUClearFloatStatus(_DeviceStatusOp):
    """Ascend only: clear the overflow status register."""


class NPUGetFloatStatus(_DeviceStatusOp):
    """Ascend only: copy the overflow status register into the given tensor."""


op_table.register(globals(), __all__)
