"""The executor: a graph compiled into a flat schedule, run as a short loop over a list of buffers.

Compilation (once per graph) gives every value a slot in a list, binds each node's constant
attributes into its compute function, folds nodes that have no tensor inputs (such as the ``Fill``
that makes *sens*) into constants, and notes after which node each buffer is last used so it can be
freed. Running is then ``env[out] = fn(*env[ins])`` per node, in recorded order, which is also the
order of side effects (an optimizer's ``Assign`` runs after the backward nodes that read the weight).

``steps()`` runs the same schedule one node at a time and exposes every intermediate value: the
step-through views use it, never a second interpreter.
"""
import numpy as np

from mslab.common.tensor import Tensor
from mslab.errors import ExecutionError
from mslab.ir.graph import Value


def _bind(compute, inputs, slot_of):
    """A function of the tensor inputs only, with the node's constant inputs bound in place."""
    slots = [slot_of[v] for v in inputs if type(v) is Value]
    consts = [v for v in inputs if type(v) is not Value]
    if not consts:
        return compute, slots
    n = len(slots)
    if all(type(v) is Value for v in inputs[:n]):  # tensors first, attributes after: the usual case
        tail = tuple(consts)
        return (lambda *xs: compute(*xs, *tail)), slots
    pattern = [(type(v) is Value, v) for v in inputs]

    def call(*xs):
        it = iter(xs)
        return compute(*[next(it) if is_t else c for is_t, c in pattern])
    return call, slots


class Executor:
    """Runs one Graph. ``run(arrays) -> list of arrays`` for the graph's outputs."""

    def __init__(self, graph):
        self.graph = graph
        slot_of = {}
        for v in graph.inputs + graph.params + graph.consts:
            slot_of[v] = len(slot_of)
        for n in graph.nodes:
            slot_of[n.out] = len(slot_of)
        self.slot_of = slot_of
        template = [None] * len(slot_of)
        for v in graph.consts:
            template[slot_of[v]] = v.array
        self.input_slots = [slot_of[v] for v in graph.inputs]
        self.param_slots = [(slot_of[v], v.handle) for v in graph.params]
        self.folded = []  # nodes computed once, here
        schedule = []
        for n in graph.nodes:
            for v in n.inputs:
                if type(v) is Value and v not in slot_of:
                    raise ExecutionError(f"node {n.out.name} ({n.prim.name}) reads {v.name}, which belongs to "
                                         f"another graph: a symbolic tensor escaped from an earlier trace")
            fn, slots = _bind(n.prim.compute, n.inputs, slot_of)
            if not slots and not n.prim.side_effect and getattr(n.prim, "deterministic", True):
                template[slot_of[n.out]] = self._fold(n, fn)
                self.folded.append(n)
                continue
            schedule.append([fn, slots, slot_of[n.out], (), n])
        self.template = template
        missing = [v for v in graph.outputs if v not in slot_of]
        if missing:
            raise ExecutionError(f"graph output {missing[0].name} is not computed by this graph")
        self.output_slots = [slot_of[v] for v in graph.outputs]
        # The graph's outputs and parameters are never freed; other buffers go after their last reader.
        keep = set(self.output_slots) | {s for s, _ in self.param_slots}
        last = {}
        for k, step in enumerate(schedule):
            for s in step[1]:
                last[s] = k
        frees = [[] for _ in schedule]
        for s, k in last.items():
            if s not in keep and template[s] is None:
                frees[k].append(s)
        for step, f in zip(schedule, frees):
            step[3] = tuple(f)
        self.schedule = [tuple(s) for s in schedule]
        # Outputs that are parameters or compile-time constants are copied on the way out: the caller
        # must not be able to change a weight or the next call's result by writing into them.
        self._out_copy = [v.kind == "param" or template[self.slot_of[v]] is not None for v in graph.outputs]

    def _fold(self, n, fn):
        try:
            return np.asarray(fn())
        except Exception as e:
            raise self._error(n, e, []) from None

    def _load(self, arrays):
        env = list(self.template)
        for s, p in self.param_slots:
            env[s] = p._data
        if len(arrays) != len(self.input_slots):
            raise TypeError(f"graph {self.graph.name} takes {len(self.input_slots)} tensor inputs, got {len(arrays)}")
        for s, a in zip(self.input_slots, arrays):
            env[s] = a
        return env

    def run(self, arrays):
        """Run the whole graph on input arrays; return the output arrays."""
        env = self._load(arrays)
        try:
            for fn, ins, out, free, node in self.schedule:  # noqa: B007 (node names a failure below)
                env[out] = fn(*[env[i] for i in ins])
                for i in free:
                    env[i] = None
        except Exception as e:
            raise self._error(node, e, [env[i] for i in ins]) from None
        # numpy ufuncs turn 0-d results into numpy scalars; callers get arrays, as in PYNATIVE.
        return [np.array(env[s]) if c else np.asarray(env[s]) for s, c in zip(self.output_slots, self._out_copy)]

    def steps(self, arrays):
        """Run node by node: yields ``(node, env)`` after each node; ``env`` maps Value -> array.

        Nothing is freed, so every intermediate value stays readable. Folded constant nodes are
        reported first (they were computed when the graph was compiled).
        """
        env = self._load(arrays)
        values = _ValueEnv(env, self.slot_of)
        for n in self.folded:
            yield n, values
        for fn, ins, out, _free, node in self.schedule:
            try:
                env[out] = fn(*[env[i] for i in ins])
            except Exception as e:
                raise self._error(node, e, [env[i] for i in ins]) from None
            yield node, values

    def outputs_of(self, env_view):
        return [env_view.env[s] for s in self.output_slots]

    def _error(self, node, exc, arrays):
        shapes = ", ".join(f"{a.dtype}{list(a.shape)}" for a in arrays if hasattr(a, "shape"))
        where = f" in scope '{node.scope}'" if node.scope else ""
        src = f"\n  source: {node.source}" if node.source else ""
        return ExecutionError(f"graph {self.graph.name}: node {node.out.name} ({node.prim.name}){where} failed: "
                              f"{exc}\n  inputs: {shapes}{src}")


class _ValueEnv:
    """Read access to a running graph's buffers by Value (or by node)."""

    def __init__(self, env, slot_of):
        self.env = env
        self.slot_of = slot_of

    def __getitem__(self, v):
        if hasattr(v, "out"):
            v = v.out
        return self.env[self.slot_of[v]]

    def tensor(self, v):
        return Tensor._wrap(self[v])
