"""PYNATIVE mode's tape: the primitives that ran, recorded as a forward graph with real values.

Like PyTorch's ``grad_fn`` chain, the tape remembers each executed primitive with its inputs and
output so that autodiff can walk it backwards. ``GradOperation`` opens a tape for the duration of the
forward call; ``mslab.record()`` opens one a learner can look at.
"""
from __future__ import annotations

import contextlib
from typing import Any, Iterator, Sequence

import numpy as np

from mslab.core import state
from mslab.core.tensor import Parameter, Tensor
from mslab.ir.graph import Graph
from mslab.ir.node import Node, Value
from mslab.ir.tracer import Recorder


class Tape(Recorder):
    """A recorded forward graph of eagerly executed primitives (values are the real tensors).

    Each primitive that runs appends one node (``record``), with its scope path and source line, as the tracer
    does in GRAPH mode; ``value_of`` gives the value standing for a tensor (made on first sight: a Parameter as
    a parameter, any other tensor no node made as an input).
    """

    def __init__(self, name: str = "tape", shows_calls: bool = False) -> None:
        super().__init__(Graph(name))
        self._values: dict[int, Value] = {}  # id(tensor) -> Value; the handles keep those tensors (and ids) alive
        # A tape a learner opened (mslab.record) names its inputs after the outermost Cell call's
        # construct parameters and returns that call's outputs; autodiff's own tapes skip the work.
        self.shows_calls = shows_calls

    def value_of(self, t: Tensor) -> Value:
        v = self._values.get(id(t))
        if v is None:
            if isinstance(t, Parameter):
                v = self.graph.param_value(t)
            else:
                v = self.graph.add_input(f"in{len(self.graph.inputs)}", t.shape, t._np_dtype, handle=t)
            self._values[id(t)] = v
        return v

    def record(self, prim: Any, args: Sequence[Any], out: Tensor) -> None:
        """Append the node of one primitive call: ``out = prim(*args)``, which has just run.

        ``prim`` is a Primitive (mslab.ops, a layer above: not imported here, even for its type)."""
        ins = [self.value_of(a) if isinstance(a, Tensor) else a for a in args]
        data: np.ndarray = out._data  # type: ignore[assignment]  # concrete: the primitive has just run
        self._values[id(out)] = self.graph.add_node(self._new_node(prim, ins), data.shape, data.dtype, out)

    def recorded_nodes(self) -> list[Node]:
        """The nodes recorded so far, in the order their primitives ran (what autodiff walks backwards)."""
        return self.graph.nodes

    def holds(self, t: Tensor) -> bool:
        """Whether ``t`` is on this tape (an op's argument or output so far): writing into it in place would make
        the recorded values, and the gradient, other than what ran."""
        return id(t) in self._values

    def release(self) -> None:
        """Forget the recorded tensors once autodiff has walked the tape.

        Nodes and values point at each other (``node.out.node is node``, ``value.owner is graph``): left as they
        are, a step's activations wait for Python's cycle collector, and eager training holds several steps'
        worth at once. Cutting the links lets reference counting free them as soon as the step ends.
        """
        g = self.graph
        for v in [n.out for n in g.nodes] + g.inputs + g.params + g.consts:
            v.node = v.handle = v.owner = None
        for n in g.nodes:
            n.inputs, n.grad_of = [], None
        g.nodes.clear()
        self._values.clear()

    def name_inputs(self, tensors: Sequence[Any], names: Sequence[str]) -> None:
        """Record not-yet-seen input tensors under these names (``%data``, ``%label``), not ``%in0``."""
        taken = {v.name for v in self.graph.inputs}
        for t, name in zip(tensors, names):
            if isinstance(t, Tensor) and not isinstance(t, Parameter) and id(t) not in self._values \
                    and name not in taken:
                self._values[id(t)] = self.graph.add_input(name, t.shape, t._np_dtype, handle=t)
                taken.add(name)

    def mark_outputs(self, tensors: Sequence[Tensor]) -> None:
        self.graph.outputs = [self.value_of(t) for t in tensors]


class RunRecorder(Tape):
    """A tape that turns one eager run into a graph (``jit(capture_mode="trace")``).

    The call's own tensors are the graph's inputs, Parameters its parameters, and any other tensor the
    run meets is a constant: Python control flow is baked in as it ran, as in MindSpore's trace mode.
    """

    def add_call_input(self, t: Tensor, name: str) -> None:
        self._values[id(t)] = self.graph.add_input(name, t.shape, t._np_dtype, handle=t)

    def value_of(self, t: Tensor) -> Value:
        v = self._values.get(id(t))
        if v is None:
            v = self.graph.param_value(t) if isinstance(t, Parameter) else self.graph.const_value(t)
            self._values[id(t)] = v
        return v


@contextlib.contextmanager
def record(name: str = "tape") -> Iterator[Tape]:
    """Record the primitives that run eagerly inside the block: ``with mslab.record() as tape: net(x)``.

    ``tape.graph`` is the recorded forward graph (print it, or draw it with mslab.lab.viz); its inputs
    are named after the outermost Cell's ``construct`` parameters and it returns that call's outputs.
    """
    tape = Tape(name, shows_calls=True)
    state.tapes.append(tape)
    try:
        yield tape
    finally:
        state.tapes.remove(tape)
