"""The GRAPH-mode tracer: runs (converted) Python code on symbolic tensors and records each primitive as a node.

``construct`` runs once per input signature, after the front end (``mslab.ir.frontend``) has rewritten
its control flow; every primitive call appends a Node (with its Cell scope, source line and phase)
instead of computing. Python control flow on shapes, attributes and constants simply unrolls. An
``if``/``while`` on a tensor records its branches with a *sub-tracer* into subgraphs: a value a branch
reads from an enclosing graph becomes one of the subgraph's inputs (it is *captured*).
"""
from __future__ import annotations

import contextlib
import sys
from typing import Any, Iterator

from mslab.core import state
from mslab.core.context import call_depth_limit
from mslab.core.errors import GraphModeError
from mslab.core.tensor import Parameter, Tensor
from mslab.ir.graph import Graph
from mslab.ir.node import BACKWARD, FORWARD, Node, Phase, Value, ValueKind
from mslab.ir.provenance import scope_path, source_line

_NOTHING_TO_LABEL = contextlib.nullcontext()


class Recorder:
    """What the tracer and the PYNATIVE tape share: a graph, a phase, and the node being differentiated."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.phase: Phase = FORWARD
        self.grad_of: Node | None = None

    @contextlib.contextmanager
    def in_phase(self, phase: Phase | None = None, grad_of: Node | None = None) -> Iterator[Recorder]:
        """Label the nodes recorded inside: ``with rec.in_phase(BACKWARD, grad_of=node): ...``."""
        saved = self.phase, self.grad_of
        if phase is not None:
            self.phase = phase
        if grad_of is not None:
            self.grad_of = grad_of
        try:
            yield self
        finally:
            self.phase, self.grad_of = saved

    def backward_of(self, node: Node | None) -> contextlib.AbstractContextManager:
        """Label the nodes a bprop rule records as the gradient of ``node`` (None: of no one node), for viewers.

        ``with rec.backward_of(n): ...`` puts this recorder in phase BACKWARD with ``grad_of=n`` if it is
        recording (GRAPH mode's tracer, or a tape a learner records on), and any other tape recording around
        the gradient call (``with mslab.record():`` over a PYNATIVE step) in phase BACKWARD. With nobody
        recording (autodiff's own tape has stopped by the time it walks back) it does nothing.
        """
        tapes = state.tapes
        mine = self is state.tracer or self in tapes
        if not mine and not tapes:
            return _NOTHING_TO_LABEL
        return _BackwardLabels([t for t in tapes if t is not self] + ([self] if mine else []), self if mine else None,
                               node)

    def _new_node(self, prim: Any, ins: list[Any]) -> Node:
        g = self.grad_of
        if g is not None:  # a backward node belongs where its forward node came from
            return Node(prim, ins, g.scope, g.source, self.phase, g)
        return Node(prim, ins, scope_path(), source_line(), self.phase)


class Tracer(Recorder):
    """Builds a Graph from the primitives called while it is active.

    ``parent``: the tracer of the enclosing graph when this one records a branch or a loop body.
    ``syntax_level``: what JIT Fallback may do here (``LAX`` or ``STRICT``, see ``mslab.core.context``).
    """

    def __init__(self, graph: Graph, parent: Tracer | None = None, syntax_level: int | None = None) -> None:
        super().__init__(graph)
        self.parent = parent
        # a value of an enclosing graph -> (its value in the parent, this graph's input)
        self.captured: dict[Value, tuple[Value, Value]] = {}
        self.cells_seen: list[Any] = parent.cells_seen if parent is not None else []  # Cells whose construct ran
        if parent is not None:
            self.phase, self.grad_of = parent.phase, parent.grad_of
            syntax_level = parent.syntax_level if syntax_level is None else syntax_level
        self.syntax_level: int | None = syntax_level

    def value_of(self, t: Tensor) -> Value:
        v = t._sym
        if v is not None:
            return v if v.owner is self.graph else self.local(v)
        if isinstance(t, Parameter):
            return self.graph.param_value(t)
        return self.graph.const_value(t)

    def note_cell(self, cell: Any) -> None:
        """Remember that the graph ran through ``cell`` (a compiled graph depends on it)."""
        if all(c is not cell for c in self.cells_seen):
            self.cells_seen.append(cell)

    def local(self, v: Value) -> Value:
        """The value standing for ``v`` in this graph: ``v`` itself, or an input capturing it from outside."""
        if v.owner is self.graph or v.kind in (ValueKind.PARAM, ValueKind.CONST):
            return v if v.owner is self.graph else self.value_of(v.handle)
        entry = self.captured.get(v)
        if entry is None:
            if self.parent is None:
                raise GraphModeError(f"a symbolic tensor ({v.name}) from another graph was used here: a tensor made "
                                     f"while tracing one function cannot be kept and used in another; return it")
            outer = self.parent.local(v)
            name = v.name[1:] if v.name.startswith("%") else v.name
            inner = self.graph.add_input(f"v{name}" if name.isdigit() else name, v.shape, v.dtype)
            inner.parts, inner.host = v.parts, v.host
            inner.handle = Tensor._symbolic(inner)
            entry = self.captured[v] = (outer, inner)
        return entry[1]

    def record(self, prim: Any, args: Any) -> Tensor:
        ins = [self.value_of(a) if isinstance(a, Tensor) else a for a in args]
        try:
            shape, dtype = prim.infer(*ins)
        except Exception as e:
            raise prim.error(args, e) from None
        node = self._new_node(prim, ins)
        t = Tensor._symbolic(None)
        out = t._sym = self.graph.add_node(node, shape, dtype, handle=t)
        out.parts = prim.parts
        # A value computed on the host (JIT Fallback) keeps every op that reads it on the host.
        out.host = prim.runs_on_host or any(type(v) is Value and v.host for v in ins)
        return t


class _BackwardLabels:
    """The context ``Recorder.backward_of`` gives while someone records: each of ``recorders`` in phase BACKWARD
    inside the block, ``own`` (the recorder the rule's nodes go to, or None) also with ``grad_of=node``; every
    label back as it was after. (A class, not a generator: a traced backward enters one per node.)"""

    __slots__ = ("recorders", "own", "node", "saved")

    def __init__(self, recorders: list[Recorder], own: Recorder | None, node: Node | None) -> None:
        self.recorders, self.own, self.node = recorders, own, node

    def __enter__(self) -> None:
        self.saved = [(r.phase, r.grad_of) for r in self.recorders]
        for r in self.recorders:
            r.phase = BACKWARD
        if self.own is not None and self.node is not None:
            self.own.grad_of = self.node

    def __exit__(self, *exc: Any) -> None:
        for r, (phase, grad_of) in zip(self.recorders, self.saved):
            r.phase, r.grad_of = phase, grad_of


_FRAMES_PER_CALL = 8  # Python frames one inlined call of a user's function costs while a graph is traced


@contextlib.contextmanager
def tracing(graph: Graph, syntax_level: int | None = None) -> Iterator[Tracer]:
    """Make primitives record into ``graph`` for the duration of the block.

    Tracing inlines every function ``construct`` calls, so a recursion unrolled on Python values (``f(x, n - 1)``)
    nests as deep as MindSpore compiles it: up to ``call_depth_limit()`` calls (1000), past which
    ``mslab.autodiff.recursion`` raises MindSpore's error. Python's recursion limit is raised to make room meanwhile.
    """
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit + _FRAMES_PER_CALL * call_depth_limit())
    try:
        with recording_with(Tracer(graph, syntax_level=syntax_level)) as tr:
            yield tr
    finally:
        sys.setrecursionlimit(limit)


@contextlib.contextmanager
def recording_with(tracer: Tracer) -> Iterator[Tracer]:
    """Make ``tracer`` the active one for the block (a sub-tracer records a branch inside its parent's trace)."""
    saved = state.tracer
    state.tracer = tracer
    try:
        yield tracer
    finally:
        state.tracer = saved
