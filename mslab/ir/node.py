"""Value and Node: a tensor of a recorded computation, and one primitive applied to values.

Every node carries its *phase*: the part of a training step that recorded it (forward, backward for
nodes generated from bprop rules, optimizer for an optimizer Cell's updates, other). The phase is the
one label the engine records; the lab's step-through reads its *stages* off phases and data flow.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mslab.core import dtype as mstype
from mslab.core.text_enum import TextEnum

Shape = tuple[int, ...]
Part = tuple[Shape, np.dtype]  # one element of a tuple value: its shape and numpy dtype


class Phase(TextEnum):
    """The part of a training step that recorded a node (``node.phase``); a member is also its string."""

    FORWARD = "forward"  # the network and its loss, as ``construct`` runs
    BACKWARD = "backward"  # generated from the forward nodes' bprop rules by autodiff
    OPTIMIZER = "optimizer"  # an optimizer Cell's parameter updates
    OTHER = "other"  # anything else recorded


class ValueKind(TextEnum):
    """What a Value stands for (``value.kind``); a member is also its string."""

    INPUT = "input"  # a graph input (an argument of construct, or a value a subgraph captures)
    PARAM = "param"  # a Parameter, read when the graph runs
    CONST = "const"  # a constant captured while recording (``value.array`` holds it)
    NODE = "node"  # the output of a node


# The members under short names: the modules comparing phases import these.
FORWARD, BACKWARD, OPTIMIZER, OTHER = Phase.FORWARD, Phase.BACKWARD, Phase.OPTIMIZER, Phase.OTHER

class Value:
    """One tensor in a graph: a graph input, a Parameter, a constant, or a node's output.

    ``handle`` is the Tensor that stands for it while recording (symbolic while tracing, concrete on
    the tape, the Parameter itself for parameters); autodiff calls bprop rules with handles.
    ``owner`` is the Graph it belongs to: a branch of an ``if`` on a tensor is a graph of its own, and
    a value it reads from the enclosing graph becomes one of its inputs. A control-flow node's output
    is a tuple (dtype object, ``parts`` giving each element's shape and dtype), read by TupleGetItem.
    ``host`` marks a value computed on the host by JIT Fallback (MindSpore's PyExecute): gradients stop
    there, and ops that read it run on the host too.
    """

    __slots__ = ("kind", "name", "shape", "dtype", "node", "handle", "array", "owner", "parts", "host",
                 "__weakref__")

    def __init__(self, kind: ValueKind, name: str, shape: Any, dtype: np.dtype, node: Node | None = None,
                 handle: Any = None, array: np.ndarray | None = None, owner: Any = None) -> None:
        self.kind = kind
        self.name = name
        self.shape: Shape = tuple(shape)
        self.dtype = dtype  # numpy dtype (object for a tuple)
        self.node = node  # the node computing it (kind "node")
        self.handle = handle  # a Tensor (mslab.core.tensor)
        self.array = array  # constants only
        self.owner = owner  # a Graph (mslab.ir.graph, which imports this module)
        self.parts: list[Part] | None = None  # [(shape, dtype)] of a tuple value
        self.host = False

    @property
    def type_str(self) -> str:
        """``f32[16, 1]``-style type, the short form the IR text uses (``(f32[3], i64[])`` for a tuple)."""
        if self.parts is not None:
            return "(" + ", ".join(type_text(s, d) for s, d in self.parts) + ")"
        return type_text(self.shape, self.dtype)

    def __repr__(self) -> str:
        return f"<Value {self.name} {self.type_str}>"


_SHORT = {"Float": "f", "Int": "i", "UInt": "u", "Bool": "bool"}


def type_text(shape: Shape, dtype: np.dtype) -> str:
    """``f32[16, 1]`` for a shape and a numpy dtype; ``list`` for host-side lists (a loop's saved values)."""
    if dtype.kind == "O":
        return "list"
    t = mstype.from_numpy(dtype).name
    for k, v in _SHORT.items():
        if t.startswith(k):
            t = v + t[len(k):]
            break
    return f"{t}[{', '.join(str(s) for s in shape)}]"


class Node:
    """One primitive applied to values, with what a learner needs to find it again.

    ``inputs`` holds Values (tensor inputs) and plain Python constants (attributes given at call time,
    such as a reduction axis) in call order.
    """

    __slots__ = ("prim", "inputs", "out", "scope", "source", "phase", "grad_of", "index")

    def __init__(self, prim: Any, inputs: Any, scope: str = "", source: str = "", phase: Phase = FORWARD,
                 grad_of: Node | None = None) -> None:
        self.prim = prim  # a Primitive (mslab.ops.primitive)
        self.inputs: list[Any] = list(inputs)  # Values and constants, in call order
        self.out: Value = None  # type: ignore[assignment]  # set by Graph.add_node, right after
        self.scope = scope
        self.source = source
        self.phase = phase
        self.grad_of = grad_of  # the forward node a backward node was generated from
        self.index = -1

    @property
    def name(self) -> str:
        return self.out.name

    @property
    def op(self) -> str:
        return self.prim.name

    @property
    def written_parameter(self) -> Value | None:
        """The Parameter value this node writes in place (Assign, ApplyMomentum, SGD, ScatterNdUpdate: a side effect
        whose first input is a Parameter), or None."""
        first = self.inputs[0] if self.inputs else None
        if self.prim.side_effect and type(first) is Value and first.kind == ValueKind.PARAM:
            return first
        return None

    def tensor_inputs(self) -> list[Value]:
        return [v for v in self.inputs if isinstance(v, Value)]

    def __repr__(self) -> str:
        return f"<Node {self.out.name} = {self.prim.name}>"
