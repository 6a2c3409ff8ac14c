"""Graph, Node and Value: the recorded form of a computation.

A ``Graph`` has input values, parameter values, constant values, nodes in the order they ran
(which is a topological order, and the order side effects happen in) and output values.
A ``Node`` is one primitive applied to values; it knows its Cell scope, the source line that
created it and its phase (forward, backward, optimizer). The GRAPH-mode tracer builds graphs from
``construct``; the PYNATIVE tape builds the same structure while running eagerly.
"""
from __future__ import annotations

from typing import Any

from mslab.ir.node import BACKWARD, FORWARD, OPTIMIZER, OTHER, Node, Phase, Value, ValueKind
from mslab.ir.printer import graph_text

_NODE = ValueKind.NODE  # a module global: add_node runs for every node recorded

__all__ = ["Graph", "Node", "Value", "Phase", "ValueKind", "FORWARD", "BACKWARD", "OPTIMIZER", "OTHER"]


class Graph:
    """A recorded computation: inputs, parameters, constants, nodes (in run order) and outputs.

    ``print(graph)`` shows the IR text, one line per node (see ``mslab.ir.printer``).
    """

    # Set on a traced graph only (runtime.compiled.trace): the Cells whose construct it ran, which its compiled
    # form depends on (mslab.nn is a layer above, so Any).
    cells: list[Any]

    def __init__(self, name: str = "graph") -> None:
        self.name = name
        self.inputs: list[Value] = []
        self.params: list[Value] = []
        self.consts: list[Value] = []
        self.nodes: list[Node] = []
        self.outputs: list[Value] = []
        self.output_tree: Any = None  # how to rebuild construct's return structure from the outputs
        self._param_values: dict[int, Value] = {}  # id(Parameter) -> its value
        self._const_values: dict[Any, Value] = {}  # the contents of a small constant, or id(Tensor)
        self._const_keepalive: list[Any] = []

    # ---- building ---------------------------------------------------------------------------
    def add_input(self, name: str, shape: Any, dtype: Any, handle: Any = None) -> Value:
        v = Value(ValueKind.INPUT, name, shape, dtype, handle=handle, owner=self)
        self.inputs.append(v)
        return v

    def param_value(self, param: Any) -> Value:
        """The value standing for a Parameter (one per Parameter, read when the graph runs)."""
        v = self._param_values.get(id(param))
        if v is None:
            v = Value(ValueKind.PARAM, param.name, param.shape, param._data.dtype, handle=param, owner=self)
            self._param_values[id(param)] = v
            self.params.append(v)
        return v

    def const_value(self, tensor: Any) -> Value:
        """The value standing for a constant Tensor captured by the graph."""
        arr = tensor._data
        # Small constants (lifted Python numbers) are shared by value, so repeated code merges under CSE.
        key = (arr.dtype.str, arr.shape, arr.tobytes()) if arr.size <= 16 else id(tensor)
        v = self._const_values.get(key)
        if v is None:
            v = Value(ValueKind.CONST, f"const{len(self.consts)}", arr.shape, arr.dtype, handle=tensor, array=arr,
                      owner=self)
            self._const_values[key] = v
            self._const_keepalive.append(tensor)  # ids of large constants must stay unique while tracing
            self.consts.append(v)
        return v

    def add_node(self, node: Node, shape: Any, dtype: Any, handle: Any = None) -> Value:
        # positional arguments: every eager op under a gradient makes one of these
        nodes = self.nodes
        node.index = i = len(nodes)
        node.out = out = Value(_NODE, f"%{i}", shape, dtype, node, handle, None, self)
        nodes.append(node)
        return out

    def renumber(self) -> None:
        """Give nodes consecutive names %0, %1, ... after passes removed some (names stay stable)."""
        for i, n in enumerate(self.nodes):
            n.index = i
            n.out.name = f"%{i}"

    # ---- reading ----------------------------------------------------------------------------
    def nodes_in_phase(self, phase: Phase | str) -> list[Node]:
        return [n for n in self.nodes if n.phase == phase]

    @property
    def forward_nodes(self) -> list[Node]:
        return self.nodes_in_phase(FORWARD)

    @property
    def backward_nodes(self) -> list[Node]:
        return self.nodes_in_phase(BACKWARD)

    @property
    def optimizer_nodes(self) -> list[Node]:
        return self.nodes_in_phase(OPTIMIZER)

    def users(self) -> dict[Value, list[Node]]:
        """Map each value to the nodes that read it."""
        out: dict[Value, list[Node]] = {}
        for n in self.nodes:
            for v in n.inputs:
                if isinstance(v, Value):
                    out.setdefault(v, []).append(n)
        return out

    def text(self, phase: Phase | str | None = None) -> str:
        """The IR text; ``phase=BACKWARD`` (or ``'backward'``) keeps only that phase's nodes."""
        return graph_text(self, phase)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        counts: dict[Phase, int] = {}
        for n in self.nodes:
            counts[n.phase] = counts.get(n.phase, 0) + 1
        parts = ", ".join(f"{k} {v}" for k, v in counts.items())
        return (f"<Graph {self.name}: {len(self.inputs)} inputs, {len(self.params)} parameters, "
                f"{len(self.nodes)} nodes ({parts})>")
