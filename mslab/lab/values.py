"""Where the graph views find numbers: the ``ValueSource`` protocol and the simple sources.

A picture of a graph shows its structure; a value source adds the numbers. The graph widgets ask a
source exactly two questions about a graph ``Value`` (a node's output, a graph input, a Parameter, a
constant), and a source that cannot answer says so with None instead of lacking the method:

* ``value(v)``: the numpy array ``v`` holds now; None if it has not been computed (yet).
* ``gradient(v)``: d(loss)/d(v) as a numpy array; None if the source knows no gradient for ``v``.

The sources, from the least to the most a learner can see:

* ``NO_VALUES``: a bare picture; nothing has run.
* ``TapeValues``: a PYNATIVE tape's Values hold handles to the real tensors that ran (TapeView).
* ``RunValues``: one run of a graph on the executor, every intermediate kept (``GraphView.run``).
* ``mslab.lab.stepping.TrainStepSession``: one training step, at whatever node stepping has reached,
  with gradients (StepThrough).
"""
from mslab.lab.branches import ControlRuns
from mslab.runtime.executor import Executor


class ValueSource:
    """The protocol between the engine's numbers and the views: subclass it and answer ``value``.

    The defaults answer None ("not known"), so a source only overrides what it can tell.
    """

    def value(self, v):
        """The numpy array of graph Value ``v`` now, or None if it has not been computed."""
        return None

    def gradient(self, v):
        """d(loss)/d(v) as a numpy array, or None if this source knows no gradient for ``v``."""
        return None


NO_VALUES = ValueSource()  # a picture with no numbers behind it


class TapeValues(ValueSource):
    """The tape's own values: each recorded Value keeps a handle to the real tensor that ran."""

    def value(self, v):
        if v.handle is not None and getattr(v.handle, "_data", None) is not None:
            return v.handle._data
        return v.array


class RunValues(ValueSource):
    """Every value of one run of ``graph`` on ``arrays``, from ``Executor.steps`` (what GraphView.run shows).

    A training graph trains: its optimizer nodes update the weights, as a real call would. Inside an ``if``
    or ``while`` on a tensor, the values are those of the branch that ran (a loop body: its last iteration).
    """

    def __init__(self, graph, arrays):
        self.env, self.control = None, ControlRuns()
        for node, env in Executor(graph).steps(list(arrays), into_subgraphs=True):
            if not self.control.see(node, env):
                self.env = env  # steps yields the same growing environment: the last one holds every value

    def value(self, v):
        if v.kind == "param":
            return v.handle._data
        if v.kind == "const":
            return v.array
        if self.env is None:  # a graph with no nodes to run
            return None
        return self.env[v] if v in self.env.slot_of else self.control.value(v)
