"""The view model: the boxes, arrows and frames of a picture, as plain data (no graph, no drawing).

``mslab.lab.viz.walk`` makes a ``View`` from a graph and ``mslab.lab.viz.dot`` draws one; the widgets read
its nodes to inspect, highlight and fold them. Every key in it is made by ``mslab.lab.viz.keys``.
"""
from dataclasses import dataclass, field

# the kinds of view node that are no op (an op's kind is its phase: forward, backward, optimizer, other)
INPUT, PARAM, CONST, OUTPUT, HIDDEN = "input", "parameter", "constant", "output", "hidden"
HOST = "host"  # an op run on the host by JIT Fallback (PyExecute, and ops on its results)


@dataclass
class ViewNode:
    """One box of the picture: an op, a collapsed Cell call, a graph input, parameter, constant,
    output, or a stub for a value whose node is hidden by the phase filter."""

    key: str
    kind: str  # a phase (forward/backward/optimizer/other), host, or input/parameter/constant/output/hidden
    title: str
    lines: list = field(default_factory=list)
    tooltip: str = ""
    cluster: str = None
    ops: int = 1
    collapsed: bool = False
    members: tuple = ()  # IR names of the nodes it stands for
    communication: bool = False  # a collective (AllReduce, ...): drawn as an octagon with a thick border


@dataclass
class ViewEdge:
    """An arrow: ``kind`` is "data" (label = the value's type), "grad_of" (backward -> forward),
    "assign" (an optimizer update writing a parameter), "control" (Depend: run this first), "branch"
    (a control-flow node choosing a subgraph: it ends at the frame ``lhead``) or "loop" (a loop body's
    result carried into its next iteration)."""

    src: str
    dst: str
    label: str = ""
    kind: str = "data"
    lhead: str = None  # the frame key the arrow stops at (Graphviz's lhead), for arrows into a subgraph


@dataclass
class ViewCluster:
    """A frame around the nodes of one Cell call (or the backward / one optimizer update)."""

    key: str
    label: str
    parent: str = None
    kind: str = "scope"  # scope | backward | optimizer | control (a control-flow node) | branch (a subgraph)
    tooltip: str = ""


@dataclass
class View:
    """A whole picture: its nodes, arrows and frames, the phases it shows and the collapse rule it used."""

    name: str
    nodes: list
    edges: list
    clusters: list
    phases: tuple
    collapse: object = None
    lanes: list = field(default_factory=list)  # layout hint: keys topping the forward/backward/optimizer columns

    def node(self, key):
        for n in self.nodes:
            if n.key == key:
                return n
        raise KeyError(key)

    def kinds(self):
        """How many view nodes of each kind: ``{"forward": 9, "parameter": 8, ...}``."""
        out = {}
        for n in self.nodes:
            out[n.kind] = out.get(n.kind, 0) + 1
        return out
