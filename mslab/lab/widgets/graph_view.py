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
"""
import anywidget
import traitlets as t

from mslab.core.tensor import Tensor
from mslab.lab.values import NO_VALUES, RunValues
from mslab.lab.widgets import _assets
from mslab.lab.widgets._graph import GraphHost, GraphPane


def graph_traits(prefix=""):
    """The synced traits of one graph pane (the front-end's graph_core.js reads them by prefix)."""
    return {
        prefix + "svg": t.Unicode("").tag(sync=True),
        prefix + "graph_title": t.Unicode("").tag(sync=True),
        prefix + "highlighted": t.List(t.Unicode()).tag(sync=True),
        prefix + "current": t.Unicode("").tag(sync=True),
        prefix + "selected": t.Unicode("").tag(sync=True),
        prefix + "inspector": t.Dict().tag(sync=True),
        prefix + "collapse_depth": t.Unicode("auto").tag(sync=True),
        prefix + "depth_options": t.List(t.Unicode()).tag(sync=True),
        prefix + "notice": t.Unicode("").tag(sync=True),
        prefix + "rankdir": t.Unicode("TB").tag(sync=True),
    }


class GraphView(GraphHost, anywidget.AnyWidget):
    """An interactive picture of a Graph or Tape: ``GraphView(graph, phases=None, collapse_depth="auto")``."""

    _esm = _assets.esm("graph_core.js", "graph_view.js")
    _css = _assets.css()
    locals().update(graph_traits(""))
    panes = t.List(t.Unicode(), [""]).tag(sync=True)

    def __init__(self, graph, phases=None, collapse_depth="auto", title=None, grad_edges=False, values=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.pane = GraphPane(graph, phases, "auto", title, grad_edges)
        self.pane.set_depth(collapse_depth)  # validates, and reads "none" and digits as the menu does
        self.pane.values = NO_VALUES if values is None else values
        self._init_host({"": self.pane})

    @property
    def graph(self):
        return self.pane.graph

    def highlight(self, names, current=()):
        """Outline these nodes (IR names like ``"%12"``, Nodes, Values or view keys); ``[]`` clears."""
        self._set_highlight("", names, current)
        return self

    def select(self, name):
        """Show a node in the inspector, as a click does (an IR name or a view key)."""
        keys = self.pane.keys_for([name]) or [name]
        self.handle_message({"type": "click", "key": keys[0]})
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
        self.pane.values = NO_VALUES if values is None else values
        self._refresh_inspector("")
        return self

    def run(self, *inputs):
        """Run the graph on these tensors with the executor and show every value in the inspector.

        A training graph trains: its optimizer nodes update the weights, as a real call would.
        """
        arrays = [a._data if isinstance(a, Tensor) else a for a in inputs]
        return self.set_values(RunValues(self.graph, arrays))

    def static(self):
        """The picture as a displayable static object (inline SVG in HTML), for exported notebooks."""
        from IPython.display import HTML
        return HTML(self.pane.static_html(self.highlighted, self.current))

    def __repr__(self):
        return (f"GraphView(graph={self.pane.title!r}, nodes={self.pane.n_nodes}, "
                f"collapsed_depth={self.pane.depth!r})")

    def _repr_mimebundle_(self, **kwargs):
        data, meta = super()._repr_mimebundle_(**kwargs)
        data["text/html"] = self.pane.static_html(self.highlighted, self.current)
        return data, meta
