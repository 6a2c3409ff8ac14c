"""Graph -> view model: which boxes, arrows and frames a picture of a graph shows.

Walking is separate from drawing (micrograd's habit): ``walk(graph)`` returns a ``View`` of nodes,
edges and clusters (``mslab.lab.viz.view_model``); ``mslab.lab.viz.dot`` turns a View into DOT text.

* Every node, cluster and edge has a stable key built from IR names (``%7``, ``param:fc1.weight``,
  ``network/_backbone/relu#2``; made by ``mslab.lab.viz.keys``), never from ids or addresses, so one
  network gives one picture.
* Nodes are framed by the Cell scope they ran in. A Cell called several times (one ``nn.ReLU`` used
  after every layer) gets one frame per call, numbered ``relu #1``, ``relu #2``, ...
* Backward nodes sit in a ``backward`` frame, grouped by the forward Cell they are the gradient of
  (``∇ fc1``): the invisible Cell of backward operators that MindSpore's autodiff adds after the forward graph
  (its migration guide's comparison of training with PyTorch and TensorFlow).
* Optimizer nodes are grouped per update (``update fc1.weight``): one small chain per parameter.
* ``collapse_depth`` folds every Cell scope at that depth into one box per call, labelled with
  its scope and op count; edges into and out of a box keep their shapes. ``"leaves"`` folds the
  innermost Cells (conv1, fc1, ...); ``"auto"`` does that for graphs of more than
  ``AUTO_COLLAPSE_OVER`` nodes (``mslab.lab.viz.reading``) and shows every op of smaller ones; ``None`` never folds.
* ``expand`` / ``collapse`` (sets of frame keys such as ``network/_backbone/fc1`` or ``relu#2``, the
  keys of ``ViewCluster`` and of boxes without their ``box:``) override that rule per Cell call: a
  collapsed Cell is folded into one box whatever the depth, an expanded one opens one level (its
  inner Cells fold as the depth says when they are deeper than it, or stay open). Backward frames
  (``∇ fc1``) follow their forward Cell; an optimizer update (``<scope>/update:<param>``) can be
  expanded or collapsed too.
* ``phases`` keeps only some phases; values made by hidden nodes appear as faded stubs.
* A control-flow node (If, While) is a frame around its subgraphs, each walked like a graph of its own
  (``mslab.lab.viz.subgraphs``); ops that run on the host (JIT Fallback) have the ``host`` kind.
"""

from mslab.ir.graph import BACKWARD, OPTIMIZER, Value
from mslab.lab.viz import keys, repeats, subgraphs
from mslab.lab.viz.reading import (
    BACKWARD_ROOT,
    Level,
    collapse_rule,
    is_host,
    leaf_scopes,
    node_tooltip,
    op_summary,
    scope_levels,
    update_groups,
)
from mslab.lab.viz.view_model import (
    CONST,
    HIDDEN,
    HOST,
    INPUT,
    OUTPUT,
    PARAM,
    View,
    ViewCluster,
    ViewEdge,
    ViewNode,
)

GRAD = keys.GRAD  # the nabla sign of a gradient frame: "∇ fc1"
_VALUE_KINDS = {"input": INPUT, "param": PARAM, "const": CONST}
_VALUE_TIPS = {"input": "graph input", "param": "Parameter (a weight the optimizer updates)", "const": "constant"}
TOOLTIP_OPS = 40  # ops a box's tooltip lists
_RANK = {INPUT: 0, PARAM: 1, CONST: 2, HIDDEN: 3, OUTPUT: 5}  # view order: values, ops (4), stubs, outputs


def walk(graph, phases=None, collapse_depth="auto", grad_edges=False, constants=True, output_names=None,
         expand=frozenset(), collapse=frozenset()):
    """The view model of ``graph`` (a Graph, or anything with a ``.graph`` such as a Tape).

    ``output_names`` titles the output ovals (e.g. ``grad fc1.weight``) instead of ``output 0``, ...
    ``expand`` / ``collapse``: frame keys (``fc1``, ``network/_backbone/relu#2``) to open or fold
    whatever ``collapse_depth`` says (``collapse`` wins when a key is in both).
    """
    return _Walk(graph, phases, collapse_depth, expand, collapse).view(grad_edges, constants, output_names)


class _Walk:
    """One walk of one graph: first where each shown node goes (placing), then the View it adds up to (drawing).

    Placing gives every shown node ``(frames, box)``: the frame levels around it and the Cell call (or update)
    it folds into, None if it stays an op of its own. A box of one op is drawn as that op.
    """

    def __init__(self, graph, phases, collapse_depth, expand, collapse, nested=None):
        self.nested, self.depth = nested, collapse_depth  # nested: the control-flow node a subgraph belongs to
        self.controls = {}  # control-flow node -> subgraphs.Drawn
        self.fold = frozenset(collapse or ())
        self.expand = frozenset(expand or ()) - self.fold
        self.graph = getattr(graph, "graph", graph)
        if isinstance(phases, str):
            phases = (phases,)
        self.shown = [n for n in self.graph.nodes if phases is None or n.phase in phases]
        self.shown_set = set(self.shown)
        self.in_graph = set(self.graph.nodes)
        self.collapse = collapse_rule(collapse_depth, len(self.shown))
        self.levels = scope_levels(self.graph, nested.scope if nested is not None and nested.scope else "")
        self.repeated = set()  # keys of repeat boxes in force (mslab.lab.viz.repeats): a folding graph only
        if self.collapse is not None:
            self.levels, self.repeated = repeats.substitute(self.levels, repeats.repeat_groups(self.levels),
                                                            self.expand)
        self.leaves = leaf_scopes(self.graph)
        self.updates = update_groups(self.graph)
        self.many_updates = self.collapse is not None and len(set(self.updates.values())) > repeats.MANY_UPDATES
        self.placed = {n: self._place(n) for n in self.shown}
        self.box_members = self._group_boxes()
        self.absorbed, self.state_of = self._absorb_optimizer_state()
        self.nodes, self.by_key, self.clusters, self.edges = [], {}, [], []
        self._cluster_keys, self._edge_keys = set(), set()

    # ---- placing ---------------------------------------------------------------------------------
    def _fold_at(self, levels, scope):
        """How many of ``levels`` stay frames before the rest folds into a box (None: no box).

        The depth rule says where Cells fold; ``expand`` / ``fold`` hold level keys that override it.
        """
        if not levels:
            return None
        k = self._depth_fold(levels, scope)
        # a repeat box folds whatever the depth says, unless the depth folds an outer Cell already
        rep = next((i + 1 for i, lv in enumerate(levels) if lv.key in self.repeated), None)
        return rep if rep is not None and (k is None or rep < k) else k

    def _depth_fold(self, levels, scope):
        base = None  # index of the level the depth rule folds at
        if self.collapse == "leaves":
            base = len(levels) - 1 if scope in self.leaves else None
        elif self.collapse is not None:
            d = int(self.collapse)
            base = d - 1 if 1 <= d <= len(levels) else None
        if not self.expand and not self.fold:
            return None if base is None else base + 1
        for i, lv in enumerate(levels):
            if lv.key in self.fold or (base is not None and i >= base and lv.key not in self.expand):
                return i + 1
        return None

    def _place(self, n):
        """``(frame levels, box level or None)`` for node ``n``."""
        if n.phase == BACKWARD:
            frames, box = self._place_backward(n)
            # inside a subgraph the enclosing picture already frames the backward pass
            return ([f for f in frames if f is not BACKWARD_ROOT] if self.nested is not None else frames), box
        lv = self.levels.get(n, [])
        k = self._fold_at(lv, n.scope)
        frames, box = (lv[:k - 1], lv[k - 1]) if k else (lv, None)
        if n.phase == OPTIMIZER:
            return self._place_update(n, lv, frames, box)
        return frames, box

    def _place_backward(self, n):
        """A backward node goes in the backward frame, inside the mirror (``∇ fc1``) of its forward Cell call."""
        f = n.grad_of
        if f is None or not f.scope:
            return [BACKWARD_ROOT], None
        flv = self.levels.get(f) or [Level(keys.scope_frame(f.scope), f.scope.rsplit("/", 1)[-1],
                                            f"Cell scope {f.scope}")]
        k = self._fold_at(flv, f.scope)
        src = flv[k - 1] if k else flv[-1]
        mirror = Level(keys.grad_frame(src.key), f"{GRAD} {src.label}", f"gradient of {src.tooltip}", BACKWARD)
        return ([BACKWARD_ROOT], mirror) if k else ([BACKWARD_ROOT, mirror], None)

    def _place_update(self, n, levels, frames, box):
        """An optimizer node goes in the update of the parameter its chain writes (a frame, or a box when folded)."""
        name = self.updates[n]
        base = box.key if box else (levels[-1].key if levels else "")
        upd = Level(keys.update_frame(base, name), f"update {name}", f"optimizer update of {name}", OPTIMIZER)
        if box is not None and (box.key in self.fold or (self.many_updates and box.key not in self.expand)):
            return frames, box  # the learner folded the optimizer's Cell (or it has many updates): one box
        if box is not None and upd.key not in self.expand:
            return frames + [box], upd
        if box is None and upd.key in self.fold:
            return frames, upd
        return frames + ([box] if box is not None else []) + [upd], None

    def _group_boxes(self):
        """Box level key -> the shown nodes folded into it, in run order."""
        members = {}
        for n in self.shown:
            box = self.placed[n][1]
            if box is not None:
                members.setdefault(box.key, []).append(n)
        return members

    def _drawn_box(self, n):
        """The box level node ``n`` is drawn as, or None when it is drawn as itself (a box of one op is the op)."""
        box = self.placed[n][1]
        return box if box is not None and len(self.box_members[box.key]) > 1 else None

    def _absorb_optimizer_state(self):
        """Parameters and constants read only inside collapsed update or repeat boxes, and each box's state.

        Optimizer state (moments, learning rate, ...) is folded into those boxes: otherwise a dozen long
        arrows hide the few that matter (gradient in, weight out). So are the weights of a repeat box
        (``0 … 599 ×300``): six hundred parameter boxes would be the whole picture.
        """
        users = {}
        for n in self.shown:
            for v in n.inputs:
                if type(v) is Value and v.kind in ("param", "const"):
                    users.setdefault(v, []).append(n)
        absorbed, state_of = set(), {}
        for v, us in users.items():
            if v in self.graph.outputs or not all(self._absorbs(u) for u in us):
                continue
            absorbed.add(v)
            for u in us:
                names = state_of.setdefault(self.placed[u][1].key, [])
                if v.name not in names and v.kind == "param":
                    names.append(v.name)
        return absorbed, state_of

    def _absorbs(self, n):
        """Whether node ``n`` swallows the parameters it reads: drawn in an update or repeat box, or a folded update
        of one op (an optimizer's ``ApplyMomentum``, drawn as itself)."""
        box = self._drawn_box(n)
        if box is None:
            return n.phase == OPTIMIZER and self.placed[n][1] is not None
        return n.phase == OPTIMIZER or keys.cell_frame(box.key) in self.repeated

    # ---- drawing ---------------------------------------------------------------------------------
    def view(self, grad_edges, constants, output_names):
        """The View: inputs, ops and boxes in run order, the arrows into them, outputs, then the layout hint."""
        for v in self.graph.inputs:  # placed first; parameters and constants appear where first read
            if any(v is x for n in self.shown for x in n.inputs) or v in self.graph.outputs:
                self._value_rep(v)
        for n in self.shown:
            self._add_op(n)
        for n in self.shown:
            self._add_edges_into(n, constants, grad_edges)
        self._add_outputs(output_names)
        lanes = self._lanes()
        self.nodes.sort(key=lambda vn: _RANK.get(vn.kind, 4))  # stable: run order within each rank
        shown_phases = tuple(dict.fromkeys(n.phase for n in self.shown))
        return View(self.graph.name, self.nodes, self.edges, self.clusters, shown_phases, self.collapse, lanes)

    def _add_node(self, vn):
        """Add a view node unless its key is there already; return the key."""
        if vn.key not in self.by_key:
            self.by_key[vn.key] = vn
            self.nodes.append(vn)
        return vn.key

    def _frame(self, frames, phase):
        """Add the frames not added yet (outermost first); return the innermost one's key (None: top level)."""
        for i, lv in enumerate(frames):
            if lv.key not in self._cluster_keys:
                self._cluster_keys.add(lv.key)
                kind = OPTIMIZER if lv.kind == "scope" and phase == OPTIMIZER else lv.kind
                self.clusters.append(ViewCluster(lv.key, lv.label, frames[i - 1].key if i else None, kind,
                                                 lv.tooltip))
        return frames[-1].key if frames else None

    def _rep(self, n):
        """Key of the view node that shows node ``n`` (its box, itself, or a hidden stub)."""
        if n in self.shown_set:
            box = self._drawn_box(n)
            return keys.box_key(box.key) if box is not None else keys.node_key(n.out.name)
        key = keys.hidden_key(n.out.name)
        if key not in self.by_key:
            self._add_node(ViewNode(key, HIDDEN, f"{n.out.name} {n.op}", [n.out.type_str, f"({n.phase}, not shown)"],
                                    node_tooltip(n)))
        return key

    def _value_rep(self, v):
        """Key of the view node that shows Value ``v``; an input, parameter or constant is added on first use."""
        if v.kind == "node":
            return self._rep(v.node)
        key = keys.value_key(v)
        if key not in self.by_key:
            title = v.name
            if v.kind == "const" and v.array is not None and v.array.size == 1:
                title = repr(v.array.item())
            self._add_node(ViewNode(key, _VALUE_KINDS[v.kind], title, [v.type_str],
                                    f"{v.name} : {v.type_str}\n{_VALUE_TIPS[v.kind]}"))
        return key

    def _add_op(self, n):
        """Add node ``n`` as an op of its own, or the collapsed box it is folded into (once per box)."""
        frames, box = self.placed[n]
        cluster = self._frame(frames, n.phase)
        if self._drawn_box(n) is not None:
            self._add_box(box, cluster)
            return
        if subgraphs.subgraphs(n):
            self.controls[n] = subgraphs.draw(self, n, cluster, self._walk_sub)
            return
        lines = [n.out.type_str]
        if box is not None and n.phase != BACKWARD:  # a one-op Cell call: add the Cell's name if it says more
            if box.label.split(" ")[0].replace("_", "").lower() != n.op.lower():
                lines.insert(0, box.label)
        state = self.state_of.get(box.key) if box is not None else None
        if state:  # a one-op update (ApplyMomentum): the optimizer state it reads and writes, folded in
            order = [v.name for v in n.inputs if type(v) is Value]
            state = sorted(state, key=lambda name: order.index(name) if name in order else len(order))
            lines.append("with " + (", ".join(state) if len(state) <= 3 else f"{len(state)} parameters"))
        if n.grad_of is not None:
            pruned = n.grad_of not in self.in_graph and self.nested is None  # a branch's: in the forward branch
            lines.append(f"grad of {n.grad_of.out.name} {n.grad_of.op}" + (" (pruned)" if pruned else ""))
        self._add_node(ViewNode(keys.node_key(n.out.name), self.kind_of(n), n.op, lines, node_tooltip(n), cluster,
                                members=(n.out.name,), communication=n.prim.communication))

    def _add_box(self, box, cluster):
        """Add the 3D box of a collapsed Cell call (or update): its op count, first ops and optimizer state."""
        key = keys.box_key(box.key)
        if key in self.by_key:
            return
        ms = self.box_members[box.key]
        tip = [box.tooltip, f"{len(ms)} ops, collapsed:"] + [
            f"  {m.out.name} = {m.op} : {m.out.type_str}   {m.source}" for m in ms[:TOOLTIP_OPS]]
        if len(ms) > TOOLTIP_OPS:  # a repeat box holds thousands: the tooltip (in every SVG) stays short
            tip.append(f"  ... and {len(ms) - TOOLTIP_OPS} more")
        lines = [f"{len(ms)} ops: {op_summary(ms)}"]
        state = self.state_of.get(box.key)
        if state:
            lines.append("with " + (", ".join(state) if len(state) <= 3 else f"{len(state)} parameters"))
            shown = ", ".join(state[:TOOLTIP_OPS])  # an optimizer box of 300 layers holds 900 state Parameters
            tip.append("optimizer state inside: " + shown + (f", ... and {len(state) - TOOLTIP_OPS} more"
                                                             if len(state) > TOOLTIP_OPS else ""))
        self._add_node(ViewNode(key, ms[0].phase, box.label, lines, "\n".join(tip), cluster, len(ms), True,
                                tuple(m.out.name for m in ms)))

    def _add_edge(self, e):
        """Add an arrow unless the same one is there already (a box's members share arrows)."""
        k = (e.src, e.dst, e.label, e.kind)
        if k not in self._edge_keys:
            self._edge_keys.add(k)
            self.edges.append(e)

    def _add_edges_into(self, n, constants, grad_edges):
        """The arrows into node ``n``'s view node: data, ``assign`` (reversed), ``control``, and ``grad_of``."""
        dst = self._rep(n)
        if n in self.controls:
            return subgraphs.edges_into(self, n, self.controls[n], constants)
        src_node = n.inputs[0].node if n.op == "TupleGetItem" and n.inputs[0].kind == "node" else None
        if src_node in self.controls:
            return subgraphs.edges_out(self, n, self.controls[src_node], dst)
        for i, v in enumerate(n.inputs):
            if type(v) is not Value or (v.kind == "const" and not constants) or v in self.absorbed:
                continue
            src = self._value_rep(v)
            if src == dst:
                continue
            if i == 0 and n.prim.side_effect and v.kind == "param":
                self._add_edge(ViewEdge(dst, src, "assign", "assign"))
            elif n.op == "Depend" and i > 0:
                self._add_edge(ViewEdge(src, dst, "", "control"))
            else:
                self._add_edge(ViewEdge(src, dst, v.type_str))
        if grad_edges and n.grad_of is not None and n.grad_of in self.shown_set:
            fwd = self._rep(n.grad_of)
            if dst != fwd:
                self._add_edge(ViewEdge(dst, fwd, "", "grad_of"))

    # ---- what mslab.lab.viz.subgraphs draws with ---------------------------------------------------
    def _walk_sub(self, node, graph, prefix):
        """The View of a control-flow node's subgraph, every key behind ``prefix``; the learner's expand /
        collapse keys inside it apply there."""
        inner = [(ks, {k[len(prefix):] for k in ks if k.startswith(prefix)}) for ks in (self.expand, self.fold)]
        view = _Walk(graph, None, self.depth, inner[0][1], inner[1][1], nested=node).view(False, True, None)
        return subgraphs.prefixed(view, prefix)

    def kind_of(self, n):
        return HOST if is_host(n) else n.phase

    def key_of(self, n):
        return self._rep(n)

    tooltip = staticmethod(node_tooltip)
    value_rep = _value_rep
    add_edge = _add_edge

    def add_view_node(self, vn):
        return self._add_node(vn)

    def add_cluster(self, c):
        if c.key not in self._cluster_keys:
            self._cluster_keys.add(c.key)
            self.clusters.append(c)

    def _add_outputs(self, output_names):
        """One oval per graph output whose node is shown, with an arrow from what makes it."""
        outputs = self.graph.outputs
        for i, v in enumerate(outputs):
            if v.kind == "node" and v.node not in self.shown_set:
                continue
            key = keys.output_key(i)
            title = "output" if len(outputs) == 1 else f"output {i}"
            if output_names and i < len(output_names):
                title = output_names[i]
            self._add_node(ViewNode(key, OUTPUT, title, [v.type_str], f"graph output {i}: {v.name} : {v.type_str}"))
            self._add_edge(ViewEdge(self._value_rep(v), key, v.type_str))

    def _lanes(self):
        """The layout hint: keys topping the forward | backward | optimizer columns (none for a single phase).

        The backward pass climbs back up, so its top is its last node.
        """
        lanes = []
        for ph in ("forward", BACKWARD, OPTIMIZER):
            ns = [n for n in self.shown if n.phase == ph]
            if ns:
                lanes.append(self._rep(ns[-1] if ph == BACKWARD else ns[0]))
        return lanes if len(lanes) >= 2 else []
