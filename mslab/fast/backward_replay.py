"""PYNATIVE backward replay: a repeated step's bprop rules traced once into a graph, then run as one.

A PYNATIVE training step runs the same primitives on the same shapes step after step, so the backward that
autodiff derives from its tape is the same computation every time: the same bprop rules called on the same
kinds of values. When a gradient function sees a forward of one *structure* for the second time (the same
primitives, the same data flow between them, the same shapes, dtypes and constant arguments), it traces the
bprop rules over that tape once, as GRAPH mode traces them, and compiles the backward graph with GRAPH mode's
executor. From then on each step with that structure runs the compiled graph on its own recorded values,
instead of dispatching the rules' primitives one at a time.

What changes is the cost, never the numbers or what a learner sees:

* the graph is the bprop rules themselves, traced; the executor's kernels compute exactly what the primitives'
  ``compute`` does, in the order the rules ran (GRAPH and PYNATIVE results are equal, tested on every op);
* only autodiff's own tape (the lean tape, ``lean_tape``) replays. Under ``mslab.record()``, inside another
  gradient (a gradient of a gradient records the first backward's primitives), or while GRAPH mode traces, the
  rules run one by one;
* an op whose backward calls back into Python every step (``ops.HookBackward``, a Cell's own ``bprop``,
  ``ops.Custom``, a Primitive defined outside mslab) keeps its step on the rule-by-rule path
  (``Primitive.bprop_replayable``).

This is mslab's own shortcut: it does not claim MindSpore's PYNATIVE mode works this way.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Sequence

import numpy as np

from mslab.autodiff.backprop import backprop
from mslab.autodiff.grad_operation import backprop_tape
from mslab.core.freeze import freeze
from mslab.core.tensor import Parameter, Tensor
from mslab.fast.lean_tape import LeanTape
from mslab.ir.graph import Graph, Value, ValueKind
from mslab.ir.node import Node
from mslab.ir.passes import optimize
from mslab.ir.tape import Tape
from mslab.ir.tracer import tracing
from mslab.runtime.executor import Executor

_CONST = object()  # marks a constant argument in a structure key (so it never equals a value reference)
_LARGEST_CONSTANT_ARRAY = 64  # a bigger array as a constant argument is not copied into every step's key: no replay
_UNREPLAYABLE: Any = object()  # a structure whose rules could not be traced: it stays on the rule-by-rule path

PLANS_KEPT = 8  # compiled backwards per gradient function (one per batch size, per branch a step takes, ...)
# Calls in a row whose structure was new (a construct that makes new primitives on every call never repeats):
# after this many the gradient function stops computing keys and stays on the rule-by-rule path for good.
MISSES_BEFORE_GIVING_UP = 32
# Compiles that are not paid back: more than ``PLANS_KEPT`` compiles with fewer than this many replays per compile
# (more structures in turn than the plans kept, each evicted before it is used much) also ends the replaying.
REPLAYS_PER_COMPILE = 4


def structure_key(tape: LeanTape, outputs: Sequence[Tensor], sens: Sequence[Tensor], sources: Sequence[Tensor],
                  ) -> tuple[tuple | None, list[Tensor] | None, list[Parameter] | None]:
    """``(key, inputs, weights)``: what a compiled backward depends on, as one hashable tuple, and the tensors it
    reads besides the ops' outputs (call inputs, weights); key None if an op's backward cannot be replayed.

    Read off autodiff's tape of recorded calls: per call, its primitive (the object itself), each argument (an
    earlier call's output by index, a call input by its place, shape and dtype, a weight by its identity, shape
    and dtype, a constant by value), and its output's shape and dtype. Then the outputs differentiated, the sens
    shapes and dtypes, and the sources whose gradients are wanted.
    """
    where: dict[int, Any] = {}  # id(tensor) -> its reference in the key
    inputs: list[Tensor] = []
    weights: list[Parameter] = []
    key: list[Any] = []
    for prim, args, out in tape.calls:
        if not prim.bprop_replayable:
            return None, None, None
        refs = []
        for a in args:
            if isinstance(a, Tensor):
                r = where.get(id(a))
                if r is None:
                    r = where[id(a)] = _leaf(a, inputs, weights)
                refs.append(r)
            else:
                refs.append((_CONST, freeze(a, _LARGEST_CONSTANT_ARRAY)))
        where[id(out)] = len(key)
        data: np.ndarray = out._data  # type: ignore[assignment]  # concrete: the op has run
        key.append((prim, tuple(refs), data.shape, data.dtype))
    ends = []
    for group in (outputs, sources):
        refs = []
        for t in group:
            r = where.get(id(t))
            if r is None:
                r = where[id(t)] = _leaf(t, inputs, weights)
            refs.append(r)
        ends.append(tuple(refs))
    key.append(ends[0])
    key.append(tuple((s.shape, s._np_dtype) for s in sens))
    key.append(ends[1])
    return tuple(key), inputs, weights


def _leaf(t: Tensor, inputs: list[Tensor], weights: list[Parameter]) -> tuple:
    """The key's reference to a tensor no recorded call produced: a weight, or the next call input."""
    data: np.ndarray = t._data  # type: ignore[assignment]  # concrete: a tape's tensor
    if isinstance(t, Parameter):
        weights.append(t)
        return ("weight", id(t), data.shape, data.dtype)
    inputs.append(t)
    return ("input", len(inputs) - 1, data.shape, data.dtype)


class _Plan:
    """One compiled backward: where each graph input comes from in a step's tape, and the executor."""

    __slots__ = ("executor", "node_of", "input_of", "param_of", "sens_of", "present", "weights")

    def __init__(self, executor: Executor, sources: tuple[list, list, list, list], present: list[bool],
                 weights: list[Parameter]) -> None:
        self.executor = executor
        self.weights = weights  # every weight its key names, kept alive so that no other one takes its id
        self.present = present  # per target: whether it has a gradient (False: no path from it to the roots)
        # Each graph input, in order, is one of: a node's output (by index), a call input (by index in the
        # tape's inputs), a weight (the Parameter), a sens (by index).
        self.node_of, self.input_of, self.param_of, self.sens_of = sources

    def run(self, calls: Sequence[tuple[Any, Any, Tensor]], inputs: Sequence[Tensor], sens: Sequence[Tensor],
            ) -> list[Tensor | None]:
        arrays = [calls[i][2]._data for i in self.node_of]
        arrays += [inputs[i]._data for i in self.input_of]
        arrays += [p._data for p in self.param_of]
        arrays += [sens[i]._data for i in self.sens_of]
        outs = iter(self.executor.run(arrays))
        wrap = Tensor._wrap
        return [wrap(next(outs)) if p else None for p in self.present]


def compile_backward(tape: LeanTape, outputs: Sequence[Tensor], sens: Sequence[Tensor], sources: Sequence[Tensor],
                     weights: list[Parameter]) -> _Plan:
    """Trace ``backprop`` over shadow copies of the tape's values and compile the backward graph.

    The tape's nodes are built here (``Tape.recorded_nodes``); ``weights``: those the structure key names."""
    nodes = tape.recorded_nodes()
    roots = [tape.value_of(t) for t in outputs]
    targets = [tape.value_of(t) for t in sources]
    graph = Graph("backward")
    shadow: dict[Value, Value] = {}  # tape value -> the backward graph's input standing for it
    where: dict[Value, tuple[str, Any]] = {}  # tape value -> where its array is found on a later step's tape
    for i, n in enumerate(nodes):
        where[n.out] = ("node", i)
    for i, v in enumerate(tape.graph.inputs):  # in first-seen order, as structure_key lists a step's call inputs
        where[v] = ("input", i)

    def sym(v: Value) -> Value:
        s = shadow.get(v)
        if s is None:
            t = Tensor._symbolic(None)
            s = t._sym = graph.add_input(v.name.lstrip("%") or "v", v.shape, v.dtype, handle=t)
            shadow[v] = s
            if v.kind == ValueKind.PARAM:
                where[v] = ("param", v.handle)
        return s

    shadow_nodes = []
    for n in nodes:
        copy = Node(n.prim, [sym(v) if type(v) is Value else v for v in n.inputs])
        copy.out = sym(n.out)
        shadow_nodes.append(copy)
    sens_inputs = []
    for i, s in enumerate(sens):
        t = Tensor._symbolic(None)
        t._sym = v = graph.add_input(f"sens{i}", s.shape, s._np_dtype, handle=t)
        where[v] = ("sens", i)
        sens_inputs.append(t)
    with tracing(graph) as tr:
        grads = backprop(tr, shadow_nodes, [sym(r) for r in roots], sens_inputs, [sym(t) for t in targets])
        graph.outputs = [tr.value_of(g) for g in grads if g is not None]
    optimize(graph)
    read = set(graph.outputs)
    for n in graph.nodes:
        read.update(v for v in n.inputs if type(v) is Value)
    origin: dict[Value, Value] = {s: v for v, s in shadow.items()}  # a shadow input -> the tape value it stands for
    order = {"node": 0, "input": 1, "param": 2, "sens": 3}

    def source_kind(v: Value) -> int:
        return order[where[origin.get(v, v)][0]]

    # the inputs it reads, grouped by source kind: the order _Plan.run gathers their arrays in
    graph.inputs = sorted((v for v in graph.inputs if v in read), key=source_kind)
    plan_sources: tuple[list, list, list, list] = ([], [], [], [])
    for v in graph.inputs:
        kind, at = where[origin.get(v, v)]
        plan_sources[order[kind]].append(at)
    return _Plan(Executor(graph), plan_sources, [g is not None for g in grads], weights)


class BackwardPlans:
    """The compiled backwards of one gradient function, by structure key (at most ``PLANS_KEPT``)."""

    def __init__(self) -> None:
        self.plans: OrderedDict[tuple, Any] = OrderedDict()  # key -> _Plan, or _UNREPLAYABLE
        self.seen_once: set[tuple] = set()  # keys met once: compiled when met again
        self.misses = 0
        self.compiles = self.replays = 0
        self.given_up = False

    def backward(self, tape: LeanTape, outputs: Sequence[Tensor], sens: Sequence[Tensor], sources: Sequence[Tensor],
                 ) -> list[Tensor | None]:
        """The gradients of the tensors ``outputs`` (weighted by ``sens``) w.r.t. the tensors ``sources``, as
        ``backprop`` gives them over autodiff's ``tape``: replayed from a compiled plan when there is one."""
        if self.given_up:
            return backprop_tape(tape, outputs, sens, sources)
        try:
            key, inputs, weights = structure_key(tape, outputs, sens, sources)
            plan = self.plans.get(key) if key is not None else _UNREPLAYABLE
        except TypeError:  # a constant argument with no value to compare
            plan = _UNREPLAYABLE
        if plan is None:
            plan = self._second_sighting(key, tape, outputs, sens, sources, weights)
        if plan is None or plan is _UNREPLAYABLE:
            return backprop_tape(tape, outputs, sens, sources)
        self.misses = 0
        self.replays += 1
        return plan.run(tape.calls, inputs, sens)

    def _second_sighting(self, key, tape, outputs, sens, sources, weights):
        """None the first time ``key`` is met; its plan (compiled now) the second time."""
        if key not in self.seen_once:
            self.misses += 1
            if self.misses >= MISSES_BEFORE_GIVING_UP:  # a new structure every step: keys cost, never pay
                self.given_up = True
                self.seen_once.clear()
            elif len(self.seen_once) >= 4 * PLANS_KEPT:
                self.seen_once.clear()
            self.seen_once.add(key)
            return None
        self.seen_once.discard(key)
        if self.compiles >= PLANS_KEPT and self.replays < REPLAYS_PER_COMPILE * self.compiles:
            self.given_up = True  # structures come and go faster than their plans pay for themselves
            self.plans.clear()
            return None
        self.compiles += 1
        try:
            plan = compile_backward(tape, outputs, sens, sources, weights)
        except Exception:  # a rule that needs concrete values: this structure runs rule by rule
            plan = _UNREPLAYABLE
        self.plans[key] = plan
        while len(self.plans) > PLANS_KEPT:
            self.plans.popitem(last=False)
        return plan


def replay(kept: dict[str, Any], tape: Tape, outputs: Sequence[Tensor], sens: Sequence[Tensor],
           sources: Sequence[Tensor]) -> list[Tensor | None]:
    """The hook ``backward_replay`` (``mslab.core.hooks``): the gradients ``backprop_tape`` gives, replayed from the
    gradient function's compiled backwards (kept in ``kept``) where it has one. A plain tape (the lean tape was
    not installed when the forward ran) has no recorded calls to key on: its backward runs rule by rule."""
    if type(tape) is not LeanTape:
        return backprop_tape(tape, outputs, sens, sources)
    plans = kept.get("backward_plans")
    if plans is None:
        plans = kept["backward_plans"] = BackwardPlans()
    return plans.backward(tape, outputs, sens, sources)
