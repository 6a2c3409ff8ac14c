"""What a graph pane draws: a GraphDrawing (one picture with its node index, options and values) and the
SVG annotations the front-end (widgets/graph_view.js) and browser tests rely on.

Every node group in the SVG carries ``data-mslab-node="<view key>"`` (an IR name such as ``%12``,
``param:fc1.weight``, or ``box:<scope>`` for a collapsed Cell call) and ``data-mslab-kind``; every
Cell frame carries ``data-mslab-cluster="<scope key>"``; highlighted nodes (and frames, such as the
branch of an If that ran) get the ``mslab-highlight`` class and the node that ran last ``mslab-current``.
The keys are the ones mslab.lab.viz puts in the DOT (each node group's ``id`` and ``<title>``), so nothing
here changes the drawing itself; they are made and read only through ``mslab.lab.viz.keys``.
"""
import re
from html import escape, unescape

from mslab.ir.graph import Node, Value
from mslab.lab.values import NO_VALUES
from mslab.lab.viz import (
    GraphPicture,
    GraphvizNotFound,
    GraphvizTimeout,
    GraphvizTooLarge,
    keys,
    render_dot,
    subgraphs,
    walk,
)
from mslab.lab.viz.reading import collapse_rule
from mslab.lab.widgets import _values

_NODE_G = re.compile(r'<g id="([^"]*)" class="node">\s*<title>(.*?)</title>', re.S)
_CLUSTER_G = re.compile(r'<g id="(clust\d+)" class="cluster">\s*<title>(.*?)</title>', re.S)

DOT_BUDGET = 10  # seconds Graphviz may take for a widget's picture before it folds coarser

STATIC_CSS = """
.mslab-static svg .cluster.mslab-highlight path, .mslab-static svg .cluster.mslab-highlight polygon {
  stroke: #f59e0b; stroke-width: 3px; stroke-dasharray: none; }
.mslab-static svg .mslab-highlight polygon, .mslab-static svg .mslab-highlight ellipse {
  stroke: #f59e0b; stroke-width: 3px; }
.mslab-static svg .mslab-current polygon, .mslab-static svg .mslab-current ellipse {
  stroke: #dc2626; stroke-width: 4px; }
.mslab-static table { border-collapse: collapse; font-size: 12px; }
.mslab-static td, .mslab-static th { border: 1px solid #cbd5e1; padding: 2px 6px; text-align: left; }
"""


def annotate(svg, kinds, highlighted=(), current=""):
    """Add the data attributes and highlight classes to an SVG from mslab.lab.viz (node ids are the view keys)."""
    hl = set(highlighted)

    def node(m):
        key = unescape(m.group(1))
        cls = "node" + (" mslab-highlight" if key in hl else "") + (" mslab-current" if key == current else "")
        return (f'<g id="{m.group(1)}" class="{cls}" data-mslab-node="{escape(key, quote=True)}" '
                f'data-mslab-kind="{escape(kinds.get(key, ""), quote=True)}">\n<title>{escape(key)}</title>')

    def cluster(m):
        key = keys.frame_of_cluster(unescape(m.group(2)))
        cls = "cluster" + (" mslab-highlight" if key in hl else "")
        return (f'<g id="{m.group(1)}" class="{cls}" data-mslab-cluster="{escape(key, quote=True)}">\n'
                f'<title>{m.group(2)}</title>')

    svg = _NODE_G.sub(node, svg)
    return _CLUSTER_G.sub(cluster, svg)


class GraphDrawing:
    """One drawable graph with the options a widget changes (collapse depth, highlight) and its values."""

    def __init__(self, graph, phases=None, collapse_depth="auto", title=None, grad_edges=False, rankdir=None):
        if isinstance(graph, GraphPicture):
            phases = graph.options["phases"] if phases is None else phases
            grad_edges = graph.options["grad_edges"] or grad_edges
            title = title or graph.title
            rankdir = rankdir or graph.rankdir
        self.rankdir = rankdir or "TB"  # "TB" top to bottom, "LR" left to right (the layout menu)
        self.graph = getattr(graph, "graph", graph)
        if hasattr(self.graph, "to_ir"):  # a MindIR graph (mindspore.load, nn.GraphCell): drawn as mslab traces it
            self.graph = self.graph.to_ir()
        self.phases = phases
        self.depth = collapse_depth
        self.expanded, self.collapsed = set(), set()  # frame keys opened / folded by clicks, over the depth rule
        self.title = title or self.graph.name
        self.grad_edges = grad_edges
        self.values = NO_VALUES  # a mslab.lab.values.ValueSource: RunValues, TapeValues, a TrainStepSession
        # keys of every node and value, those inside control-flow subgraphs behind their prefix (%2[then]%0)
        self.by_name, self.by_value = {}, {}
        for prefix, g in subgraphs.nested_graphs(self.graph):
            self.by_name.update((prefix + n.out.name, n) for n in g.nodes)
            for v in g.inputs + g.params + g.consts:
                self.by_value[prefix + keys.value_key(v)] = v
        self.prefix_of = subgraphs.prefixes(self.graph)
        self.max_depth = max([len(n.scope.split("/")) for n in self.graph.nodes if n.scope] + [0])
        self.notice = ""  # why the picture is coarser than asked (Graphviz's time budget ran out)
        self._picture = self._svg = self._distinct = None

    # ---- picture ---------------------------------------------------------------------------------
    @property
    def depth_options(self):
        """The fold menu: only choices that draw a different picture of this graph, plus the one in force.

        Two choices are the same picture when they place the same boxes and frames: on a flat LeNet
        ``"auto"``, ``"leaves"`` and ``1`` all fold each layer, so the menu offers ``auto`` and ``none``.
        """
        if self._distinct is None:
            seen, self._distinct = set(), []
            signatures = self._fold_signatures()
            for option, sig in signatures.items():
                if sig not in seen:
                    seen.add(sig)
                    self._distinct.append(option)
        current = self.depth_text
        return self._distinct + ([current] if current not in self._distinct else [])

    def _fold_signatures(self):
        """Menu choice -> what it draws, without Graphviz: the keys of its boxes, ops and frames.

        ``"auto"`` is ``"leaves"`` or ``"none"`` (reading.collapse_rule), and the picture on screen is reused,
        so a menu of k choices costs k - 2 extra walks of the graph.
        """
        phases = (self.phases,) if isinstance(self.phases, str) else self.phases
        shown = sum(1 for n in self.graph.nodes if phases is None or n.phase in phases)
        auto = "none" if collapse_rule("auto", shown) is None else "leaves"
        on_screen = auto if self.depth_text == "auto" else self.depth_text
        pristine = not (self.expanded or self.collapsed)
        signatures = {}
        for option in ["none", "leaves"] + [str(d) for d in range(1, self.max_depth + 1)]:
            view = (self.view if pristine and option == on_screen else
                    walk(self.graph, phases=self.phases, collapse_depth=option, grad_edges=self.grad_edges))
            signatures[option] = (frozenset(vn.key for vn in view.nodes)
                                  | frozenset("frame:" + c.key for c in view.clusters))
        return {"auto": signatures[auto], **signatures}

    @property
    def depth_text(self):
        return "none" if self.depth is None else str(self.depth)

    def set_depth(self, value):
        """``"auto"``, ``"leaves"``, ``"none"``/None or a depth (int or digits)."""
        if value in (None, "none", "None"):
            value = None
        elif isinstance(value, str) and value.isdigit():
            value = int(value)
        if value not in (None, "auto", "leaves") and not isinstance(value, int):
            raise ValueError(f"collapse depth must be 'auto', 'leaves', 'none' or a number, got {value!r}")
        self.depth = value
        self.notice = ""
        self.expanded.clear()  # a new baseline: per-Cell choices start over
        self.collapsed.clear()
        self._picture = self._svg = None

    def set_rankdir(self, value):
        """``"TB"`` (top to bottom) or ``"LR"`` (left to right): Graphviz's ``rankdir``."""
        if value not in ("TB", "LR"):
            raise ValueError(f"layout must be 'TB' (top to bottom) or 'LR' (left to right), got {value!r}")
        self.rankdir = value
        self._picture = self._svg = None

    @property
    def picture(self):
        if self._picture is None:
            self._picture = GraphPicture(self.graph, phases=self.phases, collapse_depth=self.depth,
                                         grad_edges=self.grad_edges, title=self.title, rankdir=self.rankdir,
                                         expand=frozenset(self.expanded), collapse=frozenset(self.collapsed))
        return self._picture

    @property
    def view(self):
        return self.picture.view

    def kinds(self):
        return {vn.key: vn.kind for vn in self.view.nodes}

    def _render(self):
        """Render the picture within ``DOT_BUDGET`` seconds (and Graphviz's box and memory budgets); when Graphviz
        cannot, fold every top-level Cell into a box (depth 1) and say so in ``notice``."""
        try:
            return render_dot(self.picture.dot, "svg", timeout=DOT_BUDGET)
        except GraphvizTooLarge as e:
            if self.depth == 1:
                raise
            was = self.depth_text
            self.set_depth(1)
            why = f"in {DOT_BUDGET} s" if isinstance(e, GraphvizTimeout) else "within its box and memory budget"
            self.notice = (f"Graphviz could not lay this picture out {why} at collapse depth {was!r}, "
                           "so every top-level Cell is folded into one box (depth 1). Click a box to open it.")
            return render_dot(self.picture.dot, "svg", timeout=DOT_BUDGET)

    def svg(self, highlighted=(), current=""):
        """The annotated SVG, or an HTML message (with the IR text) when Graphviz is missing or too slow."""
        try:
            if self._svg is None:
                self._svg = self._render()
            return annotate(self._svg, self.kinds(), highlighted, current)
        except (GraphvizNotFound, GraphvizTooLarge) as e:
            return (f'<div class="mslab-nodot"><pre>{escape(str(e))}</pre><pre>{escape(self.graph.text())}</pre>'
                    f"</div>")

    @property
    def n_nodes(self):
        return len(self.graph.nodes)

    # ---- names -----------------------------------------------------------------------------------
    def keys_for(self, items):
        """View keys showing the given nodes: IR names (``%12``), Nodes, Values (inside a branch too), view keys,
        or frame keys (``%2[then]``: the frame of a branch)."""
        want = set()
        for it in items:
            if isinstance(it, Node):
                it = it.out
            want.add(self.prefix_of.get(id(it.owner), "") + keys.value_key(it) if isinstance(it, Value) else str(it))
        found = []
        for vn in self.view.nodes:
            kind, payload = keys.parse(vn.key)
            if vn.key in want or any(m in want for m in vn.members) or (kind == keys.HIDDEN and payload in want):
                found.append(vn.key)
        return found + [c.key for c in self.view.clusters if c.key in want]

    def branch_frame(self, node, label):
        """The frame key of subgraph ``label`` of control-flow ``node`` (``%2[then]``)."""
        return keys.sub_prefix(self.prefix_of.get(id(node.out.owner), "") + keys.node_key(node.out.name), label)

    # ---- inspecting ------------------------------------------------------------------------------
    def _value_info(self, v):
        if v is None or v.dtype.kind == "O":  # a control-flow node's tuple: its elements are the TupleGetItems
            return {}
        out = {}
        val = self.values.value(v)
        if val is None and v.kind == "param" and v.handle is not None:  # a weight has numbers before any run
            val = getattr(v.handle, "_data", None)
        elif val is None and v.kind == "const":
            val = v.array
        if val is not None:
            out["value"] = _values.summary(val)
        grad = self.values.gradient(v)
        if grad is not None:
            out["gradient"] = _values.summary(grad)
        return out

    def inspect(self, key):
        """What the inspector panel shows for a view key (a dict of plain JSON values)."""
        try:
            vn = self.view.node(key)
        except KeyError:
            return {"key": key, "title": key, "error": "no such node in this picture"}
        info = {"key": key, "title": vn.title, "kind": vn.kind, "fields": []}
        f = info["fields"]
        if vn.collapsed:
            ms = [self.by_name[m] for m in vn.members if m in self.by_name]
            f += [["Cell call", vn.title], ["ops", str(len(ms))], ["scope", ms[0].scope if ms else ""]]
            info["members"] = [[m.out.name, m.op, m.out.type_str, m.source] for m in ms]
            info["expandable"] = keys.cell_frame(key) is not None
            if ms:  # what the Cell call hands on: its last op's value (after a run)
                info.update(self._value_info(ms[-1].out))
            return info
        kind, payload = keys.parse(key)
        n = self.by_name.get(payload) if kind in (keys.NODE, keys.HIDDEN) else None
        if n is not None:
            f += [["name", n.out.name], ["op", n.op], ["phase", n.phase]]
            f += [[k, repr(v)] for k, v in n.prim.attrs.items()]
            f += [["shape", str(list(n.out.shape))], ["dtype", str(n.out.dtype)],
                  ["Cell scope", n.scope or "(top level)"], ["source", n.source or ""]]
            if n.grad_of is not None:
                f.append(["gradient of", f"{n.grad_of.out.name} {n.grad_of.op}"])
            run = getattr(self.values, "control", None)
            if subgraphs.subgraphs(n) and run is not None and n in run.runs:
                f.append(["ran", run.runs[n].summary()])
            f.append(["inputs", ", ".join(x.name if isinstance(x, Value) else repr(x) for x in n.inputs)])
            info.update(self._value_info(n.out))
            return info
        v = self.by_value.get(key)
        if v is None and kind == keys.OUTPUT:
            v = self.graph.outputs[payload]
            f.append(["value of", v.name])
        if v is not None:
            f += [["name", v.name], ["kind", {"param": "Parameter", "input": "graph input", "const": "constant"}
                                      .get(v.kind, v.kind)],
                  ["shape", str(list(v.shape))], ["dtype", str(v.dtype)]]
            info.update(self._value_info(v))
        return info

    def inspect_cluster(self, key):
        label = next((c.label for c in self.view.clusters if c.key == key), key)
        return {"key": key, "title": label, "kind": "cluster", "cluster": True,
                "collapsible": keys.cell_frame(key) is not None, "fields": [["frame", label], ["scope", key]]}

    def expand(self, key):
        """Open one collapsed Cell call (a ``box:`` key or a frame key); the others keep their state.

        Undoing a fold comes first; only when the depth rule still folds the Cell is it marked expanded
        (its inner Cells then fold as the depth rule says when they lie past its depth). A backward box
        (``box:∇fc1``) opens its forward Cell too: the two are drawn alike.
        """
        k = keys.cell_frame(key)
        if k is None:
            return False
        self._override(self.collapsed, k, False)
        if self._shows(k, box=True):
            self._override(self.expanded, k, True)
        return True

    def collapse(self, key):
        """Fold one Cell call (a frame key such as ``network/_backbone/fc1``) into a box."""
        k = keys.cell_frame(key)
        if k is None:
            return False
        self._override(self.expanded, k, False)
        if self._shows(k, box=False):
            self._override(self.collapsed, k, True)
        return True

    def _override(self, keys, k, on):
        (keys.add if on else keys.discard)(k)
        self._picture = self._svg = None

    def _shows(self, k, box):
        """Whether Cell call ``k`` is drawn as a box (``box=True``) or as a frame, forward or backward."""
        if box:
            shown = {vn.key for vn in self.view.nodes if vn.collapsed}
            return keys.box_key(k) in shown or keys.box_key(keys.grad_frame(k)) in shown
        frames = {c.key for c in self.view.clusters}
        return k in frames or keys.grad_frame(k) in frames

    def static_html(self, highlighted=(), current=""):
        return f'<div class="mslab-static"><style>{STATIC_CSS}</style>{self.svg(highlighted, current)}</div>'
