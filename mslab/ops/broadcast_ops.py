"""Ops made of broadcasting: ``ops.meshgrid`` / ``ops.Meshgrid`` (each 1-D input spread along the others'
axes) and ``ops.masked_fill`` / ``ops.MaskedFill`` (a value broadcast into the places a mask holds).

Neither is a new graph node: each is Reshape, BroadcastTo and Select, so their gradients are those ops'
(a broadcast input gets dout summed back over the axes it was spread along).
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor

__all__ = ["Meshgrid", "MaskedFill"]

_INDEXING = ("xy", "ij")


class Meshgrid:
    """``ops.Meshgrid(indexing='xy')(inputs)``: for N 1-D tensors of lengths n1..nN, N tensors of one shape,
    the k-th holding input k repeated along every other axis (numpy's meshgrid).

    ``indexing='ij'`` gives shape (n1, n2, ..., nN); ``'xy'`` (the default, Cartesian) swaps the first two:
    (n2, n1, n3, ...). So with a = [1, 2, 3] and b = [4, 5], 'xy' gives [[1 2 3] [1 2 3]] and
    [[4 4 4] [5 5 5]]. All inputs must be 1-D and of one dtype.
    """

    def __init__(self, indexing="xy"):
        if indexing not in _INDEXING:
            raise ValueError(f'Failed to convert the value "{indexing}" of input \'indexing\' of \'Meshgrid\' to enum '
                             f"(it must be 'xy' or 'ij')")
        self.indexing = indexing

    def __call__(self, inputs):
        inputs = tuple(inputs)
        if len(inputs) < 2:
            raise ValueError(f"For 'Meshgrid', the number of input tensors must be at least 2, got {len(inputs)}")
        for k, t in enumerate(inputs):
            if not isinstance(t, Tensor) or len(t.shape) != 1:
                raise ValueError(f"For 'Meshgrid', each input must be a 1-D Tensor, but input {k} is "
                                 f"{tuple(t.shape) if isinstance(t, Tensor) else type(t).__name__}")
            if t.dtype != inputs[0].dtype:
                raise TypeError(f"For 'Meshgrid', all inputs must have one dtype, got {inputs[0].dtype} and {t.dtype}")
        axes = list(range(len(inputs)))
        if self.indexing == "xy":
            axes[0], axes[1] = 1, 0  # Cartesian: the first input runs along the columns
        shape = [0] * len(inputs)
        for t, axis in zip(inputs, axes):
            shape[axis] = t.shape[0]
        out = []
        for t, axis in zip(inputs, axes):
            along = [1] * len(inputs)
            along[axis] = t.shape[0]
            out.append(op_table.broadcast_to(op_table.reshape(t, tuple(along)), tuple(shape)))
        return tuple(out)

    def __repr__(self):
        return f"Meshgrid<indexing={self.indexing}>"


class MaskedFill:
    """``ops.MaskedFill()(input, mask, value)``: ``input`` with ``value`` wherever the Bool ``mask`` is True.

    ``input`` and ``mask`` broadcast against each other, as in MindSpore 2.10: an input of shape (2, 1) and a
    mask of shape (1, 2) give a (2, 2) result (observed), and input's gradient is summed back to (2, 1).

    ``value`` is a number or a 0-d Tensor, cast to input's dtype. d/d(input) = dout where the mask is False;
    d/d(value) = the sum of dout where it is True (observed on MindSpore 2.10 CPU).
    """

    def __call__(self, input, mask, value):  # noqa: A002 - MindSpore's argument name
        if not isinstance(input, Tensor) or not isinstance(mask, Tensor):
            raise TypeError("For 'MaskedFill', 'input' and 'mask' must be Tensors")
        if mask.dtype != mstype.bool_:
            raise TypeError(f"For 'MaskedFill', 'mask' must be a Bool Tensor, got {mask.dtype}")
        try:
            shape = tuple(np.broadcast_shapes(tuple(mask.shape), tuple(input.shape)))
        except ValueError:
            raise ValueError(f"For 'MaskedFill', 'mask' of shape {tuple(mask.shape)} and 'input' of shape "
                             f"{tuple(input.shape)} do not broadcast") from None
        if isinstance(value, Tensor):
            if value.shape != ():
                raise ValueError(f"For 'MaskedFill', 'value' must be a 0-d Tensor or a number, got shape "
                                 f"{tuple(value.shape)}")
            value = value if value.dtype == input.dtype else op_table.cast(value, input.dtype)
        else:
            value = op_table.scalar_to_tensor(value, input.dtype)
        if tuple(mask.shape) != shape:
            mask = op_table.broadcast_to(mask, shape)
        if tuple(input.shape) != shape:
            input = op_table.broadcast_to(input, shape)  # noqa: A001 - its gradient sums back over the new axes
        return op_table.select(mask, op_table.broadcast_to(value, shape), input)

    def __repr__(self):
        return "MaskedFill"


# ---- functional forms ---------------------------------------------------------------------------------
def meshgrid(*inputs, indexing="xy"):
    """Coordinate grids from 1-D tensors (``ops.meshgrid``; see ``Meshgrid``)."""
    return Meshgrid(indexing)(inputs)


def masked_fill(input_x, mask, value):
    """``input_x`` with ``value`` where ``mask`` is True (``ops.masked_fill``; see ``MaskedFill``)."""
    return MaskedFill()(input_x, mask, value)


__all__ += ["meshgrid", "masked_fill"]
op_table.register(globals(), __all__)
