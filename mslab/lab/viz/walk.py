"""Graph -> view model: the boxes, arrows and frames a picture shows, as plain data (no drawing).

Walking is separate from drawing (micrograd's habit): ``walk(graph)`` returns a ``View`` of nodes,
edges and clusters; ``mslab.lab.viz.dot`` turns a View into DOT text.

* Every node, cluster and edge has a stable key built from IR names (``%7``, ``param:fc1.weight``,
  ``network/_backbone/relu#2``), never from ids or addresses, so one network gives one picture.
* Nodes are framed by the Cell scope they ran in. A Cell called several times (one ``nn.ReLU`` used
  after every layer) gets one frame per call, numbered ``relu #1``, ``relu #2``, ...
* Backward nodes sit in a ``backward`` frame, grouped by the forward Cell they are the gradient of
  (``∇ fc1``): seed 004's "hidden Cell" that autodiff adds after the forward graph.
* Optimizer nodes are grouped per update (``update fc1.weight``): one small chain per parameter.
* ``collapse_depth`` folds every Cell scope at that depth into one box per call, labelled with
  its scope and op count; edges into and out of a box keep their shapes. ``"leaves"`` folds the
  innermost Cells (conv1, fc1, ...); ``"auto"`` does that for graphs of more than
  ``AUTO_COLLAPSE_OVER`` nodes and shows every op of smaller ones; ``None`` never folds.
* ``expand`` / ``collapse`` (sets of frame keys such as ``network/_backbone/fc1`` or ``relu#2``, the
  keys of ``ViewCluster`` and of boxes without their ``box:``) override that rule per Cell call: a
  collapsed Cell is folded into one box whatever the depth, an expanded one opens one level (its
  inner Cells fold as the depth says when they are deeper than it, or stay open). Backward frames
  (``∇ fc1``) follow their forward Cell; an optimizer update (``<scope>/update:<param>``) can be
  expanded or collapsed too.
* ``phases`` keeps only some phases; values made by hidden nodes appear as faded stubs.
"""
from dataclasses import dataclass, field

from mslab.ir.graph import BACKWARD, OPTIMIZER, Value

INPUT, PARAM, CONST, OUTPUT, HIDDEN = "input", "parameter", "constant", "output", "hidden"
AUTO_COLLAPSE_OVER = 12  # LeNet's 17 forward ops fold into its layers; a Dense + loss stays op by op
GRAD = "\u2207"  # the nabla sign of a gradient frame: "∇ fc1"


@dataclass
class ViewNode:
    """One box of the picture: an op, a collapsed Cell call, a graph input, parameter, constant,
    output, or a stub for a value whose node is hidden by the phase filter."""

    key: str
    kind: str  # a phase (forward/backward/optimizer/other) or input/parameter/constant/output/hidden
    title: str
    lines: list = field(default_factory=list)
    tooltip: str = ""
    cluster: str = None
    ops: int = 1
    collapsed: bool = False
    members: tuple = ()  # IR names of the nodes it stands for


@dataclass
class ViewEdge:
    """An arrow: ``kind`` is "data" (label = the value's type), "grad_of" (backward -> forward),
    "assign" (an optimizer update writing a parameter) or "control" (Depend: run this first)."""

    src: str
    dst: str
    label: str = ""
    kind: str = "data"


@dataclass
class ViewCluster:
    """A frame around the nodes of one Cell call (or the backward / one optimizer update)."""

    key: str
    label: str
    parent: str = None
    kind: str = "scope"  # scope | backward | optimizer
    tooltip: str = ""


@dataclass
class View:
    name: str
    nodes: list
    edges: list
    clusters: list
    phases: tuple
    collapse: object = None
    lanes: list = field(default_factory=list)  # layout hint: keys topping the forward/backward/optimizer columns

    def node(self, key):
        for n in self.nodes:
            if n.key == key:
                return n
        raise KeyError(key)

    def kinds(self):
        """How many view nodes of each kind: ``{"forward": 9, "parameter": 8, ...}``."""
        out = {}
        for n in self.nodes:
            out[n.kind] = out.get(n.kind, 0) + 1
        return out


@dataclass
class _Level:
    key: str
    label: str
    tooltip: str
    kind: str = "scope"


def _scope_levels(graph):
    """For each non-backward node, its Cell-call levels from outermost to innermost.

    A new call of scope ``s`` starts whenever a node in ``s`` follows a node outside ``s``.
    """
    counts, per_node, prev = {}, {}, set()
    order = [n for n in graph.nodes if n.phase != BACKWARD]
    for n in order:
        parts = n.scope.split("/") if n.scope else []
        prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
        calls = []
        for p in prefixes:
            if p not in prev:
                counts[p] = counts.get(p, 0) + 1
            calls.append(counts[p])
        per_node[n] = list(zip(prefixes, calls))
        prev = set(prefixes)
    levels = {}
    for n, pcs in per_node.items():
        lv = []
        for p, c in pcs:
            many = counts[p] > 1
            key = f"{p}#{c}" if many else p
            label = p.rsplit("/", 1)[-1] + (f" #{c}" if many else "")
            tip = f"Cell scope {p}" + (f" (call {c} of {counts[p]})" if many else "")
            lv.append(_Level(key, label, tip))
        levels[n] = lv
    return levels


def _update_groups(graph):
    """Optimizer nodes split into connected chains; each named after the parameter it assigns."""
    opt = [n for n in graph.nodes if n.phase == OPTIMIZER]
    parent = {n: n for n in opt}

    def find(n):
        while parent[n] is not n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    for n in opt:
        for v in n.inputs:
            if type(v) is Value and v.kind == "node" and v.node in parent:
                parent[find(n)] = find(v.node)
    members = {}
    for n in opt:
        members.setdefault(find(n), []).append(n)
    group = {}
    for ms in members.values():
        written = [n.inputs[0].name for n in ms if n.prim.side_effect and n.inputs
                   and type(n.inputs[0]) is Value and n.inputs[0].kind == "param"]
        name = min(written, key=lambda s: (len(s), s)) if written else ms[0].out.name
        for n in ms:
            group[n] = name
    return group


def _leaf_scopes(graph):
    scopes = {n.scope for n in graph.nodes if n.scope and n.phase != BACKWARD}
    return {s for s in scopes if not any(o.startswith(s + "/") for o in scopes)}


def _box_len(levels, scope, collapse, leaves, expand=frozenset(), fold=frozenset()):
    """How many scope levels stay frames before the rest folds into a box (None: no box).

    ``collapse`` is the depth rule; ``expand`` / ``fold`` hold level keys that override it.
    """
    if not levels:
        return None
    base = None  # index of the level the depth rule folds at
    if collapse == "leaves":
        base = len(levels) - 1 if scope in leaves else None
    elif collapse is not None:
        d = int(collapse)
        base = d - 1 if 1 <= d <= len(levels) else None
    if not expand and not fold:
        return None if base is None else base + 1
    for i, lv in enumerate(levels):
        if lv.key in fold or (base is not None and i >= base and lv.key not in expand):
            return i + 1
    return None


def _op_summary(nodes):
    ops = []
    for n in nodes:
        if not ops or ops[-1] != n.op:
            ops.append(n.op)
    text = " \u2192 ".join(ops[:3]) + (" \u2192 \u2026" if len(ops) > 3 else "")
    return text


def _node_tooltip(n):
    parts = [f"{n.out.name} = {n.op} : {n.out.type_str}", f"phase: {n.phase}"]
    if n.grad_of is not None:
        parts.append(f"grad of {n.grad_of.out.name} {n.grad_of.op}")
    parts.append(f"scope: {n.scope or '(top level)'}")
    if n.source:
        parts.append(f"source: {n.source}")
    attrs = ", ".join(f"{k}={v!r}" for k, v in n.prim.attrs.items())
    if attrs:
        parts.append(f"attrs: {attrs}")
    return "\n".join(parts)


def walk(graph, phases=None, collapse_depth="auto", grad_edges=False, constants=True, output_names=None,
         expand=frozenset(), collapse=frozenset()):
    """The view model of ``graph`` (a Graph, or anything with a ``.graph`` such as a Tape).

    ``output_names`` titles the output ovals (e.g. ``grad fc1.weight``) instead of ``output 0``, ...
    ``expand`` / ``collapse``: frame keys (``fc1``, ``network/_backbone/relu#2``) to open or fold
    whatever ``collapse_depth`` says (``collapse`` wins when a key is in both).
    """
    fold = frozenset(collapse or ())
    expand = frozenset(expand or ()) - fold
    graph = getattr(graph, "graph", graph)
    if isinstance(phases, str):
        phases = (phases,)
    shown = [n for n in graph.nodes if phases is None or n.phase in phases]
    shown_set = set(shown)
    in_graph = set(graph.nodes)
    collapse = collapse_depth
    if collapse == "auto":
        collapse = "leaves" if len(shown) > AUTO_COLLAPSE_OVER else None
    if collapse not in (None, "leaves"):
        collapse = int(collapse)

    levels = _scope_levels(graph)
    leaves = _leaf_scopes(graph)
    updates = _update_groups(graph)
    bw_root = _Level("backward", "backward (generated by autodiff)",
                     "Backward nodes, derived by autodiff from the forward graph's structure", BACKWARD)

    def place(n):
        """(frame levels, box level or None) for node n."""
        if n.phase == BACKWARD:
            f = n.grad_of
            if f is None or not f.scope:
                return [bw_root], None
            flv = levels.get(f) or [_Level(f.scope, f.scope.rsplit("/", 1)[-1], f"Cell scope {f.scope}")]
            k = _box_len(flv, f.scope, collapse, leaves, expand, fold)
            src = flv[k - 1] if k else flv[-1]
            mirror = _Level(GRAD + src.key, f"{GRAD} {src.label}", f"gradient of {src.tooltip}", BACKWARD)
            return ([bw_root], mirror) if k else ([bw_root, mirror], None)
        lv = levels.get(n, [])
        k = _box_len(lv, n.scope, collapse, leaves, expand, fold)
        frames, box = (lv[:k - 1], lv[k - 1]) if k else (lv, None)
        if n.phase == OPTIMIZER:
            name = updates[n]
            base = box.key if box else (lv[-1].key if lv else "")
            upd = _Level(f"{base}/update:{name}", f"update {name}", f"optimizer update of {name}", OPTIMIZER)
            if box is not None and box.key in fold:
                return frames, box  # the learner folded the optimizer's Cell: all its updates in one box
            if box is not None and upd.key not in expand:
                return frames + [box], upd
            if box is None and upd.key in fold:
                return frames, upd
            return frames + ([box] if box is not None else []) + [upd], None
        return frames, box

    placed = {n: place(n) for n in shown}
    box_members = {}
    for n in shown:
        box = placed[n][1]
        if box is not None:
            box_members.setdefault(box.key, []).append(n)

    # Optimizer state (moments, learning rate, ...) read only inside collapsed update boxes is folded
    # into those boxes: otherwise a dozen long arrows hide the few that matter (gradient in, weight out).
    users = {}
    for n in shown:
        for v in n.inputs:
            if type(v) is Value and v.kind in ("param", "const"):
                users.setdefault(v, []).append(n)
    absorbed = {}
    for v, us in users.items():
        if v in graph.outputs or not all(u.phase == OPTIMIZER and placed[u][1] is not None
                                         and len(box_members[placed[u][1].key]) > 1 for u in us):
            continue
        absorbed[v] = True
    state_of = {}
    for v in absorbed:
        for u in users[v]:
            names = state_of.setdefault(placed[u][1].key, [])
            if v.name not in names and v.kind == "param":
                names.append(v.name)

    nodes, by_key, clusters, cl_keys = [], {}, [], set()

    def add_node(vn):
        if vn.key not in by_key:
            by_key[vn.key] = vn
            nodes.append(vn)
        return vn.key

    def frame_key(frames, phase):
        for i, lv in enumerate(frames):
            if lv.key not in cl_keys:
                cl_keys.add(lv.key)
                kind = OPTIMIZER if lv.kind == "scope" and phase == OPTIMIZER else lv.kind
                clusters.append(ViewCluster(lv.key, lv.label, frames[i - 1].key if i else None, kind, lv.tooltip))
        return frames[-1].key if frames else None

    def rep(n):
        """Key of the view node that shows node n (its box, itself, or a hidden stub)."""
        if n in shown_set:
            box = placed[n][1]
            return "box:" + box.key if box is not None and len(box_members[box.key]) > 1 else n.out.name
        key = "hidden:" + n.out.name
        if key not in by_key:
            add_node(ViewNode(key, HIDDEN, f"{n.out.name} {n.op}", [n.out.type_str, f"({n.phase}, not shown)"],
                              _node_tooltip(n)))
        return key

    def value_rep(v):
        if v.kind == "node":
            return rep(v.node)
        key = f"{v.kind}:{v.name}"
        if key not in by_key:
            kind = {"input": INPUT, "param": PARAM, "const": CONST}[v.kind]
            title = v.name
            if v.kind == "const" and v.array is not None and v.array.size == 1:
                title = repr(v.array.item())
            tip = {"input": "graph input", "param": "Parameter (a weight the optimizer updates)",
                   "const": "constant"}[v.kind]
            add_node(ViewNode(key, kind, title, [v.type_str], f"{v.name} : {v.type_str}\n{tip}"))
        return key

    # Op nodes and boxes, in run order (inputs, parameters and constants are placed as first used).
    for v in graph.inputs:
        if any(v is x for n in shown for x in n.inputs) or v in graph.outputs:
            value_rep(v)
    for n in shown:
        frames, box = placed[n]
        cluster = frame_key(frames, n.phase)
        if box is not None and len(box_members[box.key]) > 1:
            key = "box:" + box.key
            if key not in by_key:
                ms = box_members[box.key]
                tip = [box.tooltip, f"{len(ms)} ops, collapsed:"] + [
                    f"  {m.out.name} = {m.op} : {m.out.type_str}   {m.source}" for m in ms]
                lines = [f"{len(ms)} ops: {_op_summary(ms)}"]
                if state_of.get(box.key):
                    lines.append("with " + ", ".join(state_of[box.key]))
                    tip.append("optimizer state inside: " + ", ".join(state_of[box.key]))
                add_node(ViewNode(key, ms[0].phase, box.label, lines,
                                  "\n".join(tip), cluster, len(ms), True, tuple(m.out.name for m in ms)))
            continue
        lines = [n.out.type_str]
        if box is not None and n.phase != BACKWARD:  # a one-op Cell call: add the Cell's name if it says more
            if box.label.split(" ")[0].replace("_", "").lower() != n.op.lower():
                lines.insert(0, box.label)
        if n.grad_of is not None:
            lines.append(f"grad of {n.grad_of.out.name} {n.grad_of.op}"
                         + ("" if n.grad_of in in_graph else " (pruned)"))
        add_node(ViewNode(n.out.name, n.phase, n.op, lines, _node_tooltip(n), cluster,
                          members=(n.out.name,)))

    edges, seen = [], set()

    def add_edge(e):
        k = (e.src, e.dst, e.label, e.kind)
        if k not in seen:
            seen.add(k)
            edges.append(e)

    for n in shown:
        dst = rep(n)
        for i, v in enumerate(n.inputs):
            if type(v) is not Value or (v.kind == "const" and not constants) or v in absorbed:
                continue
            src = value_rep(v)
            if src == dst:
                continue
            if i == 0 and n.prim.side_effect and v.kind == "param":
                add_edge(ViewEdge(dst, src, "assign", "assign"))
            elif n.op == "Depend" and i > 0:
                add_edge(ViewEdge(src, dst, "", "control"))
            else:
                add_edge(ViewEdge(src, dst, v.type_str))
        if grad_edges and n.grad_of is not None and n.grad_of in shown_set:
            src, fwd = dst, rep(n.grad_of)
            if src != fwd:
                add_edge(ViewEdge(src, fwd, "", "grad_of"))
    for i, v in enumerate(graph.outputs):
        if v.kind == "node" and v.node not in shown_set:
            continue
        key = f"output:{i}"
        title = "output" if len(graph.outputs) == 1 else f"output {i}"
        if output_names and i < len(output_names):
            title = output_names[i]
        add_node(ViewNode(key, OUTPUT, title, [v.type_str],
                          f"graph output {i}: {v.name} : {v.type_str}"))
        add_edge(ViewEdge(value_rep(v), key, v.type_str))

    # Layout hint: the phases as columns, left to right, each anchored at the node that tops it
    # (the backward pass climbs back up, so its top is its last node).
    lanes = []
    for ph in ("forward", BACKWARD, OPTIMIZER):
        ns = [n for n in shown if n.phase == ph]
        if ns:
            lanes.append(rep(ns[-1] if ph == BACKWARD else ns[0]))
    if len(lanes) < 2:
        lanes = []

    # Stable order: inputs, parameters, constants first; then ops in run order; stubs; outputs.
    rank = {INPUT: 0, PARAM: 1, CONST: 2, HIDDEN: 3, OUTPUT: 5}
    nodes.sort(key=lambda vn: rank.get(vn.kind, 4))
    shown_phases = tuple(dict.fromkeys(n.phase for n in shown))
    return View(graph.name, nodes, edges, clusters, shown_phases, collapse, lanes)
