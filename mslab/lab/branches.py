"""Which way control flow went: the branch an If took, how many times a While ran, the nodes that ran inside.

``Executor.steps(arrays, into_subgraphs=True)`` yields the nodes of the taken branch and of every loop
iteration before the control-flow node itself, each with ``env.where = (control node, label, iteration)``
(None for the graph's own nodes). ``ControlRuns`` watches those steps and keeps what a view needs:

* ``branch(node)``: ``"then"`` or ``"else"`` for an If that ran (None before);
* ``iterations(node)``: how many times a While's body ran (a WhileGrad: how many kept iterations it
  went back through);
* ``ran(node)``: whether a node inside a subgraph ran (the other branch's nodes never do);
* ``value(v)``: a subgraph value as it was last computed (a loop body: its last iteration).
"""
from dataclasses import dataclass, field


@dataclass
class ControlRun:
    """What one control-flow node did: the subgraph label it ran (``then``, ``else``, ``body``, ...), how many
    iterations (loops only), and the nodes that ran inside it (each once, however many iterations)."""

    node: object
    branch: str = None
    iterations: int = None
    inner: list = field(default_factory=list)

    def summary(self):
        """``"took then"``, ``"3 iterations"``: what a learner reads next to the node."""
        if self.iterations is not None:
            return f"{self.iterations} iteration" + ("" if self.iterations == 1 else "s")
        return f"took {self.branch}" if self.branch else "ran"


class ControlRuns:
    """Every control-flow node's run, seen from the steps of ``Executor.steps(into_subgraphs=True)``."""

    def __init__(self):
        self.runs = {}  # control node -> ControlRun, in the order they finished
        self._ran = set()
        self._env = {}  # id(subgraph) -> the environment of its last run

    def see(self, node, env):
        """Take in one step ``(node, env)``; returns True if it was an inner step (inside a subgraph)."""
        if node.prim.subgraphs:
            self._finish(node, env)
        where = env.where
        if where is None:
            return False
        ctrl, label, _ = where
        run = self.runs.get(ctrl) or self.runs.setdefault(ctrl, ControlRun(ctrl))
        run.branch = label
        if node not in self._ran:
            self._ran.add(node)
            run.inner.append(node)
        self._env[id(node.out.owner)] = env
        return True

    def _finish(self, node, env):
        """A control-flow node ran: read the branch off its condition, the iteration count off its output."""
        run = self.runs.pop(node, None) or ControlRun(node)
        self.runs[node] = run  # re-inserted: finished order
        op = node.op
        if op == "If":
            run.branch = "then" if bool(env[node.inputs[0]]) else "else"
        elif op == "While":
            run.branch, run.iterations = "body", len(env[node][-1])
        elif op == "WhileGrad":
            run.branch, run.iterations = "body backward", len(env[node.inputs[0]])

    def branch(self, node):
        run = self.runs.get(node)
        return run.branch if run is not None else None

    def iterations(self, node):
        run = self.runs.get(node)
        return run.iterations if run is not None else None

    def ran(self, node):
        return node in self._ran

    def value(self, v):
        """The array of subgraph Value ``v`` from its subgraph's last run (None if it never ran)."""
        env = self._env.get(id(v.owner))
        if env is None or (v.kind == "node" and v.node not in self._ran):
            return None
        return env[v]
