"""The GRAPH-mode tracer: runs Python code on symbolic tensors and records each primitive as a node.

``construct`` runs once per input signature; every primitive call appends a Node (with its Cell
scope, source line and phase) instead of computing. Python control flow on shapes, attributes and
constants simply unrolls; branching on a tensor's value raises ``GraphModeError`` (see Tensor).
"""
import contextlib

from mslab.core import state
from mslab.core.tensor import Parameter, Tensor
from mslab.ir.node import FORWARD, Node
from mslab.ir.provenance import scope_path, source_line


class Recorder:
    """What the tracer and the PYNATIVE tape share: a graph, a phase, and the node being differentiated."""

    def __init__(self, graph):
        self.graph = graph
        self.phase = FORWARD
        self.grad_of = None

    @contextlib.contextmanager
    def in_phase(self, phase=None, grad_of=None):
        """Label the nodes recorded inside: ``with rec.in_phase("backward", grad_of=node): ...``."""
        saved = self.phase, self.grad_of
        if phase is not None:
            self.phase = phase
        if grad_of is not None:
            self.grad_of = grad_of
        try:
            yield self
        finally:
            self.phase, self.grad_of = saved

    def _new_node(self, prim, ins):
        g = self.grad_of
        if g is not None:  # a backward node belongs where its forward node came from
            return Node(prim, ins, g.scope, g.source, self.phase, g)
        return Node(prim, ins, scope_path(), source_line(), self.phase)


class Tracer(Recorder):
    """Builds a Graph from the primitives called while it is active."""

    def value_of(self, t):
        v = t._sym
        if v is not None:
            return v
        if isinstance(t, Parameter):
            return self.graph.param_value(t)
        return self.graph.const_value(t)

    def record(self, prim, args):
        ins = [self.value_of(a) if isinstance(a, Tensor) else a for a in args]
        try:
            shape, dtype = prim.infer(*ins)
        except Exception as e:
            raise prim.error(args, e) from None
        node = self._new_node(prim, ins)
        t = Tensor._symbolic(None)
        t._sym = self.graph.add_node(node, shape, dtype, handle=t)
        return t


@contextlib.contextmanager
def tracing(graph):
    """Make primitives record into ``graph`` for the duration of the block."""
    saved = state.tracer
    tr = Tracer(graph)
    state.tracer = tr
    try:
        yield tr
    finally:
        state.tracer = saved
