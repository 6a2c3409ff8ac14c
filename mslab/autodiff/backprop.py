"""Reverse-mode autodiff over recorded nodes, by each primitive's bprop rule.

The same function serves both modes. While GRAPH mode traces, the nodes are the forward graph's
and calling a bprop rule *traces* it: backward nodes are appended to the graph, each remembering
the forward node it came from. In PYNATIVE mode the nodes are a tape's and the bprop rules simply
run. Either way the result depends only on the structure of the forward computation.

Two chores are done here, once, so that no rule repeats them. Broadcasting is undone where gradients
are accumulated: an input broadcast to a bigger shape was used once per copy, so its gradient is
summed back to its own shape (``sum_to``) before it is added in. And gradients nobody needs (an input
that leads to no target) are dropped here; a rule whose work can be skipped (MatMul, Conv2D, BatchNorm)
declares a ``needs`` argument and is told which inputs want a gradient.

A control-flow node (If, While) has a tuple output: the nodes that pick its elements (TupleGetItem,
whose primitives carry ``tuple_index``) pass their gradients to that position of the tuple's gradient,
and the control-flow node's bprop receives the list. A Parameter that a branch or a loop body reads is no
input of the control-flow node (it is read where it lives), so the node lists it in ``prim.parameters``; its
bprop returns their gradients after the inputs'. Values computed on the host (JIT Fallback) stop gradients, as
MindSpore's PyExecute nodes do.

A Parameter written in place (Assign) after a node read it: in GRAPH mode the node's rule must see the value
it read, as MindSpore's Load nodes give it, so a copy is taken right before the read (``_snapshots``); a
control-flow node's rule recomputes its subgraphs on that copy (``REPLAY_PARAMETERS``). (PYNATIVE reads
the Parameter as it is when the rule runs, as MindSpore's PYNATIVE mode does.)
"""
from __future__ import annotations

import contextlib
import functools
import inspect
from typing import Any, Iterable, Iterator, Sequence

import numpy as np

from mslab.core import tensor_hooks
from mslab.core.tensor import Tensor
from mslab.ir.graph import Node, Value, ValueKind
from mslab.ir.tracer import Recorder, Tracer
from mslab.ops import array_ops, math_ops, shape_ops
from mslab.ops.primitive import Primitive, sum_to


def backprop(recorder: Recorder, nodes: Iterable[Node], roots: Sequence[Value], sens: Sequence[Tensor],
             targets: Sequence[Value]) -> list[Tensor | None]:
    """Gradients of ``roots`` (weighted by ``sens``) with respect to ``targets``.

    ``nodes``: the recorded forward nodes, in run order. ``roots``/``targets``: Values;
    ``sens``: one Tensor per root (the incoming gradient, MindSpore's *sens*).
    Returns one Tensor per target, or None where no path leads from the target to a root.
    """
    active, relevant = _on_paths_from(targets, nodes)
    snapshots = _snapshots(recorder, nodes, active) if isinstance(recorder, Tracer) else {}
    grads: dict[Value, Any] = {}  # a Tensor, or for a tuple value a list with one gradient per element
    with recorder.backward_of(None):
        for root, s in zip(roots, sens):
            if root in relevant:
                _accumulate(grads, root, _shaped_like(root, s))
    keep = set(targets)  # a target can also be an intermediate output: keep its gradient
    hooked: set[Value] = set()
    for n in reversed(active):
        dout = grads.get(n.out) if n.out in keep else grads.pop(n.out, None)
        if dout is None:
            continue
        if tensor_hooks.hooks_of(n.out.handle):  # Tensor.register_hook: the whole gradient of n's output, hooked
            with recorder.backward_of(n):
                dout = tensor_hooks.hooked(n.out.handle, dout)
            hooked.add(n.out)
            if n.out in keep:
                grads[n.out] = dout
        with recorder.backward_of(n):  # the rule's nodes, and the Adds summing its gradients in, are n's gradient
            if n.prim.tuple_index is not None:  # picks one element of a tuple: its gradient goes to that position
                _accumulate_element(grads, n.inputs[0], n.prim.tuple_index, dout)
                continue
            rule_grads = _call_rule(n, dout, relevant, snapshots.get(n))
            for v, g in zip(n.inputs, rule_grads):
                if g is not None and type(v) is Value and v in relevant:
                    _accumulate(grads, v, g)
            for p, g in zip(n.prim.parameters, rule_grads[len(n.inputs):]):  # read inside control flow
                v = recorder.graph.param_value(p)
                if g is not None and v in relevant:
                    _accumulate(grads, v, g)
    with recorder.backward_of(None):  # a hooked input's (or Parameter's) gradient is whole only now
        return [g if g is None or t in hooked else tensor_hooks.hooked(t.handle, g)
                for t, g in ((t, grads.get(t)) for t in targets)]


def _differentiable(v: Value) -> bool:
    """Floats, complex numbers and integers carry gradients (MindSpore: ``grad(x * 2)`` at int32 x is int32
    [2, 2, 2]); bools do not, and neither do values computed on the host (JIT Fallback)."""
    if v.host:
        return False
    if v.parts is not None:
        return any(np.dtype(d).kind in "fciu" for _, d in v.parts)
    return v.dtype.kind in "fciu"


def _on_paths_from(targets: Iterable[Value], nodes: Iterable[Node]) -> tuple[list[Node], set[Value]]:
    """The nodes that depend on a target (in run order), and every value they make depend on one."""
    relevant = {t for t in targets if _differentiable(t)}
    weights = _weights_in(relevant)
    active = []
    for n in nodes:
        if n.prim.differentiable and (any(type(v) is Value and v in relevant for v in n.inputs)
                                      or weights and any(id(p) in weights for p in n.prim.parameters)) \
                and _differentiable(n.out):
            relevant.add(n.out)
            active.append(n)
    return active, relevant


def _weights_in(values: Iterable[Value]) -> set[int]:
    """The ids of the Parameters among ``values`` (to find the control-flow nodes that read them)."""
    return {id(v.handle) for v in values if v.kind == ValueKind.PARAM}


# While a control-flow node's rule runs: id(Parameter) -> the copy its subgraphs' recomputation reads instead
REPLAY_PARAMETERS: dict[int, Tensor] = {}
_NO_COPIES = contextlib.nullcontext()


@contextlib.contextmanager
def reading_parameters_as(copies: dict[int, Any]) -> Iterator[None]:
    """Within the block, a recomputation of a subgraph reads each Parameter of ``copies`` (by id) as its copy."""
    saved = dict(REPLAY_PARAMETERS)
    REPLAY_PARAMETERS.update(copies)
    try:
        yield
    finally:
        REPLAY_PARAMETERS.clear()
        REPLAY_PARAMETERS.update(saved)


def _snapshots(tracer: Tracer, nodes: Iterable[Node], active: list[Node]) -> dict[Node, dict[int, Tensor]]:
    """For each active node that reads a Parameter a later node writes: id(Parameter) -> a copy of it, recorded
    right before the node (MindSpore's Load): its gradient rule must see the value it read, not the one written."""
    order = list(nodes)
    last_write: dict[int, int] = {}
    for i, n in enumerate(order):
        if n.prim.side_effect:
            target = n.written_parameter
            for p in [target.handle] if target is not None else getattr(n.prim, "writes", ()):
                last_write[id(p)] = i
    if not last_write:
        return {}
    position = {n: i for i, n in enumerate(order)}
    out: dict[Node, dict[int, Tensor]] = {}
    for n in active:
        read = [v.handle for v in n.inputs if type(v) is Value and v.kind == ValueKind.PARAM] + list(n.prim.parameters)
        for p in read:
            if last_write.get(id(p), -1) >= position[n]:  # a control-flow node may write what it reads
                out.setdefault(n, {})[id(p)] = _copy_before(tracer, n, p)
    return out


def _copy_before(tracer: Tracer, n: Node, p: Any) -> Tensor:
    """A copy of Parameter ``p`` recorded just before node ``n`` (with its phase, scope and line)."""
    copy = array_ops.Identity()(p)
    node = tracer.graph.nodes.pop()
    node.phase, node.scope, node.source, node.grad_of = n.phase, n.scope, n.source, n.grad_of
    tracer.graph.nodes.insert(tracer.graph.nodes.index(n), node)
    return copy


def _call_rule(n: Node, dout: Any, relevant: set[Value], copies: dict[int, Tensor] | None = None
               ) -> Sequence[Tensor | None]:
    """Node ``n``'s bprop rule on its recorded tensors: one gradient per input (None where none flows), then one
    per Parameter its subgraphs read (control flow only). ``copies``: Parameters to read as these copies."""
    ins = [v.handle if type(v) is Value else v for v in n.inputs]
    if copies:
        ins = [copies.get(id(x), x) for x in ins]
    with reading_parameters_as(copies) if copies else _NO_COPIES:
        if _takes_needs(type(n.prim)):  # type: ignore[arg-type]  # (mypy takes type[Any] for unhashable)
            needs = tuple(type(v) is Value and v in relevant for v in n.inputs)
            if n.prim.parameters:
                weights = _weights_in(relevant)
                needs += tuple(id(p) in weights for p in n.prim.parameters)
            grads = n.prim.bprop(*ins, n.out.handle, dout, needs=needs)
        else:
            grads = n.prim.bprop(*ins, n.out.handle, dout)
    if len(grads) != len(ins) + len(n.prim.parameters):
        raise RuntimeError(f"bprop of {n.prim.name} returned {len(grads)} gradients for {len(ins)} inputs")
    return grads


@functools.cache
def _takes_needs(cls: type[Primitive]) -> bool:
    """Whether ``cls``'s bprop rule declares ``needs`` (a rule that saves real work by skipping a gradient)."""
    return "needs" in inspect.signature(cls.bprop).parameters


def _accumulate(grads: dict[Value, Any], v: Value, g: Tensor) -> None:
    """Add gradient ``g`` into ``v``'s: summed back to ``v``'s shape if ``v`` was broadcast, then added to
    what ``v``'s other users gave (an Add node per extra user)."""
    if v.parts is None and tuple(g.shape) != v.shape:
        g = sum_to(g, v.shape)
    old = grads.get(v)
    grads[v] = g if old is None else math_ops.add(old, g)


def _accumulate_element(grads: dict[Value, Any], tup: Value, index: int, g: Tensor) -> None:
    """Add ``g`` into position ``index`` of the gradient of tuple value ``tup`` (a list, None where none yet)."""
    parts = grads.setdefault(tup, [None] * len(tup.parts))  # type: ignore[arg-type]  # a tuple value has parts
    parts[index] = g if parts[index] is None else math_ops.add(parts[index], g)


def _shaped_like(root: Value, s: Tensor) -> Tensor:
    """The sens ``s`` given for ``root`` in ``root``'s shape (MindSpore accepts a (1,) sens for a scalar loss)."""
    if tuple(s.shape) == root.shape:
        return s
    if int(np.prod(s.shape)) != int(np.prod(root.shape)):
        raise ValueError(f"sens has shape {tuple(s.shape)} but the output it weights has shape {root.shape}")
    return shape_ops.reshape(s, root.shape)
