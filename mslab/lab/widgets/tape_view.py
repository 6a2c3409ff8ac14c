"""TapeView: the same network's PYNATIVE tape beside its GRAPH-mode backward graph (recorded while running, as
PyTorch's grad_fn chain, versus derived from the forward graph's structure).

    TapeView(loss_net, x, y)

Left: running the network eagerly records each primitive on a tape as it executes, like PyTorch's
``grad_fn`` chain; backward later walks that tape in reverse. Right: in GRAPH mode nothing is recorded
while running; autodiff reads the forward graph's structure and generates the backward nodes before
any data flows. Both pictures come from mslab.lab.viz (``tape_graph`` and ``backward_graph``); each is a GraphView, a
child widget of this one (``tv.tape`` and ``tv.backward``), which widgets/tape_view.js places side by side.
"""
from html import escape

import anywidget
import traitlets as t

from mslab.lab import viz
from mslab.lab.values import TapeValues
from mslab.lab.widgets._assets import CSS, FRONTEND
from mslab.lab.widgets.graph_view import GraphView

CAPTION = ("Left, PYNATIVE mode: the tape is recorded WHILE the network runs, one entry per primitive that "
           "executed, with the real values (PyTorch's grad_fn chain); backward walks it in reverse. "
           "Right, GRAPH mode: nothing is recorded while running. Autodiff reads the forward graph's STRUCTURE "
           "and generates these backward nodes (each from one forward node's bprop rule) before any data "
           "flows; the values do not matter, only the structure does.")


class TapeView(anywidget.AnyWidget):
    """``TapeView(fn, *inputs)``: ``fn`` a Cell (or function) returning the loss."""

    _esm = FRONTEND / "tape_view.js"
    _css = CSS
    tape = anywidget.WidgetTrait().tag(sync=True)  # GraphView of the PYNATIVE tape (left)
    backward = anywidget.WidgetTrait().tag(sync=True)  # GraphView of the GRAPH-mode backward graph (right)
    caption = t.Unicode(CAPTION).tag(sync=True)
    tape_caption = t.Unicode("").tag(sync=True)
    backward_caption = t.Unicode("").tag(sync=True)

    def __init__(self, fn, *inputs, collapse_depth="auto", **kwargs):
        name = getattr(fn, "__name__", None) or type(fn).__name__
        tape = GraphView(viz.tape_graph(fn, *inputs), collapse_depth=collapse_depth,
                         title=f"PYNATIVE tape of {name}", values=TapeValues())
        backward = GraphView(viz.backward_graph(fn, *inputs), collapse_depth=collapse_depth,
                             title=f"GRAPH-mode backward graph of {name}")
        self.name = name
        self.n_backward = sum(1 for n in backward.graph.nodes if n.phase == "backward")
        super().__init__(tape=tape, backward=backward,
                         tape_caption=f"PYNATIVE tape: {len(tape.graph.nodes)} primitives recorded while running",
                         backward_caption=(f"GRAPH mode: {self.n_backward} backward nodes generated from the "
                                           "forward graph's structure"), **kwargs)

    def highlight(self, tape_names=(), graph_names=()):
        self.tape.highlight(tape_names)
        self.backward.highlight(graph_names)
        return self

    def static_html(self):
        return (f'<div class="mslab-static"><p>{escape(self.caption)}</p><table><tr>'
                f"<th>{escape(self.tape_caption)}</th><th>{escape(self.backward_caption)}</th></tr><tr>"
                f'<td style="vertical-align:top">{self.tape.drawing.svg()}</td>'
                f'<td style="vertical-align:top">{self.backward.drawing.svg()}</td></tr></table></div>')

    def static(self):
        from IPython.display import HTML
        return HTML(self.static_html())

    def __repr__(self):
        return f"TapeView({self.name}, tape_nodes={len(self.tape.graph.nodes)}, backward_nodes={self.n_backward})"

    def _repr_mimebundle_(self, **kwargs):
        data, meta = super()._repr_mimebundle_(**kwargs)
        data["text/html"] = self.static_html()
        return data, meta
