"""Graph passes run before a graph is compiled: common-subexpression elimination and dead-code removal.

Why CSE matters here: a training step written the MindSpore way calls the network once for the loss
and once more inside ``GradOperation`` (the TrainOneStepCell of MindSpore's documentation); tracing records the forward
twice and CSE merges the copies, as MindSpore's compiler does. (mslab's own ``nn.TrainOneStepCell``
records its forward once.) Ops with side effects (Assign, a BatchNorm's moving averages) are never
merged or removed, and a node that reads a Parameter is only merged with one that read it after the
same number of writes. Subgraphs of control-flow nodes are optimized too.
"""
from mslab.core.freeze import freeze
from mslab.ir.graph import OPTIMIZER, Value, ValueKind


def cse(graph):
    """Merge nodes that apply the same op, with the same attributes, to the same values."""
    seen = {}
    replace = {}
    writes = 0
    kept = []
    for n in graph.nodes:
        n.inputs = [replace.get(v, v) if type(v) is Value else v for v in n.inputs]
        if n.grad_of is not None and n.grad_of.out in replace:
            n.grad_of = replace[n.grad_of.out].node
        if n.prim.side_effect:
            writes += 1
            kept.append(n)
            continue
        if not n.prim.deterministic:
            kept.append(n)
            continue
        reads_param = any(type(v) is Value and v.kind == ValueKind.PARAM for v in n.inputs)
        try:
            key = (n.prim.key(), n.phase == OPTIMIZER,
                   tuple(v if type(v) is Value else freeze(v) for v in n.inputs),
                   writes if reads_param else None)
            first = seen.get(key)
        except TypeError:  # an attribute or constant input with no frozen form: leave this node alone
            kept.append(n)
            continue
        if first is None:
            seen[key] = n
            kept.append(n)
        else:
            replace[n.out] = first.out
    graph.nodes = kept
    graph.outputs = [replace.get(v, v) for v in graph.outputs]
    return graph


def dce(graph):
    """Remove nodes whose results nobody uses (side-effecting nodes always stay)."""
    live = set(graph.outputs)
    kept = []
    for n in reversed(graph.nodes):
        if n.prim.side_effect or n.out in live:
            kept.append(n)
            for v in n.inputs:
                if type(v) is Value:
                    live.add(v)
    kept.reverse()
    graph.nodes = kept
    used = live
    graph.params = [p for p in graph.params if p in used]
    graph.consts = [c for c in graph.consts if c in used]
    return graph


# The passes ``optimize`` runs, in order, by name: what mslab.widgets.CompilePipeline replays stage by stage.
PIPELINE = (("cse", cse), ("dce", dce))


def optimize(graph):
    """The default pipeline: CSE, dead-code removal, then consecutive node names; subgraphs too."""
    for _, run_pass in PIPELINE:
        run_pass(graph)
    graph.renumber()
    for n in graph.nodes:
        for _, sub in n.prim.subgraphs:
            optimize(sub)  # a subgraph keeps its inputs: the node passes them all
    return graph
