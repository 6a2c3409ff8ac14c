"""PYNATIVE mode's tape: the primitives that ran, recorded as a forward graph with real values.

Like PyTorch's ``grad_fn`` chain, the tape remembers each executed primitive with its inputs and
output so that autodiff can walk it backwards. ``GradOperation`` opens a tape for the duration of the
forward call; ``mslab.record()`` opens one a learner can look at.
"""
import contextlib

from mslab.core import state
from mslab.core.tensor import Parameter, Tensor
from mslab.ir.graph import Graph
from mslab.ir.node import Node, Value
from mslab.ir.tracer import Recorder


class Tape(Recorder):
    """A recorded forward graph of eagerly executed primitives (values are the real tensors)."""

    def __init__(self, name="tape", shows_calls=False, provenance=True, param_values=None):
        super().__init__(Graph(name))
        # Autodiff's tapes may share their weights' values between calls of one gradient function (a training
        # step reads the same hundreds of Parameters every step): id(Parameter) -> Value, checked on reuse.
        self._param_values = param_values if param_values is not None and not provenance else {}
        # Scope path and source line of each node, for a learner who prints or draws the tape. Autodiff's
        # own tapes are walked once and dropped, never shown: they skip that work (a third of an eager op).
        self.provenance = provenance
        self._values = {}  # id(tensor) -> Value; the handles keep those tensors (and ids) alive
        # A tape a learner opened (mslab.record) names its inputs after the outermost Cell call's
        # construct parameters and returns that call's outputs; autodiff's own tapes skip the work.
        self.shows_calls = shows_calls
        self.calls = []  # autodiff's tape: (primitive, arguments, output) of each op, in the order they ran
        self._made = 0  # how many of those calls are nodes already

    def value_of(self, t):
        v = self._values.get(id(t))
        if v is None:
            if isinstance(t, Parameter):
                if self.provenance:
                    v = self.graph.param_value(t)
                else:  # autodiff's tape: no back-link to the graph (see record), and no graph.params entry (nobody
                    # reads an autodiff tape's parameter list); every weight of a step comes here
                    data = t._data
                    v = self._param_values.get(id(t))
                    if v is None or v.handle is not t or v.shape != data.shape or v.dtype != data.dtype \
                            or v.name is not t._name:
                        v = self._param_values[id(t)] = Value("param", t._name, data.shape, data.dtype, None, t)
            else:
                v = self.graph.add_input(f"in{len(self.graph.inputs)}", t.shape, t._np_dtype, handle=t)
            self._values[id(t)] = v
        return v

    def record(self, prim, args, out):
        if not self.provenance:
            # Autodiff's own tape keeps each call as it ran; its nodes are built only if a backward walks them
            # (``recorded_nodes``): a backward replayed from a compiled plan reads the calls alone.
            self.calls.append((prim, args, out))
            return
        data = out._data
        self._values[id(out)] = self.graph.add_node(self._new_node(prim, self._inputs(args)), data.shape, data.dtype,
                                                    out)

    def _inputs(self, args):
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

    def recorded_nodes(self):
        """The graph's nodes, with autodiff's recorded calls turned into nodes first (in the order they ran)."""
        calls, made = self.calls, self._made
        if made < len(calls):
            values = self._values
            nodes = self.graph.nodes
            for prim, args, out in calls[made:]:
                data = out._data
                # no back-links: the recorded step holds no reference cycle, and is freed as soon as the
                # gradient call lets go of it
                node = Node.step(prim, self._inputs(args), self.phase, len(nodes), data.shape, data.dtype, out)
                values[id(out)] = node.out
                nodes.append(node)
            self._made = len(calls)
        return self.graph.nodes

    def release(self):
        """Forget the recorded tensors once autodiff has walked the tape.

        Nodes and values point at each other (``node.out.node is node``, ``value.owner is graph``): left as they
        are, a step's activations wait for Python's cycle collector, and eager training holds several steps'
        worth at once. Cutting the links lets reference counting free them as soon as the step ends.
        """
        g = self.graph
        if self.provenance:
            cut = [n.out for n in g.nodes] + g.inputs + g.params + g.consts
        else:  # autodiff's node and weight values hold no cycle (and its weight values are kept for the next call)
            cut = g.inputs + g.consts
        for v in cut:
            v.node = v.handle = v.owner = None
        for n in g.nodes if self.provenance else ():
            n.inputs, n.grad_of = [], None
        g.nodes.clear()
        self._values.clear()
        self.calls, self._made = [], 0

    def name_inputs(self, tensors, names):
        """Record not-yet-seen input tensors under these names (``%data``, ``%label``), not ``%in0``."""
        taken = {v.name for v in self.graph.inputs}
        for t, name in zip(tensors, names):
            if isinstance(t, Tensor) and not isinstance(t, Parameter) and id(t) not in self._values \
                    and name not in taken:
                self._values[id(t)] = self.graph.add_input(name, t.shape, t._np_dtype, handle=t)
                taken.add(name)

    def mark_outputs(self, tensors):
        self.graph.outputs = [self.value_of(t) for t in tensors]


class RunRecorder(Tape):
    """A tape that turns one eager run into a graph (``jit(capture_mode="trace")``).

    The call's own tensors are the graph's inputs, Parameters its parameters, and any other tensor the
    run meets is a constant: Python control flow is baked in as it ran, as in MindSpore's trace mode.
    """

    def add_call_input(self, t, name):
        self._values[id(t)] = self.graph.add_input(name, t.shape, t._np_dtype, handle=t)

    def value_of(self, t):
        v = self._values.get(id(t))
        if v is None:
            v = self.graph.param_value(t) if isinstance(t, Parameter) else self.graph.const_value(t)
            self._values[id(t)] = v
        return v


@contextlib.contextmanager
def record(name="tape"):
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
