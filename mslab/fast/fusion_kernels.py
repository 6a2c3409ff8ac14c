"""The fused kernels of ``fusion``, by the primitive class of a fused pair's first node.

``THROUGH[cls](prim, ins, user)`` and ``PAIR[cls](prim, ins, other)`` are asked at compile time with the first
node's primitive and inputs (abstract values and constants) and the candidate second node; they return the fused
kernel, or None where the pair does not qualify. A subclass uses its base class's entry (``kernel_for``).
Each kernel gives bit for bit what the two nodes give one after the other.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from mslab.fast import conv_wide_kernels as wide
from mslab.ir.node import Node
from mslab.ops import conv_kernels as K
from mslab.ops.batch_norm_ops import BatchNormGrad, BatchNormScaleGrad, input_and_scale_grads
from mslab.ops.conv_ops import Conv2DBackpropFilter, Conv2DBackpropInput
from mslab.ops.pool_ops import MaxPoolGrad
from mslab.ops.primitive import Primitive
from mslab.ops.unary_ops import ReluGrad, keep_where

# A fused kernel's maker: (first node's primitive, its inputs, the second node) -> the kernel, or None.
# (``prim: Any``: a primitive's attributes are set from its constructor's arguments, which a type checker cannot see.)
FusedKernelMaker = Callable[[Any, Sequence[Any], Node], Callable | None]


def max_pool_grad_through_relu_grad(prim: Any, ins: Sequence[Any], user: Node) -> Callable | None:
    """MaxPoolGrad with ``user``, the ReluGrad of the ReLU whose output x was pooled.

    Where windows do not overlap, each input gets one window's dout (where it holds the window's maximum) or
    +0, and the ReLU mask keeps a routed input iff x > 0, that is iff its window's maximum is > 0: so the
    mask goes onto dout, a quarter of the size for 2x2 windows, and the full-size ReluGrad pass disappears.
    """
    x = ins[0]
    (pads, out_hw), ks, st = prim._geometry(tuple(x.shape)), prim.kernel_size, prim.strides
    if (not isinstance(user.prim, ReluGrad) or user.inputs[1] is not x or any(pads) or st[0] < ks[0]
            or st[1] < ks[1] or not K.bitwise_routing(x.dtype) or ins[2].dtype != x.dtype):
        return None
    return lambda x, out, dout: K.max_pool_grad(x, out, keep_where(out > 0, dout), ks, st, pads, out_hw)


def batch_norm_grad_with_scale_grad(prim: Any, ins: Sequence[Any], other: Node) -> Callable | None:
    """BatchNormGrad with ``other`` the BatchNormScaleGrad of the same dout and x: ``(dx, dscale)`` from one pass
    over the batch statistics and one dot product (the scale's gradient is a by-product of dx's)."""
    if (not isinstance(other.prim, BatchNormScaleGrad) or other.prim.epsilon != prim.epsilon  # type: ignore[attr-defined]
            or other.inputs[0] is not ins[0] or other.inputs[1] is not ins[1]):
        return None
    eps = prim.epsilon
    return lambda dout, x, scale: input_and_scale_grads(dout, x, scale, eps)


def conv_input_grad_with_filter_grad(prim: Any, ins: Sequence[Any], other: Node) -> Callable | None:
    """Conv2DBackpropInput with ``other`` the Conv2DBackpropFilter of the same dout and convolution: ``(dx, dw)``
    as a function of (dout, w, x). At stride 1 the wide kernels make both from one pass over dout's chunks; at
    other strides the line calls the two im2col kernels."""
    if (not isinstance(other.prim, Conv2DBackpropFilter) or other.prim.attrs != prim.attrs
            or other.inputs[0] is not ins[0] or len(ins) != 3 or tuple(ins[2]) != tuple(other.inputs[1].shape)):
        return None
    (pads, _), stride, dilation = prim._geometry(tuple(ins[2])), prim.stride, prim.dilation
    if stride == (1, 1):
        return lambda dout, w, x: wide.conv2d_grads(dout, x, w, dilation, pads)
    return lambda dout, w, x: (K.conv2d_input_grad(dout, w, x.shape, stride, dilation, pads),
                               K.conv2d_filter_grad(dout, x, w.shape, stride, dilation, pads))


THROUGH: dict[type, FusedKernelMaker] = {MaxPoolGrad: max_pool_grad_through_relu_grad}
PAIR: dict[type, FusedKernelMaker] = {
    BatchNormGrad: batch_norm_grad_with_scale_grad,
    Conv2DBackpropInput: conv_input_grad_with_filter_grad,  # Conv2DTranspose too (a subclass)
}


_FOUND: dict[tuple[int, type], FusedKernelMaker | None] = {}  # (id of THROUGH or PAIR, primitive class) -> entry


def kernel_for(table: dict[type, FusedKernelMaker], prim: Primitive) -> FusedKernelMaker | None:
    """The entry of ``table`` for ``prim``'s class or its nearest base class listed there, or None (looked up once
    per class: every compile asks for every node)."""
    key = (id(table), type(prim))
    if key not in _FOUND:
        _FOUND[key] = next((table[c] for c in type(prim).__mro__ if c in table), None)
    return _FOUND[key]
