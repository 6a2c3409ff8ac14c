"""The stages of one training step, read off a recorded graph, and where its loss and gradients are.

A TrainOneStepCell's graph (compiled in GRAPH mode, or a tape in PYNATIVE mode) does not declare
stages; they follow from what the engine recorded: the phase of each node (forward, backward,
optimizer), the top-scope Fill that makes *sens*, and the data flow between them. The step-through
session (``stepping``) and its views use these functions; they compute nothing themselves.
"""
from mslab.core.text_enum import TextEnum
from mslab.ir.graph import BACKWARD, OPTIMIZER, Value, ValueKind


class StepStage(TextEnum):
    """The stages of one training step, in the order they run; a member is also its string."""

    FORWARD = "forward"  # the network and the loss
    SENS = "sens"  # the starting gradient d(loss)/d(loss)
    BACKWARD = "backward"  # the chain rule, from the loss back to the weights
    GRAD_REDUCE = "grad reduce"  # gradients averaged across devices (nothing on one device)
    OPTIMIZER = "optimizer"  # the weights updated in place
    RETURN = "return"  # the loss handed back once the update is done


# The members under the names the step-through session and its tests import (``_S``: the stage, not the phase).
FORWARD_S, SENS, BACKWARD_S = StepStage.FORWARD, StepStage.SENS, StepStage.BACKWARD
GRAD_REDUCE, OPTIMIZER_S, RETURN = StepStage.GRAD_REDUCE, StepStage.OPTIMIZER, StepStage.RETURN
STAGES = tuple(StepStage)

# Plain text: the widget shows these as they are (no markdown), so code names carry no backticks.
EXPLAIN = {
    FORWARD_S: "Forward: the network runs on the batch and the loss function turns its output into one number, "
               "the loss. This is loss = self.network(*inputs) in MindSpore's TrainOneStepCell.construct; its second "
               "call of the network, inside GradOperation, is the same forward pass, so it runs once.",
    SENS: "Sens: backpropagation needs a starting gradient, d(loss)/d(loss). TrainOneStepCell fills a tensor "
          "shaped like the loss with sens (1.0 unless you set it): F.fill(loss.dtype, loss.shape, self.sens). "
          "It plays the part of PyTorch's loss.backward(gradient).",
    BACKWARD_S: "Backward: the chain rule, applied node by node from the loss back to the weights. Each backward "
                "node was generated from the bprop rule of one forward node; together they give d(loss)/d(weight) "
                "for every trainable weight.",
    GRAD_REDUCE: "Grad reduce: with several devices, the gradients are averaged across devices here "
                 "(DistributedGradReducer).",
    OPTIMIZER_S: "Optimizer: each weight moves against its gradient, by the optimizer's update rule. Update nodes "
                 "(ApplyMomentum for Momentum, SGD for SGD, Assign for the rest) write the new values into the "
                 "Parameters, in place.",
    RETURN: "Return: F.depend(loss, self.optimizer(grads)) returns the loss computed BEFORE the update, and makes "
            "sure the update has happened before the step counts as done.",
}
EMPTY = {
    GRAD_REDUCE: "On one device grad_reducer is the identity function, so this stage has no nodes: the optimizer "
                 "reads the backward outputs directly.",
}
# The update rules of the optimizers a lesson is likely to step through (defaults: no weight decay, no nesterov).
UPDATE_RULES = {
    "SGD": "w = w - learning_rate * grad",
    "Momentum": "v = momentum * v + grad (v starts at 0), then w = w - learning_rate * v",
    "Adam": "m and v are running means of grad and grad squared, then w = w - learning_rate * m_hat / "
            "(sqrt(v_hat) + eps)",
}


def optimizer_text(optimizer):
    """One sentence naming the optimizer that runs in the step and, when known, its update rule."""
    if optimizer is None:
        return ""
    name = type(optimizer).__name__
    rule = UPDATE_RULES.get(name)
    return f"This step's optimizer is {name}" + (f": {rule}." if rule else ".")


class Stage:
    """A run of consecutive nodes that share a stage name (``start``/``stop`` index the session's order)."""

    __slots__ = ("name", "start", "stop", "nodes")

    def __init__(self, name, start, stop, nodes):
        self.name, self.start, self.stop, self.nodes = name, start, stop, nodes

    @property
    def explanation(self):
        return EXPLAIN[self.name]

    def __repr__(self):
        return f"Stage({self.name!r}, nodes={len(self.nodes)})"


def _producer(v):
    return v.node if type(v) is Value and v.kind == ValueKind.NODE else None


def _inner_nodes(n):
    """Every node inside control-flow node ``n``'s subgraphs, nested ones too (none for other nodes)."""
    for _, sub in n.prim.subgraphs:
        for m in sub.nodes:
            yield m
            yield from _inner_nodes(m)


def _all_nodes(graph):
    """The graph's nodes, then every node inside its control-flow nodes' subgraphs."""
    inner = [m for n in graph.nodes for m in _inner_nodes(n)]
    return [*graph.nodes, *inner]


def _outer_values(graph):
    """Subgraph input -> the Value the control-flow node passed in (If: its inputs after the condition;
    While: its inputs in order), for every control-flow node of ``graph``, nested ones too."""
    out = {}
    for n in _all_nodes(graph):
        if n.op not in ("If", "While"):
            continue
        given = [v for v in n.inputs if type(v) is Value][1 if n.op == "If" else 0:]
        for _, sub in n.prim.subgraphs:
            for sv, v in zip(sub.inputs, given):
                out[sv] = v
    return out


def _phase(n):
    """A node's phase; a control-flow node holding optimizer updates (``if state: self.opt(grads)``) counts
    as the optimizer."""
    if n.phase != BACKWARD and any(m.phase == OPTIMIZER for m in _inner_nodes(n)):
        return OPTIMIZER
    return n.phase


def _ancestors(values):
    """Every node some value in ``values`` depends on (through tensor inputs)."""
    seen, stack = set(), [n for n in map(_producer, values) if n is not None]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        stack.extend(m for m in map(_producer, n.inputs) if m is not None)
    return seen


def loss_value(graph):
    """The Value of the loss: the graph's first output, followed back through ``Depend`` (which passes
    its first input through and only orders the others before it)."""
    if not graph.outputs:
        raise ValueError(f"graph {graph.name} has no outputs, so it has no loss")
    v = graph.outputs[0]
    while v.kind == ValueKind.NODE and v.node.op == "Depend":
        v = v.node.inputs[0]
    return v


def stage_of(graph):
    """Map each node to its stage, from the graph's phases, scopes and structure:

    * phase ``backward`` -> "backward"; phase ``optimizer`` -> "optimizer";
    * forward nodes the loss depends on -> "forward";
    * other nodes before the loss is computed -> "forward" (PYNATIVE: the condition of an ``if`` that ran);
    * other non-backward nodes before the first backward node: at the top scope (TrainOneStepCell's own
      construct, such as the ``Fill`` that makes sens) -> "sens"; inside the network (side effects of
      the forward the loss does not read, such as BatchNorm's moving statistics) -> "forward";
    * non-backward, non-optimizer nodes between the first backward and the first optimizer node
      (``grad_reducer``) -> "grad reduce"; such nodes after the first optimizer node (``Depend``) -> "return".

    A control-flow node whose subgraphs hold optimizer updates is an optimizer node here.
    """
    nodes = graph.nodes
    phases = {n: _phase(n) for n in nodes}
    first_bw = next((i for i, n in enumerate(nodes) if n.phase == BACKWARD), None)
    if first_bw is None:
        raise ValueError(f"graph {graph.name} has no backward nodes: it is not a training step "
                         f"(pass a TrainOneStepCell, not the network)")
    first_opt = next((i for i, n in enumerate(nodes) if phases[n] == OPTIMIZER), len(nodes))
    loss = loss_value(graph)
    loss_cone = _ancestors([loss])
    loss_at = loss.node.index if loss.kind == ValueKind.NODE else -1
    out = {}
    for i, n in enumerate(nodes):
        if n.phase == BACKWARD:
            s = BACKWARD_S
        elif phases[n] == OPTIMIZER:
            s = OPTIMIZER_S
        elif n in loss_cone or i < loss_at:
            s = FORWARD_S
        elif i < first_bw:
            s = SENS if not n.scope else FORWARD_S
        elif i < first_opt:
            s = GRAD_REDUCE
        else:
            s = RETURN
        out[n] = s
    return out


def gradient_values(graph, weights, stages):
    """For each weight, the Value holding the gradient the optimizer read (None if it was not updated).

    Found from structure, the same way in both modes: start at the optimizer node(s) that write the weight
    (``Assign(weight, ...)``, ``ApplyMomentum(weight, ...)``), walk back through the optimizer's own nodes, and
    stop at the first values made outside the optimizer. Of those, the gradient is the one made by a backward (or
    grad-reduce) node with the weight's shape; if several qualify, the one nearest the update. (``grad_of`` does
    not settle it alone: it names the forward node, not which of its inputs the gradient is for, and PYNATIVE
    tapes do not set it.)
    Updates inside an If (``if state: self.opt(grads)``) count too: a branch's input is the value the If passed in.
    """
    by_param, outer = {}, _outer_values(graph)
    for n in _all_nodes(graph):
        if n.phase == OPTIMIZER and n.written_parameter is not None:
            by_param.setdefault(id(n.written_parameter.handle), []).append(n)
    out = []
    for w in weights:
        found, seen = None, set()
        frontier = list(by_param.get(id(w), []))
        while frontier and found is None:
            nxt = []
            for n in frontier:
                for v in n.inputs:
                    while v in outer:  # a branch's input: the value outside that the If passed in
                        v = outer[v]
                    m = _producer(v)
                    if m is None or m in seen:
                        continue
                    seen.add(m)
                    if m.phase == OPTIMIZER:
                        nxt.append(m)
                    elif stages.get(m) in (BACKWARD_S, GRAD_REDUCE) and tuple(v.shape) == tuple(w.shape):
                        found = v
                        break
                if found is not None:
                    break
            frontier = nxt
        out.append(found)
    return out


def output_gradient_value(graph, node, stages):
    """The Value holding d(loss)/d(node's output) (its ``dout``), or None.

    A backward node generated from ``node`` (``grad_of`` is node) reads dout: the input of the right shape
    made outside node's own bprop, by an earlier backward node or by the sens stage. PYNATIVE tapes do not
    set ``grad_of``, so there only parameters have gradients.
    """
    own = [n for n in graph.nodes if n.grad_of is node]
    mine = set(own)
    for n in own:
        for v in n.inputs:
            m = _producer(v)
            if m is not None and m not in mine and stages.get(m) in (BACKWARD_S, SENS, GRAD_REDUCE) \
                    and tuple(v.shape) == tuple(node.out.shape):
                return v
    return None
