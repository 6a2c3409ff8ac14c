"""Rearranging elements in blocks: ``ops.repeat_elements`` and ``ops.DepthToSpace``, composed of reshape,
broadcast and transpose (their gradients are those ops': a broadcast's gradient sums the copies back, a
transpose's is the inverse transpose).

    repeat_elements(x, rep, axis)   each element repeated rep times along axis    (numpy.repeat)
    DepthToSpace(b)(x)              (N, C * b * b, H, W) -> (N, C, H * b, W * b):
                                    out[n, c, h * b + i, w * b + j] = x[n, (i * b + j) * C + c, h, w]
                                    (MindSpore's 'DCR' order, observed on MindSpore 2.10 CPU)
"""
import numpy as np

from mslab.core.op_registry import op_table

__all__ = ["DepthToSpace"]


def repeat_elements(x, rep, axis=0):
    """Each element of ``x`` repeated ``rep`` times along ``axis`` (``[[1, 2]]`` -> ``[[1, 1, 2, 2]]`` for
    rep=2, axis=1), as ``numpy.repeat``."""
    # MindSpore 2.10's messages (observed)
    if isinstance(rep, bool) or not isinstance(rep, (int, np.integer)) or rep < 1:
        raise ValueError(f"For 'repeat_elements', the 'rep' must be in range of (0, 2147483647], but got {rep} with "
                         f"type '{type(rep).__name__}'.")
    shape = tuple(x.shape)
    if not -len(shape) <= axis < len(shape):
        raise ValueError(f"For 'repeat_elements', the 'axis' must be in range of [{-len(shape)}, {len(shape)}), but "
                         f"got {axis} with type '{type(axis).__name__}'.")
    axis = int(axis) % len(shape)
    spread = op_table.broadcast_to(op_table.expand_dims(x, axis + 1), shape[:axis + 1] + (int(rep),) + shape[axis + 1:])
    return op_table.reshape(spread, shape[:axis] + (shape[axis] * int(rep),) + shape[axis + 1:])


class DepthToSpace:
    """``ops.DepthToSpace(block_size)(x)``: move blocks of channels of x (N, C, H, W) into space."""

    def __init__(self, block_size):
        if isinstance(block_size, bool) or not isinstance(block_size, (int, np.integer)) or block_size < 2:
            raise ValueError(f"For 'DepthToSpace', the 'block_size' should be >= : 2, but got {block_size}.")
        self.block_size = int(block_size)

    def __call__(self, x):
        b = self.block_size
        if len(x.shape) != 4:
            raise ValueError(f"For 'DepthToSpace', the input must be 4-D (N, C, H, W), but got shape {tuple(x.shape)}.")
        if x.shape[1] % (b * b):  # MindSpore 2.10's message (observed)
            raise ValueError(f"For DepthToSpace, the square of block_size must be smaller than the input channel, but "
                             f"got the block_size is {b}, and the input channel is {x.shape[1]}. (The channels must "
                             f"be a multiple of block_size * block_size.)")
        n, c, h, w = x.shape
        blocks = op_table.reshape(x, (n, b, b, c // (b * b), h, w))
        return op_table.reshape(op_table.transpose(blocks, (0, 3, 4, 1, 5, 2)), (n, c // (b * b), h * b, w * b))

    def __repr__(self):
        return f"DepthToSpace(block_size={self.block_size})"


__all__ += ["repeat_elements"]
op_table.register(globals(), __all__)
