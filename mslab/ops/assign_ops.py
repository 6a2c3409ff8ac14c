"""Arithmetic written into a Parameter in place: ``P.AssignAdd`` (``variable += value``), Assign's sibling
(``Assign`` itself lives with the other side-effect ops in array_ops).

Like Assign it is a side effect: later reads of the Parameter, in this graph and in later calls, see the
new value, and an all-or-nothing training step can put the old one back (``state.before_write``).
"""
import numpy as np

from mslab.core import state
from mslab.core.op_registry import op_table
from mslab.ops.array_ops import Assign
from mslab.ops.primitive import instance

__all__ = ["AssignAdd"]


class AssignAdd(Assign):
    """``P.AssignAdd()(variable, value)``: ``variable += value`` in place on the Parameter; returns it.

    ``value`` must have variable's shape exactly (MindSpore 2.10 refuses broadcasting, even of a 0-d
    value) and is cast to variable's dtype (an Int32 value adds into a Float32 Parameter). Unlike Assign it
    is differentiable, as in MindSpore: the output is variable + value, so both get dout (observed on
    MindSpore 2.10 CPU). mslab writes only into Parameters (MindSpore also takes a plain Tensor).
    """

    differentiable = True

    def infer(self, variable, value):
        if len(value.shape) != len(variable.shape):
            raise ValueError(f"For 'AssignAdd','value' must have the same rank as 'variable'. But got 'value' rank: "
                             f"{len(value.shape)}, 'variable' rank: {len(variable.shape)}.")
        if tuple(value.shape) != tuple(variable.shape):
            raise ValueError(f"For 'AssignAdd','value' must have the same shape as 'variable'. But got 'value' shape: "
                             f"{tuple(value.shape)}, 'variable' shape: {tuple(variable.shape)}.")
        return variable.shape, variable.dtype

    def compute(self, variable, value):
        state.before_write(variable)  # an all-or-nothing step can put it back
        np.add(variable, value, out=variable, casting="unsafe")
        return variable

    def bprop(self, variable, value, out, dout):
        return dout, op_table.cast(dout, value.dtype) if value.dtype != dout.dtype else dout


def assign_add(variable, value):
    """``variable += value`` in place on a Parameter, returning it (``ops.assign_add``; see ``AssignAdd``)."""
    return instance(AssignAdd)(variable, value)


__all__ += ["assign_add"]
op_table.register(globals(), __all__)
