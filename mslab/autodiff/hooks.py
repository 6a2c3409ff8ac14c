"""Backward hooks: ``Tensor.register_hook`` and ``Cell.register_backward_hook`` / ``register_backward_pre_hook``.

What MindSpore 2.10 does (observed on CPU), and mslab with it, in PYNATIVE and GRAPH mode alike:

* ``t.register_hook(fn)``: once a backward pass has the whole gradient ``g`` of ``t`` (every use of ``t``, also
  those before the registration), it calls ``fn(g)``; a Tensor it returns replaces ``g``, None keeps it, anything
  else is a RuntimeError. Hooks chain in registration order. In the backward graph each call shows as a
  ``TensorHook`` node (the gradient the hook is shown) followed by the hook's own ops.
* ``cell.register_backward_pre_hook(fn)``: ``fn(cell, grad_output)`` when the backward pass reaches the Cell's
  output; a tuple (or Tensor) it returns replaces the output's gradients before the Cell's backward runs.
* ``cell.register_backward_hook(fn)``: ``fn(cell, grad_input, grad_output)`` once the gradients of the Cell's
  Tensor inputs are known; what it returns replaces them (the Parameters' gradients are not shown to it).

A Cell's hooks work as MindSpore's ``CellBackwardHook`` primitive does: identity nodes recorded in the forward
pass around ``construct`` (on its Tensor inputs, on its outputs), whose bprop rules call the hooks. In GRAPH
mode the rules are traced, so the hooks are compiled into the backward graph (a ``print`` in a hook prints at
every run). Several Tensors pass one node as a tuple (taken apart by TupleGetItem), so a hook sees them together.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from mslab.autodiff import graph_syntax
from mslab.autodiff.control_flow import TupleGetItem
from mslab.core import state, tensor_hooks
from mslab.core.tensor import Tensor
from mslab.ops import array_ops
from mslab.ops.primitive import Primitive


def _call(fn: Callable, *args: Any) -> Any:
    """``fn(*args)``; while GRAPH mode traces, with ``fn``'s source converted like construct's (its ``print``
    becomes a graph print, its ``if`` on a tensor a graph If)."""
    if state.tracer is None:
        return fn(*args)
    return graph_syntax.call(fn, *args)


def _fn_name(fn: Callable) -> str:
    return getattr(fn, "__name__", type(fn).__name__)


# ---- Tensor.register_hook ---------------------------------------------------------------------------------
class TensorHook(Primitive):
    """``TensorHook[fn](g) = g``: in the backward pass, the gradient a tensor hook ``fn`` is shown."""

    n_tensors = 1
    bprop_replayable = False  # the hook is the user's Python: it runs on every backward

    def __init__(self, fn: Callable) -> None:
        super().__init__()
        self.fn = fn

    @property
    def name(self) -> str:
        return f"TensorHook[{_fn_name(self.fn)}]"

    def key(self) -> tuple:
        return (type(self), id(self))  # each hook call is its own node

    def infer(self, g: Any) -> tuple[Any, np.dtype]:
        return tuple(g.shape), g.dtype

    def compute(self, g: np.ndarray) -> np.ndarray:
        return g

    def bprop(self, g: Tensor, out: Tensor, dout: Tensor) -> tuple[Tensor]:
        return (dout,)


class TensorHookMark(TensorHook):
    """Where ``t.register_hook(fn)`` was called, on a PYNATIVE tape: shows the hook in the tape (it acts in the
    backward pass, on the whole gradient of ``t``); no gradient flows through the mark."""

    differentiable = False


def mark_on_tapes(tensor: Tensor, fn: Callable) -> None:
    """Record a TensorHookMark on the tapes recording now (PYNATIVE mode; a graph shows the hook's backward node)."""
    if state.tapes and state.tracer is None and tensor._data is not None:
        TensorHookMark(fn)(tensor)


def run_tensor_hooks(hooks: list[Callable], grad: Tensor) -> Tensor:
    """``grad`` (the whole gradient of a tensor) after the tensor's ``hooks``, oldest first."""
    for fn in hooks:
        got = _call(fn, TensorHook(fn)(grad))
        if got is None:
            continue
        if not isinstance(got, Tensor):  # MindSpore 2.10's RuntimeError and text (observed on CPU)
            raise RuntimeError(f"Tensor hook should be return Tensor, but get type: {type(got).__name__}.")
        grad = got
    return grad


tensor_hooks.install(run_tensor_hooks, mark_on_tapes)  # backprop (below this module) runs tensor hooks through core


# ---- Cell.register_backward_hook / register_backward_pre_hook ----------------------------------------------
class CellHookCall:
    """One call of a hooked Cell: what its input and output nodes share (the output's gradients, once known)."""

    def __init__(self, cell: Any, hooks: dict[str, dict[int, Callable]]) -> None:
        self.cell, self.hooks = cell, hooks
        self.grad_output: tuple[Tensor, ...] | None = None


class CellBackwardHook(Primitive):
    """MindSpore's ``CellBackwardHook``: the identity on a Cell's Tensors (several pass as one tuple), whose
    bprop runs the Cell's backward hooks. ``where``: ``"input"`` (runs ``register_backward_hook``'s hooks),
    ``"output"`` (keeps the output's gradients for them) or ``"pre"`` (runs the backward pre-hooks)."""

    bprop_replayable = False  # the hooks are the user's Python: they run on every backward

    def __init__(self, call: CellHookCall, where: str, tensors: Sequence[Tensor]) -> None:
        super().__init__()
        self.call, self.where, self.n_tensors = call, where, len(tensors)
        if len(tensors) > 1:  # a tuple output, read by TupleGetItem
            self.parts = [(tuple(t.shape), t._np_dtype) for t in tensors]

    @property
    def name(self) -> str:
        return f"CellBackwardHook[{type(self.call.cell).__name__}.{self.where}]"

    def key(self) -> tuple:
        return (type(self), id(self))

    def infer(self, *xs: Any) -> tuple[Any, np.dtype]:
        if self.parts is None:
            return tuple(xs[0].shape), xs[0].dtype
        return (), np.dtype(object)

    def compute(self, *xs: np.ndarray) -> Any:
        return xs[0] if self.parts is None else tuple(xs)

    def bprop(self, *args: Any) -> tuple[Tensor, ...]:
        xs, dout = args[:-2], args[-1]
        douts = [dout] if self.parts is None else list(dout)
        grads = tuple(g if g is not None else array_ops.zeros_like(x) for x, g in zip(xs, douts))
        call = self.call
        if self.where == "output":
            call.grad_output = grads
            return grads
        if self.where == "pre":
            for fn in list(call.hooks["backward_pre"].values()):
                grads = _replaced(grads, _call(fn, call.cell, grads), "The backward pre hook return value size is {} "
                                  "not equal to expect output size {}")
            return grads
        grad_output = call.grad_output
        if grad_output is None:
            grad_output = ()
        for fn in list(call.hooks["backward"].values()):
            grads = _replaced(grads, _call(fn, call.cell, grads, grad_output), "The backward hook return value size "
                              "is {} not equal to expect grad input size {}")
        call.grad_output = None
        return grads


def _replaced(grads: tuple[Tensor, ...], got: Any, size_message: str) -> tuple[Tensor, ...]:
    """The gradients after one hook returned ``got``: None keeps them, a Tensor or tuple replaces them
    (MindSpore 2.10's TypeErrors for a wrong count or a non-Tensor, observed on CPU)."""
    if got is None:
        return grads
    got = got if isinstance(got, tuple) else (got,)
    if len(got) != len(grads):
        raise TypeError(size_message.format(len(got), len(grads)))
    for g in got:
        if not isinstance(g, Tensor):
            raise TypeError(f"The output type of function: hook_backward_grad should be a tensor but got "
                            f"{type(g).__name__}.")
    return got


def _through(prim: CellBackwardHook, tensors: Sequence[Tensor]) -> list[Tensor]:
    """``tensors`` passed through ``prim``: recorded as one node (plus a TupleGetItem per Tensor when several)."""
    if prim.parts is None:
        return [prim(tensors[0])]
    if state.tracer is not None:
        tup = prim(*tensors)
        return [TupleGetItem(i)(tup) for i in range(len(tensors))]
    outs = [Tensor._wrap(t._data) for t in tensors]  # type: ignore[arg-type]  # eager: concrete tensors
    for tape in state.tapes:  # recorded here, node by node (a tape's own record() makes no tuple value)
        tape.recorded_nodes()  # a tape that makes its nodes late (mslab.fast's lean tape) makes the earlier ones now
        values, graph = tape._values, tape.graph
        holder = Tensor._wrap(np.empty((), object))  # stands for the tuple on this tape
        tup = graph.add_node(tape._new_node(prim, [tape.value_of(t) for t in tensors]), (), np.dtype(object), holder)
        tup.parts = prim.parts
        for i, out in enumerate(outs):
            node = tape._new_node(TupleGetItem(i), [tup])
            values[id(out)] = graph.add_node(node, tuple(out.shape), out._np_dtype, out)
    return outs


def on_inputs(cell: Any, hooks: dict[str, dict[int, Callable]], args: tuple) -> tuple[tuple, CellHookCall]:
    """The call's arguments with their Tensors passed through the input hook node (when backward hooks exist)."""
    call = CellHookCall(cell, hooks)
    if not hooks["backward"]:
        return args, call
    return _replace_tensors(args, lambda ts: _through(CellBackwardHook(call, "input", ts), ts)), call


def on_outputs(call: CellHookCall, output: Any) -> Any:
    """``construct``'s output with its Tensors passed through the output node, then the pre-hook node (the
    order of MindSpore's ``Cell._run_construct``)."""
    if call.hooks["backward"]:
        output = _replace_tensors(output, lambda ts: _through(CellBackwardHook(call, "output", ts), ts))
    if call.hooks["backward_pre"]:
        output = _replace_tensors(output, lambda ts: _through(CellBackwardHook(call, "pre", ts), ts))
    return output


def _replace_tensors(value: Any, through: Callable[[list[Tensor]], list[Tensor]]) -> Any:
    """``value`` (a Tensor or a tuple/list) with its Tensors replaced by ``through(tensors)`` (others kept)."""
    if isinstance(value, Tensor):
        return through([value])[0]
    if not isinstance(value, (tuple, list)):
        return value
    positions = [i for i, v in enumerate(value) if isinstance(v, Tensor)]
    if not positions:
        return value
    new = through([value[i] for i in positions])
    items = list(value)
    for i, t in zip(positions, new):
        items[i] = t
    return type(value)(items) if isinstance(value, list) else tuple(items)
