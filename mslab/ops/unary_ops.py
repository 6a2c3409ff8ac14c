"""Unary elementwise math and activations: compute, infer and bprop side by side (binary ops: math_ops).

Each maps every element on its own, so each bprop is ``dout`` times the derivative at that element,
written with Tensor operators as the formula reads (``exp``'s is ``dout * out``, ``log``'s is ``dout / x``,
ReLU's a mask).
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core.op_registry import op_table
from mslab.ops.primitive import Primitive, check_float

__all__ = [
    "Abs",
    "Cos",
    "Exp",
    "Floor",
    "Inv",
    "Invert",
    "Log",
    "LogicalNot",
    "Neg",
    "ReLU",
    "Reciprocal",
    "Rsqrt",
    "ReluGrad",
    "Round",
    "Sigmoid",
    "Sign",
    "Sin",
    "Softsign",
    "Sqrt",
    "Square",
    "Tanh",
]


# ---- unary ----------------------------------------------------------------------------------
class _Unary(Primitive):
    n_tensors = 1
    floats_only = False

    def infer(self, x):
        if self.floats_only:
            check_float(self, x)
        return x.shape, x.dtype


class Neg(_Unary):
    """-x.  d/dx = -dout."""
    def compute(self, x): return np.negative(x)
    def bprop(self, x, out, dout): return (-dout,)


class LogicalNot(_Unary):
    """not x (booleans)."""
    differentiable = False
    def infer(self, x): return x.shape, np.dtype(np.bool_)
    def compute(self, x): return np.logical_not(x)
    def bprop(self, x, out, dout): return (op_table.zeros_like(x),)


class Exp(_Unary):
    """e**x.  d/dx = dout * out."""
    floats_only = True
    def compute(self, x): return np.exp(x)
    def bprop(self, x, out, dout): return (dout * out,)


class Log(_Unary):
    """ln x.  d/dx = dout / x."""
    floats_only = True
    def compute(self, x): return np.log(x)
    def bprop(self, x, out, dout): return (dout / x,)


class Sin(_Unary):
    """sin x.  d/dx = dout * cos x."""
    floats_only = True
    def compute(self, x): return np.sin(x)
    def bprop(self, x, out, dout): return (dout * cos(x),)


class Cos(_Unary):
    """cos x.  d/dx = -(dout * sin x)."""
    floats_only = True
    def compute(self, x): return np.cos(x)
    def bprop(self, x, out, dout): return (-(dout * sin(x)),)


class Sqrt(_Unary):
    """sqrt(x).  d/dx = dout / (out * 2).  Integers and bools give Float32, as in MindSpore 2.10 on CPU."""
    def infer(self, x): return x.shape, (x.dtype if x.dtype.kind == "f" else np.dtype(np.float32))
    def compute(self, x): return np.sqrt(x if x.dtype.kind == "f" else x.astype(np.float32))
    def bprop(self, x, out, dout):
        return (dout / (out * 2.0),)


class Reciprocal(_Unary):
    """1 / x (``P.Reciprocal``).  d/dx = -(dout * (out * out)).  Integers give float32, as in MindSpore 2.10."""
    def infer(self, x): return x.shape, (x.dtype if x.dtype.kind == "f" else np.dtype(np.float32))
    def compute(self, x): return np.reciprocal(x if x.dtype.kind == "f" else x.astype(np.float32))
    def bprop(self, x, out, dout): return (-(dout * (out * out)),)


class Inv(_Unary):
    """1 / x, keeping x's dtype (``P.Inv``, ``ops.inv``).  d/dx = -(dout * (out * out)).

    As MindSpore 2.10's CPU kernel, integers are divided as floats and cast back: 1 / 3 is 0, 1 / -1 is -1 and
    1 / 0 is the dtype's lowest value (inf cast to an integer), all observed; floats give inf at 0.
    """
    def compute(self, x):
        with np.errstate(divide="ignore", invalid="ignore"):
            if x.dtype.kind == "f":
                return np.reciprocal(x)
            return np.reciprocal(x.astype(np.float64)).astype(x.dtype)

    def bprop(self, x, out, dout): return (-(dout * (out * out)),)


class Invert(_Unary):
    """Bitwise NOT of an integer tensor (``P.Invert``, ``ops.invert``): ~x, so ~5 is -6 and uint8 ~5 is 250.

    Integers only (MindSpore 2.10 refuses floats with a TypeError); no gradient.
    """
    differentiable = False

    def infer(self, x):
        if x.dtype.kind not in "iu":
            raise TypeError(f"For primitive[Invert], the input argument[x] must be a type of {{Tensor[Int16], "
                            f"Tensor[Int32], Tensor[Int64], Tensor[Int8], Tensor[UInt16], Tensor[UInt32], "
                            f"Tensor[UInt64], Tensor[UInt8]}}, but got {mstype.from_numpy(x.dtype)}.")
        return x.shape, x.dtype

    def compute(self, x): return np.invert(x)
    def bprop(self, x, out, dout): return (None,)


class Softsign(_Unary):
    """x / (1 + |x|), elementwise (``P.Softsign``, ``ops.softsign``, ``nn.Softsign``).  d/dx = dout / (1 + |x|)^2."""
    floats_only = True
    def compute(self, x): return x / (1 + np.abs(x))
    def bprop(self, x, out, dout): return (dout / square(abs(x) + 1),)


class Rsqrt(_Unary):
    """1 / sqrt(x) (``ops.Rsqrt``): inf at 0, nan below.  d/dx = dout * (out * (out * out) * -0.5)."""
    floats_only = True
    def compute(self, x):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.reciprocal(np.sqrt(x))
    def bprop(self, x, out, dout): return (dout * (out * (out * out) * -0.5),)


class Square(_Unary):
    """x * x.  d/dx = dout * (x * 2)."""
    def compute(self, x): return np.square(x)
    def bprop(self, x, out, dout):
        return (dout * (x * 2.0),)


class Abs(_Unary):
    """|x|.  d/dx = dout * sign(x) (0 at 0)."""
    def compute(self, x): return np.abs(x)
    def bprop(self, x, out, dout): return (dout * sign(x),)


class Sign(_Unary):
    """sign(x) in {-1, 0, 1}; zero gradient."""
    differentiable = False
    def compute(self, x): return np.sign(x)
    def bprop(self, x, out, dout): return (op_table.zeros_like(x),)


class Floor(_Unary):
    """floor(x); zero gradient."""
    differentiable = False
    floats_only = True
    def compute(self, x): return np.floor(x)
    def bprop(self, x, out, dout): return (op_table.zeros_like(x),)


class Round(_Unary):
    """x rounded to the nearest integer, halves to even (``P.Round``: 0.5 -> 0, 1.5 -> 2, -2.6 -> -3); zero
    gradient. Integer inputs come back unchanged."""
    differentiable = False
    def compute(self, x): return np.round(x)
    def bprop(self, x, out, dout): return (op_table.zeros_like(x),)


class Tanh(_Unary):
    """tanh(x).  d/dx = dout * (1 - out²)."""
    floats_only = True
    def compute(self, x): return np.tanh(x)
    def bprop(self, x, out, dout):
        return (dout * (1.0 - square(out)),)


class Sigmoid(_Unary):
    """1 / (1 + e**-x).  d/dx = dout * (out * (1 - out))."""
    floats_only = True

    def compute(self, x):
        # Split by sign so that neither branch overflows.
        out = np.empty_like(x)
        pos = x >= 0
        out[pos] = 1.0 / (1.0 + np.exp(-x[pos]))
        ex = np.exp(x[~pos])
        out[~pos] = ex / (1.0 + ex)
        return out

    def bprop(self, x, out, dout):
        return (dout * (out * (1.0 - out)),)


class ReLU(_Unary):
    """max(x, 0).  d/dx = dout where out > 0, else 0 (``mindspore.ops.ReLU``)."""

    def compute(self, x):
        if x.dtype.kind == "f":  # a zero of x's own dtype: numpy converts no Python 0 per call
            return np.maximum(x, _zero(x.dtype))
        return np.maximum(x, 0).astype(x.dtype, copy=False)

    def bprop(self, x, out, dout):
        return (relu_grad(dout, out),)


_ZEROS = {}


def _zero(dtype):
    """A zero of ``dtype`` (a numpy scalar), made once per dtype."""
    z = _ZEROS.get(dtype)
    if z is None:
        z = _ZEROS[dtype] = dtype.type(0)
    return z


class ReluGrad(Primitive):
    """dout where out > 0 else 0: ReLU's backward kernel (a node of its own, as in MindSpore).

    Linear in dout: d/d(dout) = relu_grad(g, out); out (read for its sign) gets zeros.
    """

    n_tensors = 2

    def infer(self, dout, out):
        return dout.shape, dout.dtype

    def compute(self, dout, out):
        return keep_where(out > 0, dout)

    def bprop(self, dout, out, o, d):
        return relu_grad(d, out), op_table.zeros_like(out)


_UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def keep_where(mask, x):
    """``np.where(mask, x, 0)``, bit for bit, without branching per element.

    ReLU masks are close to random, and ``np.where`` mispredicts a branch on about half the elements
    (measured 9x slower than this on a (32, 6, 28, 28) float32 batch). Here the mask becomes all-ones or
    all-zeros bit patterns and is ANDed with x's bits: kept elements are x exactly (NaN, -0.0 included),
    the others +0.
    """
    u = _UINT.get(x.dtype.itemsize)
    # Below a few thousand elements np.where's mispredictions cost less than the extra passes here (measured:
    # 1024 float32 elements 2.0 us against 2.5 us; 4096: 3.6 against 2.9).
    if u is None or x.dtype.kind not in "fiu" or x.size <= 2048 or mask.shape != x.shape:
        return np.where(mask, x, _zero(x.dtype))
    bits = mask.astype(u)
    np.negative(bits, out=bits)  # True -> 0xFF..FF, False -> 0
    if not x.flags.c_contiguous:
        x = np.ascontiguousarray(x)
    return np.bitwise_and(x.view(u), bits, out=bits).view(x.dtype)


# ---- functional forms: ``ops.exp(x)`` is one shared Exp instance ----------------------------------------
logical_not = LogicalNot()
neg = negative = Neg()
exp = Exp()
log = Log()
sqrt = Sqrt()
sin = Sin()
cos = Cos()
square = Square()
reciprocal = Reciprocal()
inv = Inv()
invert = Invert()
softsign = Softsign()
rsqrt = Rsqrt()
abs = Abs()
sign = Sign()
floor = Floor()
tanh = Tanh()
sigmoid = Sigmoid()
relu = ReLU()
relu_grad = ReluGrad()
_round = Round()


def round(input, *, decimals=0):  # noqa: A001, A002 - MindSpore's names
    """x rounded half to even (``ops.round``); MindSpore 2.10's CPU kernel takes only ``decimals=0``."""
    if decimals != 0:
        raise RuntimeError(f"For Round only support decimals equal 0, but got decimals equal {decimals}")
    return _round(input)


__all__ += ["logical_not", "neg", "negative", "exp", "log", "sqrt", "sin", "cos", "square", "reciprocal", "inv",
            "invert", "softsign", "rsqrt",
            "abs", "sign", "floor", "tanh", "sigmoid", "relu", "relu_grad", "round"]
op_table.register(globals(), __all__)
