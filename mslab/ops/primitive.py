"""Primitive: one operator kind, with its compute, its shape/dtype inference and its bprop rule.

A primitive is data with rules attached (as in JAX):

* ``compute(*inputs)``: numpy arrays (and constant attributes) in, one numpy array out;
* ``infer(*inputs)``: the same call on *abstract* inputs (anything with ``.shape`` and numpy
  ``.dtype``), returning ``(shape, dtype)`` or raising a clear error;
* ``bprop(*inputs, out, dout)``: the gradient of each input (None where none flows), written with mslab
  ops and Tensor operators (never raw numpy), so the same rule runs eagerly in PYNATIVE mode and is
  traced into backward nodes in GRAPH mode. A rule gives gradients in the shape it computes them:
  autodiff sums a broadcast input's gradient back to its shape, and drops gradients nobody needs. A
  rule that can skip real work declares ``needs`` (``bprop(*inputs, out, dout, needs)``, one bool per
  input, True where that input's gradient is wanted) and returns None for the others (Conv2D skips the
  image batch's gradient).

Calling a primitive dispatches on the recording state: while GRAPH mode traces, the call becomes a
node; otherwise it runs now, and PYNATIVE tapes (opened by ``GradOperation``) record it.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from mslab.core import dtype as mstype
from mslab.core import state
from mslab.core.errors import GraphModeError, OpError, OpTypeError
from mslab.core.fp_warnings import quiet_kernels
from mslab.core.freeze import freeze
from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor
from mslab.ir.provenance import cell_description


class Primitive:
    """Base class of all operators (``mindspore.ops.Primitive``).

    Subclasses define compute / infer / bprop (and optionally kernel, kernel_with, prepare) and set the flags
    declared below, each with its default and its meaning: the engine reads them as plain attributes, so
    this block is the whole vocabulary a primitive may speak (as JAX's ``Primitive`` declares its own).

    Mixed precision: inside a Cell set with ``to_float(float16)`` each primitive first casts its
    floating-point tensor inputs (parameters included) to float16, as MindSpore 2.10's PYNATIVE mode does
    (observed on CPU). Cast itself and ops with side effects (Assign to a Parameter) are left alone.
    """

    # ---- what a primitive may declare (subclasses override these class attributes) -------------------------
    # How many leading arguments are tensors (the rest are constant attributes given at call time); None: all.
    n_tensors: int | None = None
    # Whether those tensor arguments may be Python numbers, lifted to tensors with MindSpore's dtype promotion.
    lift_scalars: bool = False
    # TupleGetItem (autodiff.control_flow): which element of a tuple value it picks; None for every other op.
    tuple_index: int | None = None
    # Writes to a Parameter (Assign, ApplyMomentum): passes never remove, fold or merge it, and it runs in order.
    side_effect: bool = False
    # False: no gradient flows through this op (Eye, OnesLike, random draws): autodiff never calls its bprop.
    differentiable: bool = True
    # False: the op may give a different result on each call (random draws, a user's Python function), so
    # passes never merge two calls of it and the executor never folds it at compile time.
    deterministic: bool = True
    # Runs on the host as JIT Fallback (MindSpore's PyExecute): its output value, and every op reading it, is
    # marked ``host``; gradients stop there.
    runs_on_host: bool = False
    # A collective communication op (AllReduce, AllGather, ...): the graph views draw it in its own style.
    communication: bool = False
    # Control flow (If, While, WhileGrad) and a Cell with its own bprop: the ``(label, Graph)`` pairs the
    # node runs; the IR printer nests them under the node, passes optimise them too. Empty for other ops.
    subgraphs: tuple = ()
    # Control flow (If, While): the Parameters its subgraphs read. Autodiff asks its bprop for their gradients
    # too (after the inputs'), since no input of the node carries them.
    parameters: tuple = ()
    # An op whose output is a tuple (If, While): ``[(shape, dtype)]`` of each element; None: one tensor.
    parts: list | None = None
    # Whether a PYNATIVE step's backward through this op may be traced once and replayed as a compiled graph
    # (mslab.fast.backward_replay): its bprop is mslab ops on its inputs, output and dout, and nothing else.
    # False for ops whose backward calls back into Python each step, and for Primitives defined outside mslab.
    bprop_replayable: bool = True
    # Whether a to_float Cell casts this op's inputs (False: Cast itself), or how many leading inputs it casts
    # (BatchNorm: x, scale, bias, not the moving statistics it writes in place).
    mixed_precision: bool | int = True

    def __init__(self, **attrs: Any) -> None:
        self.attrs = attrs
        for k, v in attrs.items():
            setattr(self, k, v)

    @property
    def name(self) -> str:
        return type(self).__name__

    def key(self) -> tuple:
        """What makes two calls of this op kind the same computation (for CSE): its class and its attributes,
        frozen (``mslab.core.freeze``; TypeError if an attribute has no frozen form)."""
        return (type(self), tuple(sorted((k, freeze(v)) for k, v in self.attrs.items())))

    def __repr__(self) -> str:
        attrs = ", ".join(f"{k}={v!r}" for k, v in self.attrs.items())
        return f"{self.name}({attrs})" if attrs else self.name

    # ---- rules (subclasses) -----------------------------------------------------------------
    def compute(self, *args: Any) -> np.ndarray:
        raise NotImplementedError(f"{self.name} has no compute rule")

    def infer(self, *args: Any) -> tuple[Any, np.dtype]:
        raise NotImplementedError(f"{self.name} has no shape/dtype inference rule")

    def bprop(self, *args: Any) -> Sequence[Tensor | None]:
        raise NotImplementedError(
            f"{self.name} has no bprop rule, so gradients cannot flow through it; "
            f"use ops.stop_gradient around it if its gradient is not needed")

    def kernel(self, ins: Sequence[Any]) -> Callable[..., np.ndarray] | None:
        """Compile-time specialisation for GRAPH mode's executor (optional).

        ``ins`` are a node's inputs: abstract values (``.shape``, numpy ``.dtype``) for tensors and the
        constants as given. Return ``fn(*arrays)`` computing the node from its tensor inputs' arrays
        alone, with whatever depends only on shapes, dtypes and constants (axes, output shapes, window
        geometry) worked out here, once; or None (the default) to run ``compute`` with the constants
        bound. A kernel must give exactly what ``compute`` gives: GRAPH and PYNATIVE results are equal.
        """
        return None

    def kernel_with(self, compile_graph: Callable[[Any], Callable]) -> Callable | None:
        """The kernel of a node that runs subgraphs (If, While), with each subgraph compiled by the executor's
        ``compile_graph(graph) -> run(arrays) -> arrays``; None (the default) for an op without subgraphs."""
        return None

    def prepare(self, args: tuple[Any, ...]) -> tuple[Any, ...]:
        """Normalise call arguments before recording or running (lift Python scalars to tensors)."""
        return lift_scalars(args, self.n_tensors) if self.lift_scalars else args

    # ---- dispatch ---------------------------------------------------------------------------
    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "bprop_replayable" not in cls.__dict__ and not cls.__module__.startswith("mslab."):
            cls.bprop_replayable = False  # a user's bprop may do anything (print, count, read a global)

    def __call__(self, *args: Any) -> Tensor:
        """Apply the op: while GRAPH mode traces, record a node; otherwise compute now and let tapes record it."""
        if state.mixed_precision:
            args = self._cast_for_mixed_precision(args)
        args = self.prepare(args)
        if state.tracer is not None:
            return state.tracer.record(self, args)
        out = Tensor._wrap(self.run(args))
        for tape in state.tapes:
            tape.record(self, args, out)
        return out

    def _cast_for_mixed_precision(self, args: tuple[Any, ...]) -> tuple[Any, ...]:
        """Inside a ``to_float`` Cell: the inputs this op casts (``mixed_precision``), cast. Done before ``prepare``,
        whose dtype promotion would cast an input again, outside the per-call cache."""
        mp = self.mixed_precision
        if not mp or (mp is True and self.side_effect):
            return args
        n = len(args) if mp is True else mp
        return to_mixed_precision(args[:n], *state.mixed_precision[-1]) + tuple(args[n:])

    def run(self, args: Sequence[Any]) -> np.ndarray:
        """``compute`` on the arguments' arrays, once ``infer`` has checked them: a numpy array. A failure is
        raised as an error naming this op, the Cell running it and the input shapes (``error``)."""
        vals = [a._data if isinstance(a, Tensor) else a for a in args]
        try:
            self.infer(*vals)
            if state.kernels_quiet:
                out = self.compute(*vals)
            else:  # an op called on its own: inf and nan without numpy's warnings, as MindSpore (core/fp_warnings)
                with quiet_kernels():
                    out = self.compute(*vals)
        except Exception as e:
            raise self.error(args, e) from None
        return out if type(out) is np.ndarray else np.asarray(out)

    def error(self, args: Any, exc: Exception) -> Exception:
        """Re-raise a failure as an error naming this op, the Cell running it and the input shapes."""
        if any(isinstance(a, Tensor) and a._data is None for a in args) and state.tracer is None:
            return GraphModeError(
                f"{self.name}: got a symbolic tensor outside the graph being traced. A tensor from inside a "
                f"GRAPH-mode construct cannot be kept and used after tracing ended; return it instead.")
        if isinstance(exc, (GraphModeError, OpError, OpTypeError)):
            return exc
        shapes = ", ".join(_describe(a) for a in args if isinstance(a, Tensor))
        text = str(exc)
        if text.startswith(self.name + " ") or text.startswith(self.name + ":"):  # the rule named itself
            text = text[len(self.name):].lstrip(": ")
        msg = f"{self.name}{cell_description()}: {text}\n  inputs: {shapes}"
        cls = OpTypeError if isinstance(exc, TypeError) else OpError
        return cls(msg)


def to_mixed_precision(args: Any, dtype: np.dtype, casts: dict) -> tuple:
    """``args`` with each floating-point Tensor cast to ``dtype`` (a numpy dtype); the rest unchanged.

    ``casts`` remembers the casts made during this Cell call: a tensor used by several ops is cast once,
    as MindSpore casts a Cell's inputs and parameters once, so their gradients add up before the cast
    back (in float32, not float16).
    """
    out = []
    for a in args:
        if isinstance(a, Tensor) and a._np_dtype.kind == "f" and a._np_dtype != dtype:
            hit = casts.get(id(a))
            if hit is None or hit[0] is not a:
                hit = casts[id(a)] = (a, op_table.cast(a, dtype))  # keeps ``a`` alive, so its id is not reused
            a = hit[1]
        out.append(a)
    return tuple(out)


def _describe(t: Tensor) -> str:
    return f"{t.dtype}{list(t.shape)}"


# ---- dtype promotion for Python scalars and mixed tensors (MindSpore's implicit conversion) ------
def scalar_dtype(value: Any, ref: np.dtype | None) -> np.dtype:
    """The dtype a Python scalar takes next to a tensor of numpy dtype ``ref`` (None: no tensor)."""
    if isinstance(value, (bool, np.bool_)):
        return ref if ref is not None else np.dtype(np.bool_)
    if isinstance(value, (int, np.integer)):
        if ref is not None and ref.kind in "fiu":
            return ref
        return np.dtype(np.int64)
    if ref is not None and ref.kind == "f":
        return ref
    return np.dtype(np.float32)


def promote(a: np.dtype, b: np.dtype) -> np.dtype:
    """MindSpore's promotion of two tensor dtypes: a float wins over ints; otherwise the wider type."""
    if a == b:
        return a
    fa, fb = a.kind == "f", b.kind == "f"
    if fa != fb:
        return a if fa else b
    if a.kind == "b":
        return b
    if b.kind == "b":
        return a
    return np.promote_types(a, b)


def lift_scalars(args: Any, n: int | None) -> tuple:
    """Turn Python numbers among the first ``n`` arguments into tensors and cast tensors to one dtype."""
    n = len(args) if n is None else n
    if n == 2 and len(args) >= 2:
        a, b = args[0], args[1]
        if isinstance(a, Tensor):
            if isinstance(b, Tensor):
                if a._np_dtype == b._np_dtype:  # two tensors of one dtype: nothing to do (the usual binary op)
                    return args
            elif type(b) is float and a._np_dtype.kind == "f":  # float tensor (op) Python float: b takes a's dtype
                return (a, Tensor._wrap(np.asarray(b, a._np_dtype))) + tuple(args[2:])
    ref = None
    for a in args[:n]:
        if isinstance(a, Tensor):
            ref = a._np_dtype if ref is None else promote(ref, a._np_dtype)
    if ref is not None and ref.kind != "f" and any(isinstance(a, (float, np.floating)) for a in args[:n]):
        ref = np.dtype(np.float32)  # int tensor + Python float -> Float32, as MindSpore
    out = list(args)
    for i in range(n):
        a = args[i]
        if isinstance(a, Tensor):
            if ref is not None and a._np_dtype != ref:
                out[i] = op_table.cast(a, ref)
        elif isinstance(a, np.ndarray):
            out[i] = Tensor._wrap(a.astype(ref) if ref is not None else a)
        elif isinstance(a, (int, float, bool, np.number, np.bool_)):
            out[i] = Tensor._wrap(np.asarray(a, scalar_dtype(a, ref)))
        else:
            raise OpTypeError(f"expected a Tensor or a number as input {i}, got {type(a).__name__}")
    return tuple(out)


def np_dtype(dtype: Any) -> np.dtype:
    """numpy dtype of an mslab dtype / numpy dtype / Python type."""
    return mstype.to_numpy(dtype)


def check_float(prim: Primitive, *vals: Any) -> None:
    """Raise a TypeError if any input is not floating point (for ops such as exp, log, softmax)."""
    for v in vals:
        if v.dtype.kind != "f":
            raise TypeError(f"{prim.name} needs a floating-point input, got {mstype.from_numpy(v.dtype)}")


def check_same_dtype(prim: Primitive, *vals: Any) -> np.dtype:
    first = vals[0].dtype
    for v in vals:
        if v.dtype != first:
            break
    else:  # one dtype (a loop, not a set: every BiasAdd and Concat pays this)
        return first
    dts = {v.dtype for v in vals}
    if len(dts) > 1:
        names = ", ".join(str(mstype.from_numpy(d)) for d in dts)
        raise TypeError(f"{prim.name} needs inputs of one dtype, got {names}")
    return vals[0].dtype


def broadcast_shape(prim: Primitive, *shapes: Any) -> tuple[int, ...]:
    """numpy broadcasting of shapes, with an error that names the op and both shapes."""
    if len(shapes) == 2:  # the common case, without np.broadcast_shapes' overhead (every eager op pays it)
        a, b = tuple(shapes[0]), tuple(shapes[1])
        if a == b or not b:
            return a
        if not a:
            return b
        if len(a) < len(b):
            a = (1,) * (len(b) - len(a)) + a
        elif len(b) < len(a):
            b = (1,) * (len(a) - len(b)) + b
        out = []
        for x, y in zip(a, b):
            if x == y or y == 1:
                out.append(x)
            elif x == 1:
                out.append(y)
            else:
                break
        else:
            return tuple(out)
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise ValueError(f"shapes {' and '.join(str(tuple(s)) for s in shapes)} cannot be broadcast together") from None

def write_in_place(target: np.ndarray, value: Any) -> None:
    """Copy ``value`` into the array ``target`` (a Parameter's), journaled first (``core.state.before_write``) so an
    all-or-nothing training step that fails later can put the old contents back."""
    state.before_write(target)
    np.copyto(target, value, casting="unsafe")


def subtract_in_place(target: np.ndarray, value: Any) -> None:
    """``target -= value`` on a Parameter's array, journaled first (as ``write_in_place``): the numbers of
    ``write_in_place(target, target - value)`` without the temporary array and the copy."""
    state.before_write(target)
    np.subtract(target, value, out=target, casting="unsafe")


def sum_to(g: Tensor, shape: Sequence[int]) -> Tensor:
    """Sum gradient ``g`` down to ``shape`` (undo broadcasting); written with mslab ops."""
    shape = tuple(shape)
    if tuple(g.shape) == shape:
        return g
    lead = len(g.shape) - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape) if s == 1 and g.shape[lead + i] != 1)
    r = op_table.reduce_sum(g, axes, False) if axes else g
    return op_table.reshape(r, shape) if tuple(r.shape) != shape else r


_instances: dict[tuple, Primitive] = {}


def instance(cls: type[Primitive], *args: Any, **attrs: Any) -> Primitive:
    """The one instance of primitive ``cls`` with these attributes (functional forms reuse it, so calling
    ``ops.reduce_sum(x, axis, keep_dims)`` costs no more than calling a primitive made once)."""
    key = (cls, args, tuple(sorted(attrs.items()))) if attrs else (cls, args)
    p = _instances.get(key)
    if p is None:
        p = _instances[key] = cls(*args, **attrs)
    return p


def hashable(v: Any) -> Any:
    """A list attribute as a tuple (attributes are cache keys)."""
    return tuple(v) if isinstance(v, list) else v


def normalize_axis(axis: Any, ndim: int, op_name: str = "op") -> tuple[int, ...]:
    """Axis or tuple of axes to a sorted tuple of non-negative ints; () means every axis."""
    if axis is None or axis == ():
        return tuple(range(ndim))
    if type(axis) is int and 0 <= axis < ndim:
        return (axis,)
    if isinstance(axis, (int, np.integer)):
        axis = (int(axis),)
    out = []
    for a in axis:
        a = int(a)
        if not -ndim <= a < max(ndim, 1):
            raise ValueError(f"axis {a} is out of range for a tensor of rank {ndim}")
        out.append(a % ndim if ndim else 0)
    return tuple(sorted(set(out)))


# ---- constexpr -------------------------------------------------------------------------------------------
class _ConstexprOp:
    """What ``@constexpr`` makes of a function: calling it calls the function on the (constant) arguments."""

    def __init__(self, fn: Callable, name: str | None = None) -> None:
        self.fn, self.name = fn, name or getattr(fn, "__name__", "constexpr")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"Prim[{self.name}]<constexpr_prim=True>"


def constexpr(fn: Callable | None = None, get_instance: bool = True, name: str | None = None,
              reuse_result: bool = True, check: bool = True) -> Any:
    """``ops.constexpr``: a decorator for functions of constants (shapes, axes, numbers) used inside construct.

    MindSpore runs such a function while compiling a graph, on the constant values of its arguments, and puts
    its result in the graph as a constant. mslab traces a graph with shapes and Python values as Python objects,
    so the function simply runs, in both modes, on the values it is given. ``get_instance=False`` gives the
    operator's class instead of an instance; ``reuse_result`` and ``check`` are accepted and have no effect.
    """
    def decorate(f: Callable) -> Any:
        if get_instance:
            return _ConstexprOp(f, name)

        class ProxyOp(_ConstexprOp):
            def __init__(self) -> None:
                super().__init__(f, name)
        return ProxyOp
    return decorate(fn) if fn is not None else decorate
