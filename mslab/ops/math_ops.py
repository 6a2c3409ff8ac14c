"""Binary elementwise arithmetic, comparisons and logic: compute, infer and bprop side by side (unary math:
unary_ops; MatMul: matmul_ops).

Binary ops broadcast like numpy. Their bprop rules give gradients in the output's shape; autodiff sums
each back to its input's shape as it accumulates it (``sum_to`` in autodiff/backprop.py), because an
input that was broadcast was, in effect, used several times.
"""
import numpy as np

from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor
from mslab.ops.primitive import Primitive, broadcast_shape

__all__ = [
    "Add",
    "AddN",
    "Div",
    "Equal",
    "FloorDiv",
    "FloorMod",
    "Greater",
    "GreaterEqual",
    "Less",
    "LessEqual",
    "LogicalAnd",
    "LogicalOr",
    "Maximum",
    "Minimum",
    "Mul",
    "NotEqual",
    "Pow",
    "RealDiv",
    "Sub",
    "TensorAdd",
]





# ---- binary ---------------------------------------------------------------------------------
class _Binary(Primitive):
    """x (op) y with broadcasting; Python numbers are lifted to tensors of the other side's dtype."""

    n_tensors = 2
    lift_scalars = True

    def infer(self, x, y):
        shape = x.shape
        if shape == y.shape:  # the usual case, without a call
            return shape, x.dtype
        return broadcast_shape(self, shape, y.shape), x.dtype


class Add(_Binary):
    """x + y.  d/dx = dout, d/dy = dout."""

    def compute(self, x, y):
        return np.add(x, y)

    def bprop(self, x, y, out, dout):
        return dout, dout


class TensorAdd(Add):
    """``P.TensorAdd``: MindSpore 1.0's name of Add, deprecated since 1.1 and still accepted by 2.10 (it logs a
    deprecation warning there); x + y."""


class AddN(Primitive):
    """The sum of a tuple or list of tensors of one shape and dtype: ``P.AddN()((x, y, z))``.

    One node for the whole sum (recorded with the tensors as separate inputs). d/dx_i = dout for each i.
    """

    n_tensors = None

    def __call__(self, inputs):
        if not isinstance(inputs, (tuple, list)) or not inputs:
            raise TypeError(f"AddN takes a non-empty tuple or list of tensors: P.AddN()((x, y)), got "
                            f"{type(inputs).__name__}")
        return super().__call__(*inputs)

    def infer(self, *xs):
        if len({x.dtype for x in xs}) > 1:
            raise TypeError("For primitive[AddN], the input type must be same.")
        for i, x in enumerate(xs[1:], 1):
            if tuple(x.shape) != tuple(xs[0].shape):
                raise ValueError(f"For 'AddN', input shape must be same, but got shape of input[{i}]: "
                                 f"{tuple(x.shape)}, shape of input[0]: {tuple(xs[0].shape)}.")
        return xs[0].shape, xs[0].dtype

    def compute(self, *xs):
        out = xs[0].copy()
        for x in xs[1:]:
            out += x
        return out

    def bprop(self, *args):
        *xs, out, dout = args
        return (dout,) * len(xs)


class Sub(_Binary):
    """x - y.  d/dx = dout, d/dy = -dout."""

    def compute(self, x, y):
        return np.subtract(x, y)

    def bprop(self, x, y, out, dout):
        return dout, -dout


class Mul(_Binary):
    """x * y.  d/dx = dout * y, d/dy = dout * x."""

    def compute(self, x, y):
        return np.multiply(x, y)

    def bprop(self, x, y, out, dout):
        return dout * y, dout * x


class RealDiv(_Binary):
    """x / y (true division; integers give Float32).  d/dx = dout / y, d/dy = -(dx * out) = -dout * out / y."""

    def infer(self, x, y):
        shape = broadcast_shape(self, x.shape, y.shape)
        return shape, x.dtype if x.dtype.kind == "f" else np.dtype(np.float32)

    def compute(self, x, y):
        if x.dtype.kind != "f":
            return np.true_divide(x, y, dtype=np.float32)
        return np.true_divide(x, y)

    def bprop(self, x, y, out, dout):
        dx = dout / y
        return dx, -(dx * out)


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

    def bprop(self, x, y, out, dout):
        return op_table.zeros_like(x), op_table.zeros_like(y)


class FloorMod(_Binary):
    """x - floor(x / y) * y.  d/dx = dout, d/dy = -dout * floor(x / y)."""

    def compute(self, x, y):
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.mod(x, y)
        # observed on MindSpore 2.10 CPU: an int32 or int64 x % 0 is the dtype's smallest value, narrower ints give 0
        return _int_by_zero(x, y, out, lambda x, info: info.min if info.bits >= 32 and info.min < 0 else 0)

    def bprop(self, x, y, out, dout):
        return dout, -(dout * (x // y))


class Pow(_Binary):
    """x ** y.  d/dx = dout * (y * x**(y-1)), d/dy = dout * (out * log(x)) (log x taken as 0 where x <= 0)."""

    def compute(self, x, y):
        return np.power(x, y)

    def bprop(self, x, y, out, dout):
        dx = dout * (y * x ** (y - 1))
        log_x = op_table.select(x > 0, op_table.log(maximum(x, 1e-30)), op_table.zeros_like(x))
        return dx, dout * (out * log_x)


def _winner_takes_dout(x_wins, y_wins, tie, dout):
    """(dx, dy) of a max or min: dout goes to the winning input, half of it to each input of a tie."""
    zeros, half = op_table.zeros_like(dout), dout * 0.5
    return (op_table.select(x_wins, dout, op_table.select(tie, half, zeros)),
            op_table.select(y_wins, dout, op_table.select(tie, half, zeros)))


class Maximum(_Binary):
    """max(x, y) elementwise; the gradient goes to the larger input, and is split evenly on a tie.

    The even split is MindSpore's MaximumGrad (observed on 2.10 CPU: d/dx and d/dy of max(x, y) at x == y are
    0.5 each), which is why MindSpore's LeakyReLU, max(alpha * x, x), has the slope (1 + alpha) / 2 at 0.
    """

    def compute(self, x, y):
        return np.maximum(x, y)

    def bprop(self, x, y, out, dout):
        return _winner_takes_dout(x > y, x < y, x == y, dout)


class Minimum(_Binary):
    """min(x, y) elementwise; the gradient goes to the smaller input, and is split evenly on a tie (MinimumGrad)."""

    def compute(self, x, y):
        return np.minimum(x, y)

    def bprop(self, x, y, out, dout):
        return _winner_takes_dout(x < y, x > y, x == y, dout)


# ---- comparisons (boolean results, no gradient) --------------------------------------------
class _Compare(_Binary):
    differentiable = False

    def infer(self, x, y):
        return broadcast_shape(self, x.shape, y.shape), np.dtype(np.bool_)

    def bprop(self, x, y, out, dout):
        return op_table.zeros_like(x), op_table.zeros_like(y)


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
addn = AddN()


def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """min(max(x, clip_value_min), clip_value_max), made of Maximum and Minimum so gradients follow them
    (dout passes where x is inside the range, half of it where x is on a bound, as in MindSpore 2.10's
    ``ops.clip_by_value``); a bound of None is not applied."""
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


def clip(input, min=None, max=None):  # noqa: A001,A002 - MindSpore's argument names
    """min(max(input, min), max) (``ops.clip``, also ``ops.clamp``): a bound may be a number or a Tensor
    (broadcast), None leaves that side open; with min > max every element becomes max, as in MindSpore.

    The gradient passes where the input lies inside [min, max], bounds included (observed on MindSpore 2.10
    CPU: its clamp kernel, unlike clip_by_value's Maximum and Minimum, does not halve it on a bound), so each
    side is a Select of the bound where the input lies beyond it.
    """
    if min is None and max is None:
        raise ValueError("For Clamp, at least one of 'min' or 'max' must not be None.")
    out = input
    if min is not None:
        out = op_table.select(out < min, _bound_like(min, out), out)
    if max is not None:
        out = op_table.select(out > max, _bound_like(max, out), out)
    return out


def _bound_like(bound, x):
    """A clip bound (a number or a Tensor) as a tensor of x's dtype."""
    if isinstance(bound, Tensor):
        return bound if bound.dtype == x.dtype else op_table.cast(bound, x.dtype)
    return op_table.scalar_to_tensor(bound, x.dtype)


clamp = clip

__all__ += ["add", "sub", "mul", "div", "realdiv", "floor_div", "floor_mod", "pow", "maximum", "minimum", "equal",
            "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or",
            "clip_by_value", "addn", "clip", "clamp"]
op_table.register(globals(), __all__)
