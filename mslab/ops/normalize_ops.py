"""Rescaling by an L2 norm: ``ops.L2Normalize`` and ``ops.clip_by_global_norm``.

    L2Normalize(axis, epsilon)(x)   y = x / sqrt(max(sum(x^2, axis), epsilon))
    clip_by_global_norm(xs, c)      g = sqrt(sum over every x in xs of sum(x^2));  x * c / max(g, c) for each x

L2Normalize's gradient is MindSpore's L2NormalizeGrad rule, dx = (dout - y * sum(dout * y, axis)) / max(||x||, epsilon):
the true derivative wherever the norm is above both epsilon and sqrt(epsilon) (observed on MindSpore 2.10 CPU:
where the clamp is active, MindSpore divides by max(||x||, epsilon), not by the sqrt(epsilon) the forward used,
and mslab does the same). clip_by_global_norm is composed of reductions and arithmetic, which carry its gradient.
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor
from mslab.ops.primitive import Primitive

__all__ = ["L2Normalize"]


def _axis(axis):
    if isinstance(axis, (tuple, list)):
        if len(axis) != 1:
            raise TypeError(f"For 'L2Normalize', the length of 'axis' must be 1, but got {len(axis)}, later will "
                            f"support multiple axis!")
        axis = axis[0]
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"For 'L2Normalize', 'axis' must be an int, got {axis!r}")
    return int(axis)


class L2Normalize(Primitive):
    """``ops.L2Normalize(axis=0, epsilon=1e-4)(x)``: x divided by its L2 norm along ``axis`` (module docstring)."""

    n_tensors = 1

    def __init__(self, axis=0, epsilon=1e-4):
        if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)):
            raise TypeError(f"For 'L2Normalize', 'epsilon' must be a float, got {epsilon!r}")
        super().__init__(axis=_axis(axis), epsilon=float(epsilon))

    def infer(self, x):
        if x.dtype.kind != "f":
            raise TypeError(f"For primitive[L2Normalize], the input argument[input_x] must be a type of "
                            f"{{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got "
                            f"Tensor[{mstype.from_numpy(x.dtype)}].")
        nd = len(x.shape)
        if not -nd <= self.axis < nd:
            raise ValueError(f"For primitive[L2Normalize], the axis value must be in [{-nd},{nd}), but got "
                             f"{self.axis}.")
        return tuple(x.shape), x.dtype

    def compute(self, x):
        sq = np.sum(np.square(x), axis=self.axis, keepdims=True)
        return (x / np.sqrt(np.maximum(sq, x.dtype.type(self.epsilon)))).astype(x.dtype)

    def bprop(self, x, out, dout):
        axis = (self.axis % len(x.shape),)
        along = (dout * out).sum(axis, keepdims=True)
        norm = op_table.maximum(x.square().sum(axis, keepdims=True).sqrt(), self.epsilon)
        return ((dout - out * along) / norm,)


def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """``ops.clip_by_global_norm``: scale every tensor of ``x`` by clip_norm / max(global norm, clip_norm).

    ``x`` is a tuple or list of tensors (returns a tuple) or one tensor (returns a tensor); the global norm
    is the L2 norm of all their elements together, so the scaled tensors' global norm is at most clip_norm.
    """
    if use_norm is not None:
        raise ValueError(f"For '_ClipByGlobalNorm', input 'use_norm' only supports None currently, but got "
                         f"'use_norm': {use_norm}")
    if isinstance(clip_norm, bool) or not isinstance(clip_norm, (int, float)) or clip_norm <= 0:
        raise ValueError(f"For 'clip_by_global_norm', the argument 'clip_norm' must > 0.0, but got {clip_norm}.")
    single = isinstance(x, Tensor)
    xs = (x,) if single else tuple(x)
    if not xs or not all(isinstance(t, Tensor) for t in xs):
        raise TypeError("For 'clip_by_global_norm', 'x' must be a Tensor or a non-empty tuple or list of Tensors")
    # squares summed in x's dtype, totalled in Float32 as MindSpore (Float64 when an input is Float64)
    acc = mstype.float64 if any(t.dtype == mstype.float64 for t in xs) else mstype.float32
    total = None
    for t in xs:
        s = op_table.cast(op_table.reduce_sum(op_table.square(t), (), False), acc)
        total = s if total is None else op_table.add(total, s)
    norm = op_table.maximum(op_table.sqrt(total), float(clip_norm))
    out = tuple(op_table.cast(op_table.div(op_table.mul(t, float(clip_norm)), op_table.cast(norm, t.dtype)), t.dtype)
                for t in xs)
    return out[0] if single else out


__all__ += ["clip_by_global_norm"]
op_table.register(globals(), __all__)
