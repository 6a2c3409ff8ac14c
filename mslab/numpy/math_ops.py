"""Maths, as ``mindspore.numpy``: sum, mean, square, dot, tensordot, where, cumsum, norm, cross and elementwise
functions, on mslab's ops.

Everything here is built from ``mslab.ops.functional``, so it is differentiable and runs the same in
PYNATIVE and GRAPH mode. Result dtypes follow MindSpore 2.10 on CPU (observed): ``sum`` of a bool or
integer tensor is Int64, ``mean`` keeps an integer dtype (the mean is truncated: mean of Int32
[0..5] is 2), ``sqrt``/``tanh`` of an integer tensor are Float32 while ``log``/``exp`` refuse one.
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core.tensor import Tensor
from mslab.numpy.convert import as_float, axes, cast_to, ms_dtype, np_dtype, promote, to_tensor
from mslab.ops import functional as F

__all__ = ["sum", "mean", "square", "dot", "tensordot", "where", "ceil", "cumsum", "cumprod", "norm", "cross", "add",
           "subtract", "multiply", "divide", "maximum", "minimum", "power", "sqrt", "log", "exp", "tanh", "absolute",
           "abs", "negative"]


def sum(a, axis=None, dtype=None, keepdims=False, initial=None):  # noqa: A001 - MindSpore's name
    """Sum over ``axis`` (all axes by default); bool and integer inputs sum to Int64, as numpy on Linux."""
    a = to_tensor(a, "sum")
    if dtype is None and np_dtype(a.dtype).kind in "biu":
        dtype = mstype.int64
    out = F.reduce_sum(cast_to(a, dtype), axes(axis, len(a.shape)), keepdims)
    return out if initial is None else F.add(out, Tensor(np.asarray(initial, dtype=np_dtype(out.dtype))))


def mean(a, axis=None, keepdims=False, dtype=None):
    """Arithmetic mean over ``axis`` (all axes by default), in ``a``'s dtype unless ``dtype`` is given."""
    a = to_tensor(a, "mean")  # MindSpore averages in a's dtype, then casts: mean(Int32 [0..5], dtype=Float32) is 2.0
    return cast_to(F.reduce_mean(a, axes(axis, len(a.shape)), keepdims), dtype)


def square(x, dtype=None):
    """x ** 2, elementwise."""
    return cast_to(F.square(to_tensor(x, "square", "x")), dtype)


def dot(a, b):
    """numpy's dot: 1-D . 1-D is the inner product, 2-D . 2-D the matrix product, and in general a sum
    over the last axis of ``a`` and the second-to-last of ``b`` (the last, if ``b`` is 1-D).

    Both must be Tensors of one dtype, as in MindSpore. The contraction is ``ops.tensor_dot``'s (as ``ops.dot``).
    """
    for t, n in ((a, "a"), (b, "b")):
        if not isinstance(t, Tensor):
            raise TypeError(f"mslab.numpy.dot: {n} must be a Tensor (as in mindspore.numpy), got {type(t).__name__}")
    sa, sb = tuple(a.shape), tuple(b.shape)
    if not sa or not sb:
        return F.mul(a, b)
    k, kb = sa[-1], sb[max(len(sb) - 2, 0)]
    if k != kb:
        raise ValueError(f"mslab.numpy.dot: shapes {sa} and {sb} not aligned: {k} (last axis of a) != {kb}")
    return F.tensor_dot(a, b, ((len(sa) - 1,), (max(len(sb) - 2, 0),)))


def tensordot(a, b, axes=2):
    """numpy's tensordot: the sum over the last ``axes`` axes of ``a`` and the first ``axes`` of ``b``, or over
    the axes lists ``axes = (axes_of_a, axes_of_b)``; the result's axes are a's free axes, then b's."""
    a, b = to_tensor(a, "tensordot"), to_tensor(b, "tensordot", "b")
    return F.tensor_dot(a, b, axes)


def ceil(x, dtype=None):
    """The smallest integer >= x, elementwise (as -floor(-x)); its gradient is zero."""
    x = to_tensor(x, "ceil", "x")
    return cast_to(F.neg(F.floor(F.neg(x))), dtype)


def _running(op, a, axis, dtype, fn):
    a = to_tensor(a, fn)
    if axis is None:
        a, axis = F.reshape(a, (-1,)), 0
    if dtype is None and np_dtype(a.dtype) == np.bool_:
        dtype = mstype.int32
    return op(a, axis, None if dtype is None else ms_dtype(dtype))


def cumsum(a, axis=None, dtype=None):
    """Running sum along ``axis`` (over the flattened array without one); bool and Int32 inputs give Int32."""
    return _running(F.cumsum, a, axis, dtype, "cumsum")


def cumprod(a, axis=None, dtype=None):
    """Running product along ``axis`` (over the flattened array without one); bool and Int32 inputs give Int32."""
    return _running(F.cumprod, a, axis, dtype, "cumprod")


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002 - numpy's argument name
    """numpy's norm: the 2-norm of every element (Frobenius for a matrix) by default; with ``axis`` an int, vector
    norms along it; ``ord`` 1 / inf on a matrix, the largest column / row sum of absolute values (``ops.norm``)."""
    return F.norm(as_float(to_tensor(x, "norm", "x")), ord, axis, keepdims)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors along the last axis (broadcast): (a1 b2 - a2 b1, a2 b0 - a0 b2, a0 b1 - a1 b0)."""
    a, b = promote([a, b], "cross")
    if (axisa, axisb, axisc, axis) != (-1, -1, -1, None) or a.shape[-1] != 3 or b.shape[-1] != 3:
        raise NotImplementedError(f"mslab.numpy.cross: mslab takes 3-vectors along the last axis only, got shapes "
                                  f"{tuple(a.shape)} and {tuple(b.shape)} with axisa={axisa}, axisb={axisb}, "
                                  f"axisc={axisc}, axis={axis}")
    ai = [F.getitem(a, (Ellipsis, i)) for i in range(3)]
    bi = [F.getitem(b, (Ellipsis, i)) for i in range(3)]
    parts = [F.sub(F.mul(ai[j], bi[k]), F.mul(ai[k], bi[j])) for j, k in ((1, 2), (2, 0), (0, 1))]
    return F.stack(tuple(parts), -1)


def where(condition, x=None, y=None):
    """``x`` where ``condition`` is true, else ``y`` (broadcast; dtypes promoted, numbers take the tensor's)."""
    if x is None or y is None:
        raise TypeError("mslab.numpy.where: give condition, x and y (the one-argument form is not supported, "
                        "as in mindspore.numpy)")
    cond = to_tensor(condition, "where", "condition")
    if np_dtype(cond.dtype) != np.bool_:
        cond = F.cast(cond, mstype.bool_)
    x, y = promote([x, y], "where")
    shape = np.broadcast_shapes(tuple(cond.shape), tuple(x.shape), tuple(y.shape))
    return F.select(*(t if tuple(t.shape) == shape else F.broadcast_to(t, shape) for t in (cond, x, y)))


def _binary(op, name, numbers_take_tensor_dtype=False):
    def fn(x1, x2, dtype=None):
        return cast_to(op(*promote([x1, x2], name, numbers_take_tensor_dtype)), dtype)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``{name}(x1, x2)`` elementwise, with broadcasting (``mindspore.numpy.{name}``)."
    return fn


add = _binary(F.add, "add")
subtract = _binary(F.sub, "subtract")
maximum = _binary(F.maximum, "maximum", numbers_take_tensor_dtype=True)
minimum = _binary(F.minimum, "minimum", numbers_take_tensor_dtype=True)


def multiply(x1, x2, dtype=None):
    """x1 * x2, elementwise; both must be Tensors (MindSpore 2.10's mnp.multiply refuses a Python number)."""
    for t, n in ((x1, "x1"), (x2, "x2")):
        if not isinstance(t, Tensor):
            raise TypeError(f"mslab.numpy.multiply: {n} must be a Tensor (as in mindspore.numpy), got "
                            f"{type(t).__name__}; write x * 2 for a number")
    return cast_to(F.mul(*promote([x1, x2], "multiply")), dtype)
power = _binary(F.pow, "power")


def divide(x1, x2, dtype=None):
    """True division, elementwise: integers divide to Float32."""
    a, b = promote([x1, x2], "divide")
    return cast_to(F.div(as_float(a), as_float(b)), dtype)


def _unary(op, name, floating):
    def fn(x, dtype=None):
        t = to_tensor(x, name, "x")
        return cast_to(op(as_float(t) if floating else t), dtype)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``{name}(x)`` elementwise (``mindspore.numpy.{name}``)" + ("; integers give Float32." if floating
                                                                              else ".")
    return fn


sqrt = _unary(F.sqrt, "sqrt", True)
log = _unary(F.log, "log", False)  # MindSpore 2.10's CPU Log and Exp refuse integer inputs (observed)
exp = _unary(F.exp, "exp", False)
tanh = _unary(F.tanh, "tanh", True)
absolute = _unary(F.abs, "absolute", False)
abs = absolute  # noqa: A001 - MindSpore's name
negative = _unary(F.neg, "negative", False)
