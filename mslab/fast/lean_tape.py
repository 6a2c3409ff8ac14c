"""The lean tape: autodiff's own PYNATIVE tape, which keeps each call as it ran and builds nodes only when needed.

The plain tape (``ir.tape.Tape``) makes a node for every primitive as it runs, with the scope path and source line
a learner reads when printing a tape. Autodiff's own tape is walked once and dropped, never shown, so this one
keeps just ``(primitive, arguments, output)`` per call; a backward replayed from a compiled plan
(``backward_replay``) reads those calls alone, and the nodes (no scope, no source, no back-links) are built only
for a backward that walks them rule by rule. The weights' values are kept between calls of one gradient function:
a training step reads the same Parameters every step. Installed as ``mslab.core.hooks.autodiff_tape``.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from mslab.core.tensor import Parameter, Tensor
from mslab.ir.node import Node, Phase, Value, ValueKind
from mslab.ir.tape import Tape

_new = object.__new__
_NODE = ValueKind.NODE  # a module global: _step_node reads it for every op under a gradient


class LeanTape(Tape):
    """Autodiff's tape: ``calls`` as they ran, nodes on demand (``recorded_nodes``); ``param_values`` (id(Parameter)
    -> Value) is shared by the tapes of one gradient function and checked on reuse."""

    def __init__(self, param_values: dict[int, Value]) -> None:
        super().__init__()
        self._param_values = param_values
        # (primitive, arguments, output) of each op, in the order they ran
        self.calls: list[tuple[Any, Sequence[Any], Tensor]] = []
        self._made = 0  # how many of those calls are nodes already

    @classmethod
    def for_gradient(cls, kept: dict[str, Any]) -> LeanTape:
        """The hook ``autodiff_tape``: a tape for one call of a gradient function, whose ``kept`` dict holds the
        weights' values from its earlier calls."""
        return cls(kept.setdefault("param_values", {}))

    def value_of(self, t: Tensor) -> Value:
        v = self._values.get(id(t))
        if v is None:
            if isinstance(t, Parameter):  # no back-link to the graph and no graph.params entry: nobody reads them
                data = t._data
                v = self._param_values.get(id(t))
                if v is None or v.handle is not t or v.shape != data.shape or v.dtype != data.dtype \
                        or v.name is not t._name:
                    v = self._param_values[id(t)] = Value(ValueKind.PARAM, t._name, data.shape, data.dtype, None, t)
            else:
                v = self.graph.add_input(f"in{len(self.graph.inputs)}", t.shape, t._np_dtype, handle=t)
            self._values[id(t)] = v
        return v

    def record(self, prim: Any, args: Sequence[Any], out: Tensor) -> None:
        self.calls.append((prim, args, out))

    def holds(self, t: Tensor) -> bool:
        """``Tape.holds`` for recorded calls (their arguments and outputs, before any node is made)."""
        return id(t) in self._values or any(out is t or any(a is t for a in args) for _, args, out in self.calls)

    def _inputs(self, args: Sequence[Any]) -> list[Any]:
        """A call's arguments as node inputs: each Tensor's value (made on first sight), constants as they are."""
        values = self._values
        ins = []
        for a in args:  # written out: every op of a rule-by-rule backward's tape comes here
            if isinstance(a, Tensor):
                v = values.get(id(a))
                ins.append(v if v is not None else self.value_of(a))
            else:
                ins.append(a)
        return ins

    def recorded_nodes(self) -> list[Node]:
        """The graph's nodes, with the recorded calls turned into nodes first (in the order they ran)."""
        calls, made = self.calls, self._made
        if made < len(calls):
            values = self._values
            nodes = self.graph.nodes
            for prim, args, out in calls[made:]:
                data: np.ndarray = out._data  # type: ignore[assignment]  # concrete: the op has run
                node = _step_node(prim, self._inputs(args), self.phase, len(nodes), data.shape, data.dtype, out)
                values[id(out)] = node.out
                nodes.append(node)
            self._made = len(calls)
        return self.graph.nodes

    def release(self) -> None:
        """Forget the recorded tensors. Node and weight values hold no cycle here (no back-links), and the weight
        values are kept for the next call; only inputs and constants are cut loose."""
        g = self.graph
        for v in g.inputs + g.consts:
            v.node = v.handle = v.owner = None
        g.nodes.clear()
        self._values.clear()
        self.calls, self._made = [], 0


def _step_node(prim: Any, inputs: list[Any], phase: Phase, index: int, out_shape: tuple[int, ...], out_dtype: np.dtype,
               handle: Tensor) -> Node:
    """A node with its output value: no scope, no source line, no back-links (the recorded step holds no reference
    cycle and is freed as soon as the gradient call lets go of it); built slot by slot because every op under a
    rule-by-rule gradient makes one."""
    n = _new(Node)
    n.prim, n.inputs, n.scope, n.source, n.phase, n.grad_of, n.index = prim, inputs, "", "", phase, None, index
    v = n.out = _new(Value)
    v.kind, v.name, v.shape, v.dtype, v.node, v.handle, v.array, v.owner, v.parts, v.host = (
        _NODE, f"%{index}", out_shape, out_dtype, None, handle, None, None, None, False)
    return n
