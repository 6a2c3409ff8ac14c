"""GraphPicture: a graph with the options to draw it, shown inline by Jupyter.

``.dot`` is the DOT text, ``.svg`` the rendered picture, ``.text()`` the IR text. In a notebook
the picture appears as inline SVG (HTML output), so hovering a node shows its tooltip (source
line, scope, attributes). Its ``repr`` is short and stable: no ids, no SVG.
"""
from html import escape

from mslab.lab.viz import render
from mslab.lab.viz.dot import view_to_dot
from mslab.lab.viz.walk import walk


class GraphPicture:
    """A drawable view of a Graph (or Tape): ``GraphPicture(graph, phases=None, collapse_depth="auto")``.

    Options: ``phases`` (e.g. ``("backward",)``), ``collapse_depth`` (int, ``"leaves"``, ``"auto"``
    or None), ``grad_edges`` (dotted arrows from backward nodes to their forward node),
    ``rankdir`` ("TB" top to bottom, or "LR"), ``legend``, ``constants``, ``output_names``,
    ``expand`` / ``collapse`` (frame keys of Cell calls to open or fold whatever the depth says).
    """

    def __init__(self, graph, phases=None, collapse_depth="auto", grad_edges=False, rankdir="TB",
                 legend=True, constants=True, title=None, output_names=None, expand=frozenset(),
                 collapse=frozenset()):
        self.graph = getattr(graph, "graph", graph)
        self.options = dict(phases=tuple(phases) if phases is not None and not isinstance(phases, str)
                            else phases, collapse_depth=collapse_depth, grad_edges=grad_edges, constants=constants,
                            output_names=tuple(output_names) if output_names else None,
                            expand=frozenset(expand or ()), collapse=frozenset(collapse or ()))
        self.rankdir = rankdir
        self.legend = legend
        self.title = title
        self._view = None
        self._dot = None

    @property
    def view(self):
        """The view model (nodes, edges, clusters) the picture draws."""
        if self._view is None:
            self._view = walk(self.graph, **self.options)
            if self.title:
                self._view.name = self.title
        return self._view

    @property
    def dot(self):
        """The DOT text (stable: the same network gives the same text every run)."""
        if self._dot is None:
            self._dot = view_to_dot(self.view, rankdir=self.rankdir, legend=self.legend)
        return self._dot

    @property
    def svg(self):
        """The SVG text, drawn by Graphviz's ``dot`` (GraphvizNotFound if it is not installed)."""
        return render.render_dot(self.dot, "svg")

    def text(self, phase=None):
        """The IR text of the graph."""
        return self.graph.text(phase)

    def save(self, path):
        """Write the picture; the suffix picks the format: .svg, .png, .pdf or .dot."""
        fmt = str(path).rsplit(".", 1)[-1].lower()
        if fmt == "dot":
            data = self.dot.encode("utf-8")
        elif fmt == "svg":
            data = self.svg.encode("utf-8")
        else:
            data = render.render_dot(self.dot, fmt)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def __repr__(self):
        v = self.view
        kinds = v.kinds()
        ops = sum(n.ops for n in v.nodes if n.kind in ("forward", "backward", "optimizer", "other"))
        boxes = sum(1 for n in v.nodes if n.collapsed)
        phases = ", ".join(v.phases) or "none"
        extra = f", {boxes} collapsed boxes" if boxes else ""
        n = kinds.get("parameter", 0)
        return f"<GraphPicture {v.name}: {ops} ops ({phases}), {n} parameter{'' if n == 1 else 's'} drawn{extra}>"

    def _repr_html_(self):
        try:
            svg = self.svg
        except render.GraphvizNotFound as e:
            return (f"<pre>{escape(str(e))}</pre><details><summary>IR text</summary>"
                    f"<pre>{escape(self.text())}</pre></details>")
        return f'<div class="mslab-graph" style="overflow:auto">{render.svg_body(svg)}</div>'
