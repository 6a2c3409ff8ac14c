"""Control flow in a picture: an If, While or WhileGrad node drawn as a frame around its subgraphs.

A control-flow node (``mslab.autodiff.control_flow``) holds subgraphs: an If its ``then`` and ``else``
branches, a While its ``cond`` and ``body``, a While's backward (WhileGrad) its ``body backward``. The
picture shows each as a frame inside the node's own frame, drawn by the same walk as the whole graph
(so Cell frames, collapsing and nested control flow work inside a branch too), with:

* a box for the node itself (``If``, ``While``) that reads the condition, and arrows from it to the
  frames it chooses between (``true`` / ``false``, ``test``);
* arrows from the values outside into the subgraph's inputs (the values a branch reads);
* arrows from what a subgraph returns to the ``TupleGetItem`` nodes that pick the results outside;
* for a loop, arrows from the body's results back to its inputs (``next iteration``).

Every key inside a subgraph carries the subgraph's prefix (``%2[then]%0``; see ``mslab.lab.viz.keys``),
so the keys of one picture stay unique however deep the nesting.
"""
from dataclasses import dataclass, field

from mslab.ir.graph import Value
from mslab.lab.viz import keys
from mslab.lab.viz.view_model import OUTPUT, ViewCluster, ViewEdge, ViewNode

NOTE = "note"  # the kind of the "nothing runs here" note in an empty subgraph
# op -> (box subtitle, {subgraph label: label of the arrow from the box into that subgraph's frame})
_ROLES = {
    "If": ("true \u2192 then, false \u2192 else", {"then": "true", "else": "false"}),
    "While": ("test cond, run body while true", {"cond": "test"}),
    "WhileGrad": ("body backward, last iteration first", {"body backward": "each kept iteration"}),
}


def subgraphs(node):
    """The ``(label, Graph)`` pairs of a control-flow node (empty for any other node)."""
    return node.prim.subgraphs


@dataclass
class Drawn:
    """Where a drawn control-flow node's pieces are: its box, and per subgraph the keys of its inputs and
    of what makes each of its outputs."""

    box: str
    inputs: dict = field(default_factory=dict)  # label -> [key of input i, or None when not drawn]
    outputs: dict = field(default_factory=dict)  # label -> [key of the view node making output i]


def _feeds(node, sub):
    """Pairs ``(outer Value, sub input index)``: which outside value each subgraph input receives.

    Subgraph inputs take the node's tensor inputs in order, aligned at the end: an If's first input (the
    condition) is left to its box, a While's inputs map one to one. A WhileGrad's first input, the list of
    kept iterations, feeds the body's carried inputs (one kept iteration at a time), the others the rest.
    """
    outer = [v for v in node.inputs if type(v) is Value]
    pairs = []
    if node.op == "WhileGrad":  # (an iteration's kept values: carried values, then kept Parameters)
        offset = node.prim.n_carried + node.prim.n_copies
        pairs = [(outer[0], j) for j in range(offset)]
        outer = outer[1:]
    else:
        offset = 0
    m = min(len(outer), len(sub.inputs) - offset)
    lead = len(sub.inputs) - m
    return pairs + [(outer[len(outer) - m + i], lead + i) for i in range(m)]


def _loop_pairs(node, label, sub):
    """``(output index, input index)`` pairs a loop subgraph hands back to itself for the next iteration."""
    prim = node.prim
    if label == "body":  # a While's body
        return [(i, i) for i in range(prim.n_carried)]
    if label == "body backward":  # a WhileGrad's: d(carried) of one iteration is the dout of the iteration before it
        k, r = prim.n_carried, prim.n_rest
        return [(i, k + prim.n_copies + r + i) for i in range(k)]
    return []


def _source_text(node):
    """The code line of a node's source (``if x.sum() > 0:``), or its file position when that is all there is."""
    src = node.source or ""
    _, _, code = src.partition("  ")
    return code.strip() or src


def draw(walk, node, cluster, walk_sub):
    """Add control-flow ``node`` to ``walk`` inside frame ``cluster``: its frame, box and subgraphs.

    ``walk_sub(node, graph, prefix)`` walks one subgraph into a View whose keys start with ``prefix``.
    Returns the ``Drawn`` record the arrows into and out of the node are made from.
    """
    key = walk.key_of(node)
    frame = keys.control_frame(key, node.op)
    code = _source_text(node)
    walk.add_cluster(ViewCluster(frame, f"{node.op} {node.out.name}" + (f":  {code}" if code else ""), cluster,
                                 "control", f"{node.op} {node.out.name}  {node.source}".strip()))
    subtitle, arrows = _ROLES.get(node.op, ("", {}))
    walk.add_view_node(ViewNode(key, walk.kind_of(node), node.op, [subtitle] if subtitle else [],
                                walk.tooltip(node), frame, members=(key,)))
    drawn = Drawn(key)
    for label, sub in subgraphs(node):
        prefix = keys.sub_prefix(key, label)
        walk.add_cluster(ViewCluster(prefix, label, frame, "branch", f"{label}: graph {sub.name}"))
        view = walk_sub(node, sub, prefix)
        outs = {}
        for e in view.edges:  # the sub-walk's output ovals are dropped: their arrows say what makes each output
            kind, i = keys.parse(keys.split_sub(e.dst)[1])
            if kind == OUTPUT:
                outs[i] = e.src
        nodes = [vn for vn in view.nodes if vn.kind != OUTPUT]
        for vn in nodes:
            walk.add_view_node(vn if vn.cluster else _in(vn, prefix))
        for c in view.clusters:
            walk.add_cluster(c if c.parent else ViewCluster(c.key, c.label, prefix, c.kind, c.tooltip))
        for e in view.edges:
            if keys.parse(keys.split_sub(e.dst)[1])[0] != OUTPUT:
                walk.add_edge(e)
        have = {vn.key for vn in nodes}
        ins = [prefix + keys.value_key(v) for v in sub.inputs]
        drawn.inputs[label] = [k if k in have else None for k in ins]
        drawn.outputs[label] = [outs.get(i) for i in range(len(sub.outputs))]
        entry = next((vn.key for vn in nodes), None)
        if entry is None:  # an empty branch (`else: pass`) still shows that nothing runs there
            entry = walk.add_view_node(ViewNode(prefix + "note", NOTE, "nothing runs", [], f"{label} is empty",
                                                prefix))
        if label in arrows:
            walk.add_edge(ViewEdge(key, entry, arrows[label], "branch", lhead=prefix))
        for i, j in _loop_pairs(node, label, sub):
            src, dst = drawn.outputs[label][i], drawn.inputs[label][j]
            if src is not None and dst is not None:
                walk.add_edge(ViewEdge(src, dst, "next iteration", "loop"))
    _cond_to_body(walk, drawn)
    return drawn


def _in(vn, frame):
    vn.cluster = frame
    return vn


def _cond_to_body(walk, drawn):
    """A While's condition output decides whether its body runs: an arrow from it into the body's frame."""
    cond, body = drawn.outputs.get("cond"), drawn.inputs.get("body")
    if cond and cond[0] is not None and body is not None:
        entry = next((k for k in body if k is not None), None) or next(
            (vn.key for vn in walk.nodes if vn.cluster == keys.sub_prefix(drawn.box, "body")), None)
        if entry is not None:
            walk.add_edge(ViewEdge(cond[0], entry, "true", "branch", lhead=keys.sub_prefix(drawn.box, "body")))


def edges_into(walk, node, drawn, constants):
    """The arrows from outside values into a drawn control-flow node: into each subgraph input it feeds, and
    into its box for what no subgraph reads (an If's condition, values only the other branch reads)."""
    used = set()
    for label, sub in subgraphs(node):
        for v, j in _feeds(node, sub):
            dst = drawn.inputs[label][j]
            if dst is not None and (v.kind != "const" or constants):
                used.add(id(v))
                walk.add_edge(ViewEdge(walk.value_rep(v), dst, "kept" if v.dtype.kind == "O" else v.type_str))
    for v in node.inputs:
        if type(v) is Value and id(v) not in used and (v.kind != "const" or constants):
            walk.add_edge(ViewEdge(walk.value_rep(v), drawn.box, v.type_str))


def edges_out(walk, getitem, drawn, dst):
    """The arrows into a TupleGetItem of a drawn control-flow node: from what each subgraph returns at its
    index (both branches of an If; a loop's body); from the box for what no subgraph returns."""
    i = getitem.prim.attrs.get("index")
    srcs = [outs[i] for label, outs in drawn.outputs.items() if label != "cond" and i < len(outs)
            and outs[i] is not None]
    for s in srcs:
        walk.add_edge(ViewEdge(s, dst, getitem.out.type_str))
    if not srcs:
        walk.add_edge(ViewEdge(drawn.box, dst, getitem.out.type_str))


def prefixed(view, prefix):
    """The View of a subgraph with every key behind ``prefix`` (its own frames and nested subgraphs too)."""
    for vn in view.nodes:
        vn.key, vn.members = prefix + vn.key, tuple(prefix + m for m in vn.members)
        vn.cluster = prefix + vn.cluster if vn.cluster else None
    for c in view.clusters:
        c.key, c.parent = prefix + c.key, (prefix + c.parent if c.parent else None)
    for e in view.edges:
        e.src, e.dst = prefix + e.src, prefix + e.dst
        e.lhead = prefix + e.lhead if e.lhead else None
    return view


def prefixes(graph):
    """``id(graph) -> key prefix`` for ``graph`` and every subgraph nested in it: where a subgraph's nodes
    are in a picture of ``graph`` (``node_key = prefixes[id(v.owner)] + keys.value_key(v)``)."""
    return {id(g): p for p, g in nested_graphs(graph)}


def nested_graphs(graph, prefix=""):
    """``(prefix, graph)`` for ``graph`` and every subgraph nested in it, outermost first."""
    yield prefix, graph
    for n in graph.nodes:
        for label, sub in subgraphs(n):
            yield from nested_graphs(sub, keys.sub_prefix(prefix + keys.node_key(n.out.name), label))
