"""GraphView: a graph you can pan, zoom and click (the interactive form of mslab.lab.viz's pictures).

    view = GraphView(mslab.trace(train_net, x, y))    # or a Tape, or a mslab.lab.viz GraphPicture
    view                                              # drag or wheel to move, ctrl+wheel or buttons to zoom
    view.highlight(["%3", "%4"])                      # outline some nodes (IR names, Nodes or view keys)
    view.select("%3")                                 # what a click does: fill the inspector
    view.run(x, y)                                    # run the graph (Executor.steps): values appear too

Clicking a node shows its op, attributes, shape, dtype, Cell scope and source line; after ``run`` (or
when a StepThrough drives it) also its value and gradient as numbers with a histogram or heat-map.
Clicking a collapsed Cell call (a 3D box) opens just that Cell; clicking a Cell's frame folds just that Cell
back into a box (``view.expand("fc1")`` / ``view.collapse("fc1")`` from Python). The collapse-depth menu
sets the baseline for every Cell and clears those per-Cell choices; it offers only the depths that draw a
different picture of this graph (``depth_options``: on a flat LeNet ``auto`` and ``none``).

It opens readable: node labels at least 11 px, the width fitted when that allows it (a bigger graph scrolls,
with a minimap); after expand or fold it re-fits and centres the Cell that changed. The search box marks the
nodes whose op, name or Cell match and centres the first (Enter: the next, in the inspector). The layout menu
draws top to bottom or left to right. Repeated blocks (300 x Dense+ReLU) fold into one box with a count; if
Graphviz still needs more than ``_graph.DOT_BUDGET`` seconds, the view folds every top-level Cell and says so.

GraphView is the one graph pane: StepThrough, TapeView and CompilePipeline show GraphViews as child widgets
and drive them with the methods below. Its front-end is widgets/graph_view.js; what it draws (picture, node
index, values) is its ``drawing``, a ``_graph.GraphDrawing``.
"""
import anywidget
import traitlets as t

from mslab.core.tensor import Tensor
from mslab.lab.values import NO_VALUES, RunValues
from mslab.lab.viz import keys
from mslab.lab.widgets._assets import CSS, FRONTEND
from mslab.lab.widgets._graph import GraphDrawing


class GraphView(anywidget.AnyWidget):
    """An interactive picture of a Graph or Tape: ``GraphView(graph, phases=None, collapse_depth="auto")``."""

    _esm = FRONTEND / "graph_view.js"
    _css = CSS
    svg = t.Unicode("").tag(sync=True)  # the annotated picture (GraphDrawing.svg)
    graph_title = t.Unicode("").tag(sync=True)
    highlighted = t.List(t.Unicode()).tag(sync=True)  # view keys outlined in orange
    current = t.Unicode("").tag(sync=True)  # the view key outlined in red (the node that ran last)
    selected = t.Unicode("").tag(sync=True)  # the view key shown in the inspector
    inspector = t.Dict().tag(sync=True)  # what the inspector shows (GraphDrawing.inspect)
    collapse_depth = t.Unicode("auto").tag(sync=True)
    depth_options = t.List(t.Unicode()).tag(sync=True)  # only the depths that draw different pictures
    notice = t.Unicode("").tag(sync=True)  # why the picture is coarser than asked
    rankdir = t.Unicode("TB").tag(sync=True)  # "TB" top to bottom, "LR" left to right

    def __init__(self, graph, phases=None, collapse_depth="auto", title=None, grad_edges=False, values=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.drawing = GraphDrawing(graph, phases, "auto", title, grad_edges)
        self.drawing.set_depth(collapse_depth)  # validates, and reads "none" and digits as the menu does
        self.drawing.values = NO_VALUES if values is None else values
        self._outline, self._current = [], []  # what to outline, as given (names, Nodes): re-keyed after a redraw
        self._redraw()
        self.on_msg(lambda _widget, content, _buffers=None: self.handle_message(content))

    @property
    def graph(self):
        return self.drawing.graph

    def highlight(self, names, current=()):
        """Outline these nodes (IR names like ``"%12"``, Nodes, Values or view keys; ``[]`` clears) and, in red,
        ``current``."""
        self._outline, self._current = list(names), list(current)
        self._apply_highlight()
        return self

    def select(self, name):
        """Show a node in the inspector, as a click does (an IR name or a view key)."""
        keys_found = self.drawing.keys_for([name]) or [name]
        self.handle_message({"type": "click", "key": keys_found[0]})
        return self

    def expand(self, key):
        """Open one collapsed Cell call, as a click on its box does (``"fc1"`` or ``"box:fc1"``)."""
        self.handle_message({"type": "expand", "key": key})
        return self

    def collapse(self, key):
        """Fold one Cell call into a box, as a click on its frame does (``"network/_backbone/fc1"``)."""
        self.handle_message({"type": "collapse", "key": key})
        return self

    def set_collapse_depth(self, depth):
        self.handle_message({"type": "depth", "value": "none" if depth is None else str(depth)})
        return self

    def set_values(self, values):
        """Show the numbers of ``values``, a ``mslab.lab.values.ValueSource`` (e.g. a TrainStepSession; None: none)."""
        self.drawing.values = NO_VALUES if values is None else values
        self.refresh_inspector()
        return self

    def run(self, *inputs):
        """Run the graph on these tensors with the executor and show every value in the inspector.

        A training graph trains: its optimizer nodes update the weights, as a real call would.
        """
        arrays = [a._data if isinstance(a, Tensor) else a for a in inputs]
        return self.set_values(RunValues(self.graph, arrays))

    # ---- what the front-end asks ---------------------------------------------------------------------
    def handle_message(self, content):
        """Act on one front-end message: click, cluster, expand, collapse, depth or rankdir (tests call this
        directly to simulate the browser)."""
        kind, key, d = content.get("type"), content.get("key", ""), self.drawing
        if kind == "click":
            self._show(key, d.inspect(key))
        elif kind == "cluster":
            self._show("", d.inspect_cluster(key))
        elif kind == "expand":
            # A click on a collapsed box: open just that Cell, and show it (now a frame) in the inspector.
            if d.expand(key):
                self._redraw()
                self._show("", d.inspect_cluster(keys.frame_of(key)))
            else:
                self._show(key, d.inspect(key))
        elif kind == "collapse":
            # A click on a Cell's frame: fold just that Cell into a box, and show the box.
            if d.collapse(key):
                self._redraw()
                box = keys.box_key(keys.frame_of(key))
                shown = any(vn.key == box for vn in d.view.nodes)
                self._show(box if shown else "", d.inspect(box) if shown else {})
            else:  # a frame that is no Cell call (the backward frame): just describe it
                self._show("", d.inspect_cluster(key))
        elif kind == "depth":
            d.set_depth(content.get("value", "auto"))
            self._redraw()
            self.refresh_inspector()
        elif kind == "rankdir":
            d.set_rankdir(content.get("value", "TB"))
            self._redraw()

    def refresh_inspector(self):
        """Show the selected node again (new values, or a redraw); a node the new picture lacks is unselected."""
        sel = self.selected
        if sel and not any(vn.key == sel for vn in self.drawing.view.nodes):
            self._show("", {})
        elif sel:
            self.inspector = self.drawing.inspect(sel)

    def _show(self, selected, inspector):
        self.selected = selected
        self.inspector = inspector

    def _redraw(self):
        d = self.drawing
        self.depth_options = d.depth_options
        self.collapse_depth = d.depth_text
        self.graph_title = d.title
        self.rankdir = d.rankdir
        self._apply_highlight()
        self.svg = d.svg(self.highlighted, self.current)
        self.notice = d.notice
        self.collapse_depth = d.depth_text  # the fallback may have folded coarser

    def _apply_highlight(self):
        self.highlighted = self.drawing.keys_for(self._outline)
        found = self.drawing.keys_for(self._current) if self._current else []
        self.current = found[0] if found else ""

    # ---- display -------------------------------------------------------------------------------------
    def static_html(self):
        """The picture with its outlines as static HTML (inline SVG)."""
        return self.drawing.static_html(self.highlighted, self.current)

    def static(self):
        """The picture as a displayable static object (inline SVG in HTML), for exported notebooks."""
        from IPython.display import HTML
        return HTML(self.static_html())

    def __repr__(self):
        return (f"GraphView(graph={self.drawing.title!r}, nodes={self.drawing.n_nodes}, "
                f"collapsed_depth={self.drawing.depth!r})")

    def _repr_mimebundle_(self, **kwargs):
        data, meta = super()._repr_mimebundle_(**kwargs)
        data["text/html"] = self.static_html()
        return data, meta
