"""One training step, one stage (or one node) at a time: what the step-through view drives.

``TrainStepSession(train_cell, x, y)`` takes a TrainOneStepCell (or any Cell whose call computes
gradients and updates weights) and its inputs, and lets a learner walk through ONE real step::

    s = TrainStepSession(train_net, x, y)
    s.next_stage()          # forward: the network and the loss run
    s.loss                  # the loss, as a numpy array
    s.next_stage()          # sens: the initial gradient d(loss)/d(loss), filled with TrainOneStepCell.sens
    s.run_to_end()          # backward, grad reduce, optimizer: the weights are now updated, for real
    s.gradients             # {parameter name: the gradient the optimizer read}
    s.previous()            # back one stage: parameters are restored and the step is replayed

GRAPH mode: the Cell is compiled through its normal path (the same CompileCache a call uses) and the
compiled graph is run with ``Executor.steps``: every value is the executor's own buffer, and the
optimizer's update nodes write the weights in place as stepping passes them.

PYNATIVE mode: the step runs once, for real, under ``mslab.record()``; the tape holds every primitive
that ran (the forward for the loss, the forward again inside GradOperation, the backward, the
optimizer) with handles to the real tensors. Stepping walks the tape; the weights are put back to
their values before the call and each recorded write (``Assign``, an optimizer's ``ApplyMomentum``,
BatchNorm's moving statistics) runs again on them as stepping passes it.

Control flow (an ``if`` or ``while`` on a tensor in GRAPH mode): the executor steps into the branch
that runs and into every loop iteration; ``branch(node)`` and ``iterations(node)`` say which branch an If
took and how many times a While ran, and the values inside the branch are readable too
(``mslab.lab.branches``). One step of ``next_node`` runs a whole control-flow node.

Stages are derived from the graph, not declared: see ``stages.stage_of``. Gradients are found from
the graph's structure: see ``stages.gradient_values``. Going back (``previous``) restores every Parameter of
the Cell from the snapshot taken at the start and replays up to the earlier position.
"""
import numpy as np

from mslab.core import context
from mslab.core.context import in_mode
from mslab.core.pytree import flatten
from mslab.core.tensor import Tensor
from mslab.ir.graph import Node, Value
from mslab.ir.tape import record
from mslab.lab.branches import ControlRuns
from mslab.lab.stages import (  # noqa: F401  (re-exported: the stage names belong to the session's API)
    BACKWARD_S,
    EMPTY,
    EXPLAIN,
    FORWARD_S,
    GRAD_REDUCE,
    OPTIMIZER_S,
    RETURN,
    SENS,
    STAGES,
    Stage,
    gradient_values,
    loss_value,
    output_gradient_value,
    stage_of,
)
from mslab.lab.values import ValueSource
from mslab.runtime.cell_call import compile_call
from mslab.runtime.compiled import tensor_leaves


def _replay_write(node):
    """Run a recorded write again on the Parameters as they are now (restored, then replayed in order): its other
    inputs are the tensors the real step computed."""
    args = [(v.handle._data if v.handle is not None else v.array) if type(v) is Value else v for v in node.inputs]
    node.prim.compute(*args)


class TrainStepSession(ValueSource):
    """Walk one real training step of ``train_cell(*inputs)`` stage by stage or node by node.

    ``mode``: ``mslab.GRAPH_MODE`` or ``mslab.PYNATIVE_MODE`` (default: the current context). Creating a
    session changes nothing in PYNATIVE mode either: the recorded call's effects are undone until stepping
    replays them. At ``position`` p the first p nodes of ``order`` have run. As a ``ValueSource`` it
    answers ``value`` and ``gradient`` for the graph views.
    """

    def __init__(self, train_cell, *inputs, mode=None):
        self.cell = train_cell
        self.inputs = inputs
        self.mode = context.get_context("mode") if mode is None else mode
        self.rebuild()

    # ---- building --------------------------------------------------------------------------------
    def rebuild(self):
        """Build the session afresh from the Cell's weights as they are NOW: a new snapshot, a new compile or
        recording, and back to position 0.

        ``goto`` calls it when the network was trained after the session was made, so that "before" values and
        the step it shows are the ones a plain call would make today.
        """
        train_cell, inputs = self.cell, self.inputs
        self.params = list(dict.fromkeys(train_cell.get_parameters()))
        self.snapshot = {id(p): p._data.copy() for p in self.params}
        self.weights = list(getattr(train_cell, "weights", None) or train_cell.trainable_params())
        if self.mode == context.GRAPH_MODE:
            self._compiled = compile_call(train_cell, inputs)
            self.graph = self._compiled.graph
            self.executor = self._compiled.executor
            self._arrays = [t._data for t in tensor_leaves(inputs)]
            sched = {step[3]: k for k, step in enumerate(self.executor.schedule)}
            self.folded = set(self.executor.folded)
            self._sched_index = [sched.get(n, -1) for n in self.graph.nodes]
        else:
            self._record()
            self.folded = set()
        self.order = list(self.graph.nodes)
        self.stage_map = stage_of(self.graph)
        self.stages = self._runs()
        self.loss_v = loss_value(self.graph)
        self.grad_vs = gradient_values(self.graph, self.weights, self.stage_map)
        self._param_value = {id(v.handle): v for v in self.graph.params}
        self.position = 0
        self._cursor = -1
        self._restart()
        return self

    def _record(self):
        with in_mode(context.PYNATIVE_MODE), record(type(self.cell).__name__) as tape:
            out = self.cell(*self.inputs)
            leaves, _ = flatten(out)
            tape.mark_outputs([t for t in leaves if isinstance(t, Tensor)])
        self.tape = tape
        self.graph = tape.graph
        self.returned = out
        self.after = {id(p): p._data.copy() for p in self.params}
        self._restore()

    def _runs(self):
        runs = []
        for i, n in enumerate(self.order):
            s = self.stage_map[n]
            if runs and runs[-1].name == s:
                runs[-1].stop = i + 1
                runs[-1].nodes.append(n)
            else:
                runs.append(Stage(s, i, i + 1, [n]))
        names = [r.name for r in runs]
        # A stage with no nodes (one device: no grad reduce) is shown empty where it would run.
        if GRAD_REDUCE not in names and OPTIMIZER_S in names:
            k = names.index(OPTIMIZER_S)
            runs.insert(k, Stage(GRAD_REDUCE, runs[k].start, runs[k].start, []))
        return runs

    # ---- moving ----------------------------------------------------------------------------------
    def _restore(self):
        for p in self.params:
            np.copyto(p._data, self.snapshot[id(p)], casting="no")

    def _weights_changed(self):
        return any(not np.array_equal(p._data, self.snapshot[id(p)]) for p in self.params)

    def _restart(self):
        self._restore()
        self.position = 0
        self.control = ControlRuns()
        if self.mode == context.GRAPH_MODE:
            self._gen = self.executor.steps(self._arrays, into_subgraphs=True)
            self._env = None
            self._ran = 0  # scheduled nodes the executor has run
            for _ in self.folded:  # folded nodes come first: computed when the graph was compiled
                _, self._env = next(self._gen)

    def _advance_to(self, p):
        if self.mode == context.GRAPH_MODE:
            need = max([self._sched_index[i] + 1 for i in range(p)] + [0])
            while self._ran < need:
                node, env = next(self._gen)
                if not self.control.see(node, env):  # inner steps of a branch or loop come first
                    self._env = env
                    self._ran += 1
        else:
            for n in self.order[self.position:p]:
                if n.prim.side_effect:
                    _replay_write(n)
        self.position = p

    def _stage_of_position(self, p):
        if p == 0:
            return -1
        for j, st in enumerate(self.stages):
            if st.start < p <= st.stop:
                return j
        return len(self.stages) - 1

    def goto(self, p, cursor=None):
        """Move to position ``p`` (0 = nothing has run; ``len(order)`` = the step is complete)."""
        p = max(0, min(int(p), len(self.order)))
        if p < self.position:
            self._restart()
        if self.position == 0 and p > 0 and self._weights_changed():
            # Someone trained the network since this session was made: start from today's weights,
            # or "before" values and the recorded step would describe weights that no longer exist.
            self.rebuild()
        if p > self.position:
            self._advance_to(p)
        self._cursor = self._stage_of_position(p) if cursor is None else cursor
        return self

    def next_node(self):
        """Run one more node."""
        return self.goto(self.position + 1)

    def previous_node(self):
        """Go back one node (restore the weights, replay up to it)."""
        return self.goto(self.position - 1)

    def next_stage(self):
        """Run to the end of the next stage (or of the current one, if stepping stopped inside it)."""
        k = self._cursor
        if k < 0 or self.position >= self.stages[k].stop:
            k += 1
        if k >= len(self.stages):
            return self
        return self.goto(self.stages[k].stop, cursor=k)

    def previous(self):
        """Back to the end of the previous stage (the weights are restored and the step replayed)."""
        k = self._cursor - 1
        if k < 0:
            return self.reset()
        return self.goto(self.stages[k].stop, cursor=k)

    def run_to_end(self):
        """Finish the step: every node runs, every weight is updated."""
        return self.goto(len(self.order), cursor=len(self.stages) - 1)

    def reset(self):
        """Back to the start: weights as before the step, nothing run."""
        return self.goto(0, cursor=-1)

    # ---- reading ---------------------------------------------------------------------------------
    @property
    def done(self):
        return self.position >= len(self.order)

    @property
    def stage_index(self):
        """Index in ``stages`` of the stage being run or last completed (-1 before anything ran)."""
        return self._cursor

    @property
    def stage(self):
        """The current Stage (None before the first)."""
        k = self.stage_index
        return self.stages[k] if k >= 0 else None

    @property
    def current_node(self):
        """The node that ran last (None at position 0)."""
        return self.order[self.position - 1] if self.position else None

    def has_run(self, node):
        if node.out.owner is not None and node.out.owner is not self.graph:  # inside an If / While
            return self.control.ran(node)
        return node.index < self.position

    def branch(self, node):
        """``"then"`` / ``"else"``: the branch If ``node`` took (``"body"`` for a While); None before it ran."""
        return self.control.branch(node)

    def iterations(self, node):
        """How many times While ``node``'s body ran (None before it ran, or for an If)."""
        return self.control.iterations(node)

    def value(self, v):
        """The numpy value of a Value or node at the current position (None if it has not run yet)."""
        if isinstance(v, Node):
            v = v.out
        if v.kind == "node" and not self.has_run(v.node):
            return None
        if v.kind == "param":
            return v.handle._data
        if v.owner is not None and v.owner is not self.graph and self.mode == context.GRAPH_MODE:
            return self.control.value(v) if v.kind != "const" else v.array
        if self.mode == context.GRAPH_MODE:
            if self._env is None:  # nothing has run yet: only inputs and constants exist
                return v.array if v.kind == "const" else self._input_array(v)
            return np.asarray(self._env[v])
        if v.kind == "node" and v.node.written_parameter is not None:
            return v.node.written_parameter.handle._data  # the Parameter it wrote, as it is at this position
        return v.handle._data if v.handle is not None else v.array

    def _input_array(self, v):
        return self._arrays[self.graph.inputs.index(v)] if v in self.graph.inputs else None

    @property
    def loss(self):
        """The loss (None until the forward stage has computed it)."""
        return self.value(self.loss_v)

    @property
    def sens_nodes(self):
        return [n for n in self.order if self.stage_map[n] == SENS]

    @property
    def sens(self):
        """The initial gradient fed to backward (None until the sens stage has run)."""
        ns = self.sens_nodes
        return self.value(ns[-1]) if ns else None

    def weight_names(self):
        return [w.name for w in self.weights]

    @property
    def gradients(self):
        """``{weight name: gradient array or None}``, in the optimizer's parameter order."""
        return {w.name: (self.value(g) if g is not None else None) for w, g in zip(self.weights, self.grad_vs)}

    def gradient(self, v):
        """The gradient belonging to a Value or node at the current position: for a trainable weight, what the
        optimizer read; for a forward node, d(loss)/d(its output). None if not known or not computed yet."""
        if isinstance(v, Node):
            v = v.out
        if v.kind == "param":
            for w, g in zip(self.weights, self.grad_vs):
                if w is v.handle:
                    return self.value(g) if g is not None else None
            return None
        if v.kind == "node" and self.stage_map.get(v.node) == FORWARD_S:
            g = output_gradient_value(self.graph, v.node, self.stage_map)
            return self.value(g) if g is not None else None
        return None

    def before(self, weight):
        return self.snapshot[id(weight)]

    @property
    def parameters(self):
        """``{weight name: (before, now, now - before)}`` for each trainable weight."""
        out = {}
        for w in self.weights:
            b = self.snapshot[id(w)]
            now = w._data.copy()
            out[w.name] = (b, now, now - b)
        return out

    def stage_nodes(self, name):
        return [n for n in self.order if self.stage_map[n] == name]

    def __repr__(self):
        mode = "GRAPH" if self.mode == context.GRAPH_MODE else "PYNATIVE"
        st = self.stage.name if self.stage is not None else "start"
        return (f"TrainStepSession({type(self.cell).__name__}, mode={mode}, nodes={len(self.order)}, "
                f"position={self.position}, stage={st!r})")
