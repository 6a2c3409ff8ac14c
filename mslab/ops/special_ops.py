"""Smooth functions used by activations and losses: Softplus and Erf.

    softplus(x) = log(1 + e^x)            d/dx = sigmoid(x)
    erf(x)      = 2/sqrt(pi) * integral_0^x e^(-t^2) dt     d/dx = 2/sqrt(pi) * e^(-x^2)

Softplus is its own primitive (``ops.Softplus``) rather than Log(1 + Exp(x)): e^x overflows for large
x, and the stable form max(x, 0) + log(1 + e^-|x|) would give a wrong gradient at exactly 0 through
Abs and Maximum (0 instead of sigmoid(0) = 0.5). Erf is needed by the exact GELU.
"""
import math

import numpy as np
from scipy import special

from mslab.core.op_registry import op_table
from mslab.ops.primitive import Primitive, check_float, instance

__all__ = ["Erf", "Softplus"]

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)  # erf'(x) = 2/sqrt(pi) e^(-x²)


class _Smooth(Primitive):
    n_tensors = 1

    def infer(self, x):
        check_float(self, x)
        return tuple(x.shape), x.dtype


class Softplus(_Smooth):
    """log(1 + e^x), computed as max(x, 0) + log1p(e^-|x|) so it never overflows.  d/dx = dout * sigmoid(x)."""

    def compute(self, x):
        return (np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))).astype(x.dtype, copy=False)

    def bprop(self, x, out, dout):
        return (dout * op_table.sigmoid(x),)


class Erf(_Smooth):
    """The error function (``ops.Erf``).  d/dx = dout * (e^(-x²) * 2/sqrt(pi))."""

    def compute(self, x):
        return special.erf(x).astype(x.dtype, copy=False)

    def bprop(self, x, out, dout):
        return (dout * ((-x.square()).exp() * _TWO_OVER_SQRT_PI),)


# ---- functional forms ---------------------------------------------------------------------------------
def softplus(input, beta=1, threshold=20):  # noqa: A002 - MindSpore's argument name
    """log(1 + e^(beta x)) / beta, and x itself where beta x > threshold (``ops.softplus``)."""
    if beta == 1:
        scaled = input
        smooth = instance(Softplus)(input)
    else:
        scaled = op_table.mul(input, float(beta))
        smooth = op_table.div(instance(Softplus)(scaled), float(beta))
    return op_table.select(op_table.greater(scaled, float(threshold)), input, smooth)


def erf(input):  # noqa: A002 - MindSpore's argument name
    """The error function, elementwise."""
    return instance(Erf)(input)


__all__ += ["softplus", "erf"]
op_table.register(globals(), __all__)
