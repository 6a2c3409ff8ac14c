"""TapeView: the same network's PYNATIVE tape beside its GRAPH-mode backward graph (recorded while running, as
PyTorch's grad_fn chain, versus derived from the forward graph's structure).

    TapeView(loss_net, x, y)

Left: running the network eagerly records each primitive on a tape as it executes, like PyTorch's
``grad_fn`` chain; backward later walks that tape in reverse. Right: in GRAPH mode nothing is recorded
while running; autodiff reads the forward graph's structure and generates the backward nodes before
any data flows. Both pictures come from mslab.lab.viz (``tape_graph`` and ``backward_graph``).
"""
from html import escape

import anywidget
import traitlets as t

from mslab.lab import viz
from mslab.lab.values import TapeValues
from mslab.lab.widgets import _assets
from mslab.lab.widgets._graph import GraphHost, GraphPane
from mslab.lab.widgets.graph_view import graph_traits

CAPTION = ("Left, PYNATIVE mode: the tape is recorded WHILE the network runs, one entry per primitive that "
           "executed, with the real values (PyTorch's grad_fn chain); backward walks it in reverse. "
           "Right, GRAPH mode: nothing is recorded while running. Autodiff reads the forward graph's STRUCTURE "
           "and generates these backward nodes (each from one forward node's bprop rule) before any data "
           "flows; the values do not matter, only the structure does.")


class TapeView(GraphHost, anywidget.AnyWidget):
    """``TapeView(fn, *inputs)``: ``fn`` a Cell (or function) returning the loss."""

    _esm = _assets.esm("graph_core.js", "tape_view.js")
    _css = _assets.css()
    locals().update(graph_traits("tape_"))
    locals().update(graph_traits("graph_"))
    caption = t.Unicode(CAPTION).tag(sync=True)
    tape_caption = t.Unicode("").tag(sync=True)
    graph_caption = t.Unicode("").tag(sync=True)

    def __init__(self, fn, *inputs, collapse_depth="auto", **kwargs):
        super().__init__(**kwargs)
        name = getattr(fn, "__name__", None) or type(fn).__name__
        self.name = name
        tape = viz.tape_graph(fn, *inputs)
        backward = viz.backward_graph(fn, *inputs)
        self.tape_pane = GraphPane(tape, collapse_depth=collapse_depth, title=f"PYNATIVE tape of {name}")
        self.tape_pane.values = TapeValues()
        self.graph_pane = GraphPane(backward, collapse_depth=collapse_depth,
                                    title=f"GRAPH-mode backward graph of {name}")
        self.tape_caption = (f"PYNATIVE tape: {len(self.tape_pane.graph.nodes)} primitives recorded while "
                             f"running")
        bw = sum(1 for n in self.graph_pane.graph.nodes if n.phase == "backward")
        self.graph_caption = f"GRAPH mode: {bw} backward nodes generated from the forward graph's structure"
        for pane in (self.tape_pane, self.graph_pane):
            pane.set_depth(collapse_depth)  # validates, and reads "none" and digits as the menu does
        self._init_host({"tape_": self.tape_pane, "graph_": self.graph_pane})

    def highlight(self, tape_names=(), graph_names=()):
        self._set_highlight("tape_", tape_names)
        self._set_highlight("graph_", graph_names)
        return self

    def static_html(self):
        return (f'<div class="mslab-static"><p>{escape(self.caption)}</p><table><tr>'
                f"<th>{escape(self.tape_caption)}</th><th>{escape(self.graph_caption)}</th></tr><tr>"
                f'<td style="vertical-align:top">{self.tape_pane.svg()}</td>'
                f'<td style="vertical-align:top">{self.graph_pane.svg()}</td></tr></table></div>')

    def static(self):
        from IPython.display import HTML
        return HTML(self.static_html())

    def __repr__(self):
        bw = sum(1 for n in self.graph_pane.graph.nodes if n.phase == "backward")
        return f"TapeView({self.name}, tape_nodes={len(self.tape_pane.graph.nodes)}, backward_nodes={bw})"

    def _repr_mimebundle_(self, **kwargs):
        data, meta = super()._repr_mimebundle_(**kwargs)
        data["text/html"] = self.static_html()
        return data, meta

