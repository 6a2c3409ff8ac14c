"""Elementwise arithmetic and math: compute, infer and bprop side by side (MatMul is in matmul_ops).

Binary ops broadcast like numpy; their bprop sums each gradient back to its input's shape
(``sum_to``), because an input that was broadcast was, in effect, used several times.
"""
import numpy as np

from mslab.core.op_registry import F
from mslab.ops.primitive import Primitive, broadcast_shape, check_float, sum_to

__all__ = [
    "Abs",
    "Add",
    "Cos",
    "Div",
    "Equal",
    "Exp",
    "Floor",
    "FloorDiv",
    "FloorMod",
    "Greater",
    "GreaterEqual",
    "Less",
    "LessEqual",
    "Log",
    "LogicalAnd",
    "LogicalNot",
    "LogicalOr",
    "Maximum",
    "Minimum",
    "Mul",
    "Neg",
    "NotEqual",
    "Pow",
    "ReLU",
    "RealDiv",
    "Reciprocal",
    "ReluGrad",
    "Sigmoid",
    "Sign",
    "Sin",
    "Sqrt",
    "Square",
    "Sub",
    "Tanh",
]





# ---- binary ---------------------------------------------------------------------------------
class _Binary(Primitive):
    """x (op) y with broadcasting; Python numbers are lifted to tensors of the other side's dtype."""

    n_tensors = 2
    lift_scalars = True

    def infer(self, x, y):
        return broadcast_shape(self, x.shape, y.shape), x.dtype


class Add(_Binary):
    """x + y.  d/dx = dout, d/dy = dout (each summed back to its own shape)."""

    def compute(self, x, y):
        return np.add(x, y)

    def bprop(self, x, y, out, dout, needs):
        return (sum_to(dout, x.shape) if needs[0] else None), (sum_to(dout, y.shape) if needs[1] else None)


class Sub(_Binary):
    """x - y.  d/dx = dout, d/dy = -dout."""

    def compute(self, x, y):
        return np.subtract(x, y)

    def bprop(self, x, y, out, dout, needs):
        # Negate after summing a broadcast y down (bit for bit the same numbers, as rounding is symmetric): a
        # per-channel mean subtracted from a batch of images negates C numbers, not the whole batch.
        return (sum_to(dout, x.shape) if needs[0] else None), (F.neg(sum_to(dout, y.shape)) if needs[1] else None)


class Mul(_Binary):
    """x * y.  d/dx = dout * y, d/dy = dout * x."""

    def compute(self, x, y):
        return np.multiply(x, y)

    def bprop(self, x, y, out, dout, needs):
        return (sum_to(F.mul(dout, y), x.shape) if needs[0] else None,
                sum_to(F.mul(dout, x), y.shape) if needs[1] else None)


class RealDiv(_Binary):
    """x / y (true division; integers give Float32).  d/dx = dout / y, d/dy = -dout * out / y."""

    def infer(self, x, y):
        shape = broadcast_shape(self, x.shape, y.shape)
        return shape, x.dtype if x.dtype.kind == "f" else np.dtype(np.float32)

    def compute(self, x, y):
        if x.dtype.kind != "f":
            return np.true_divide(x, y, dtype=np.float32)
        return np.true_divide(x, y)

    def bprop(self, x, y, out, dout, needs):
        dx = F.div(dout, y)
        dy = F.neg(sum_to(F.mul(dx, out), y.shape)) if needs[1] else None  # negated once summed, as Sub does
        return (sum_to(dx, x.shape) if needs[0] else None), dy


Div = RealDiv


def _int_by_zero(x, y, out, fill):
    """Integer division by zero gives what MindSpore's CPU kernels give (numpy gives 0 and warns)."""
    zero = np.broadcast_to(y == 0, out.shape)
    if out.dtype.kind in "iu" and zero.any():
        out = np.where(zero, fill(np.broadcast_to(x, out.shape), np.iinfo(out.dtype)), out).astype(out.dtype)
    return out


class FloorDiv(_Binary):
    """floor(x / y); no gradient (piecewise constant).

    An integer x // 0 is the dtype's largest value for x > 0, its smallest for x < 0 and 0 for x = 0,
    as observed on MindSpore 2.10 CPU (int32 [7, -7, 0] // 0 = [2147483647, -2147483648, 0]).
    """

    def compute(self, x, y):
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.floor_divide(x, y)
        return _int_by_zero(x, y, out, lambda x, info: np.where(x > 0, info.max, np.where(x < 0, info.min, 0)))

    def bprop(self, x, y, out, dout, needs):
        return F.zeros_like(x), F.zeros_like(y)


class FloorMod(_Binary):
    """x - floor(x / y) * y.  d/dx = dout, d/dy = -dout * floor(x / y)."""

    def compute(self, x, y):
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.mod(x, y)
        # observed on MindSpore 2.10 CPU: an int32 or int64 x % 0 is the dtype's smallest value, narrower ints give 0
        return _int_by_zero(x, y, out, lambda x, info: info.min if info.bits >= 32 and info.min < 0 else 0)

    def bprop(self, x, y, out, dout, needs):
        return sum_to(dout, x.shape), sum_to(F.neg(F.mul(dout, F.floor_div(x, y))), y.shape)


class Pow(_Binary):
    """x ** y.  d/dx = dout * y * x**(y-1), d/dy = dout * out * log(x) (0 where x <= 0)."""

    def compute(self, x, y):
        return np.power(x, y)

    def bprop(self, x, y, out, dout, needs):
        dx = F.mul(dout, F.mul(y, F.pow(x, F.sub(y, 1))))
        safe_log = F.select(F.greater(x, 0), F.log(F.maximum(x, 1e-30)), F.zeros_like(x))
        dy = F.mul(dout, F.mul(out, safe_log))
        return sum_to(dx, x.shape), sum_to(dy, y.shape)


class Maximum(_Binary):
    """max(x, y) elementwise; the gradient goes to the larger input (to x on ties)."""

    def compute(self, x, y):
        return np.maximum(x, y)

    def bprop(self, x, y, out, dout, needs):
        pick_x = F.greater_equal(x, y)
        zeros = F.zeros_like(dout)
        return sum_to(F.select(pick_x, dout, zeros), x.shape), sum_to(F.select(pick_x, zeros, dout), y.shape)


class Minimum(_Binary):
    """min(x, y) elementwise; the gradient goes to the smaller input (to x on ties)."""

    def compute(self, x, y):
        return np.minimum(x, y)

    def bprop(self, x, y, out, dout, needs):
        pick_x = F.less_equal(x, y)
        zeros = F.zeros_like(dout)
        return sum_to(F.select(pick_x, dout, zeros), x.shape), sum_to(F.select(pick_x, zeros, dout), y.shape)


# ---- comparisons (boolean results, no gradient) --------------------------------------------
class _Compare(_Binary):
    differentiable = False

    def infer(self, x, y):
        return broadcast_shape(self, x.shape, y.shape), np.dtype(np.bool_)

    def bprop(self, x, y, out, dout, needs):
        return F.zeros_like(x), F.zeros_like(y)


class Equal(_Compare):
    """x == y."""
    def compute(self, x, y): return np.equal(x, y)


class NotEqual(_Compare):
    """x != y."""
    def compute(self, x, y): return np.not_equal(x, y)


class Less(_Compare):
    """x < y."""
    def compute(self, x, y): return np.less(x, y)


class LessEqual(_Compare):
    """x <= y."""
    def compute(self, x, y): return np.less_equal(x, y)


class Greater(_Compare):
    """x > y."""
    def compute(self, x, y): return np.greater(x, y)


class GreaterEqual(_Compare):
    """x >= y."""
    def compute(self, x, y): return np.greater_equal(x, y)


class LogicalAnd(_Compare):
    """x and y (booleans)."""
    def compute(self, x, y): return np.logical_and(x, y)


class LogicalOr(_Compare):
    """x or y (booleans)."""
    def compute(self, x, y): return np.logical_or(x, y)


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
    def bprop(self, x, out, dout, needs): return (F.neg(dout),)


class LogicalNot(_Unary):
    """not x (booleans)."""
    differentiable = False
    def infer(self, x): return x.shape, np.dtype(np.bool_)
    def compute(self, x): return np.logical_not(x)
    def bprop(self, x, out, dout, needs): return (F.zeros_like(x),)


class Exp(_Unary):
    """e**x.  d/dx = dout * out."""
    floats_only = True
    def compute(self, x): return np.exp(x)
    def bprop(self, x, out, dout, needs): return (F.mul(dout, out),)


class Log(_Unary):
    """ln x.  d/dx = dout / x."""
    floats_only = True
    def compute(self, x): return np.log(x)
    def bprop(self, x, out, dout, needs): return (F.div(dout, x),)


class Sin(_Unary):
    """sin x.  d/dx = dout * cos x."""
    floats_only = True
    def compute(self, x): return np.sin(x)
    def bprop(self, x, out, dout, needs): return (F.mul(dout, F.cos(x)),)


class Cos(_Unary):
    """cos x.  d/dx = -dout * sin x."""
    floats_only = True
    def compute(self, x): return np.cos(x)
    def bprop(self, x, out, dout, needs): return (F.neg(F.mul(dout, F.sin(x))),)


class Sqrt(_Unary):
    """sqrt(x).  d/dx = dout / (2 * out)."""
    floats_only = True
    def compute(self, x): return np.sqrt(x)
    def bprop(self, x, out, dout, needs):
        return (F.div(dout, F.mul(out, 2.0)),)


class Reciprocal(_Unary):
    """1 / x (``P.Reciprocal``).  d/dx = -dout * out * out.  Integers give float32, as in MindSpore 2.10."""
    def infer(self, x): return x.shape, (x.dtype if x.dtype.kind == "f" else np.dtype(np.float32))
    def compute(self, x): return np.reciprocal(x if x.dtype.kind == "f" else x.astype(np.float32))
    def bprop(self, x, out, dout, needs): return (F.neg(F.mul(dout, F.mul(out, out))),)


class Square(_Unary):
    """x * x.  d/dx = 2 * x * dout."""
    def compute(self, x): return np.square(x)
    def bprop(self, x, out, dout, needs):
        return (F.mul(dout, F.mul(x, 2.0)),)


class Abs(_Unary):
    """|x|.  d/dx = sign(x) * dout (0 at 0)."""
    def compute(self, x): return np.abs(x)
    def bprop(self, x, out, dout, needs): return (F.mul(dout, F.sign(x)),)


class Sign(_Unary):
    """sign(x) in {-1, 0, 1}; zero gradient."""
    differentiable = False
    def compute(self, x): return np.sign(x)
    def bprop(self, x, out, dout, needs): return (F.zeros_like(x),)


class Floor(_Unary):
    """floor(x); zero gradient."""
    differentiable = False
    floats_only = True
    def compute(self, x): return np.floor(x)
    def bprop(self, x, out, dout, needs): return (F.zeros_like(x),)


class Tanh(_Unary):
    """tanh(x).  d/dx = dout * (1 - out**2)."""
    floats_only = True
    def compute(self, x): return np.tanh(x)
    def bprop(self, x, out, dout, needs):
        return (F.mul(dout, F.sub(1.0, F.square(out))),)


class Sigmoid(_Unary):
    """1 / (1 + e**-x).  d/dx = dout * out * (1 - out)."""
    floats_only = True

    def compute(self, x):
        # Split by sign so that neither branch overflows.
        out = np.empty_like(x)
        pos = x >= 0
        out[pos] = 1.0 / (1.0 + np.exp(-x[pos]))
        ex = np.exp(x[~pos])
        out[~pos] = ex / (1.0 + ex)
        return out

    def bprop(self, x, out, dout, needs):
        return (F.mul(dout, F.mul(out, F.sub(1.0, out))),)


class ReLU(_Unary):
    """max(x, 0).  d/dx = dout where out > 0, else 0 (``mindspore.ops.ReLU``)."""

    def compute(self, x):
        return np.maximum(x, 0).astype(x.dtype, copy=False)

    def bprop(self, x, out, dout, needs):
        return (F.relu_grad(dout, out),)


class ReluGrad(Primitive):
    """dout where out > 0 else 0: ReLU's backward kernel (a node of its own, as in MindSpore)."""

    n_tensors = 2

    def infer(self, dout, out):
        return dout.shape, dout.dtype

    def compute(self, dout, out):
        return keep_where(out > 0, dout)

    def bprop(self, dout, out, o, d, needs):
        return F.relu_grad(d, out), F.zeros_like(out)


_UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def keep_where(mask, x):
    """``np.where(mask, x, 0)``, bit for bit, without branching per element.

    ReLU masks are close to random, and ``np.where`` mispredicts a branch on about half the elements
    (measured 9x slower than this on a (32, 6, 28, 28) float32 batch). Here the mask becomes all-ones or
    all-zeros bit patterns and is ANDed with x's bits: kept elements are x exactly (NaN, -0.0 included),
    the others +0.
    """
    u = _UINT.get(x.dtype.itemsize)
    if u is None or x.dtype.kind not in "fiu" or not x.ndim or mask.shape != x.shape:
        return np.where(mask, x, np.zeros((), x.dtype))
    bits = mask.astype(u)
    np.negative(bits, out=bits)  # True -> 0xFF..FF, False -> 0
    if not x.flags.c_contiguous:
        x = np.ascontiguousarray(x)
    return np.bitwise_and(x.view(u), bits, out=bits).view(x.dtype)


# ---- functional forms: ``ops.add(x, y)`` is one shared Add instance ----------------------------------
add = Add()
sub = Sub()
mul = Mul()
div = realdiv = RealDiv()
floor_div = FloorDiv()
floor_mod = FloorMod()
pow = Pow()
maximum = Maximum()
minimum = Minimum()
equal = Equal()
not_equal = NotEqual()
less = Less()
less_equal = LessEqual()
greater = Greater()
greater_equal = GreaterEqual()
logical_and = LogicalAnd()
logical_or = LogicalOr()
logical_not = LogicalNot()
neg = negative = Neg()
exp = Exp()
log = Log()
sqrt = Sqrt()
sin = Sin()
cos = Cos()
square = Square()
reciprocal = Reciprocal()
abs = Abs()
sign = Sign()
floor = Floor()
tanh = Tanh()
sigmoid = Sigmoid()
relu = ReLU()
relu_grad = ReluGrad()


def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """min(max(x, clip_value_min), clip_value_max), made of Maximum and Minimum so gradients follow them
    (dout passes where x is inside the range, including ties at the bounds); a bound of None is not applied."""
    if clip_value_min is None and clip_value_max is None:
        raise ValueError("clip_by_value needs clip_value_min or clip_value_max")
    if isinstance(x, (tuple, list)):
        return type(x)(clip_by_value(v, clip_value_min, clip_value_max) for v in x)
    out = x
    if clip_value_min is not None:
        out = maximum(out, clip_value_min)
    if clip_value_max is not None:
        out = minimum(out, clip_value_max)
    return out


__all__ += ["add", "sub", "mul", "div", "realdiv", "floor_div", "floor_mod", "pow", "maximum", "minimum",
            "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
            "logical_or", "logical_not", "neg", "negative", "exp", "log", "sqrt", "sin", "cos", "square", "reciprocal",
            "abs", "sign", "floor", "tanh", "sigmoid", "relu", "relu_grad", "clip_by_value"]
F.register(globals(), __all__)
