"""mslab.viz (lab layer): pictures of graphs. Graph or tape -> view model -> DOT text -> SVG (system Graphviz).

    import mslab.viz as viz
    viz.forward_graph(net, x)                 # the forward graph of a Cell or function
    viz.backward_graph(net, x)                # the backward graph autodiff generated for it
    viz.training_graph(train_cell, x, y)      # forward + hidden backward + optimizer nodes
    viz.tape_graph(net, x)                    # the PYNATIVE tape
    viz.to_dot(graph); viz.to_svg(graph)      # text forms of any Graph (or Tape)

Phases have their own colours (inputs, parameters, constants, forward, backward, optimizer; host for
JIT Fallback code), nodes are framed by Cell scope, edges carry shapes, names are IR names (stable run to
run). An ``if`` or ``while`` on a tensor is a frame around its subgraphs (then / else, cond / body). Pure functions:
nothing here imports widget code, matplotlib or the graphviz Python package.
"""
from mslab.lab.viz.dot import STYLES, view_to_dot
from mslab.lab.viz.picture import GraphPicture
from mslab.lab.viz.render import GraphvizNotFound, GraphvizTimeout, GraphvizTooLarge, have_dot, render_dot
from mslab.lab.viz.view_model import View, ViewCluster, ViewEdge, ViewNode
from mslab.lab.viz.views import backward_graph, forward_graph, tape_graph, training_graph
from mslab.lab.viz.walk import walk

__all__ = ["to_dot", "to_svg", "forward_graph", "backward_graph", "training_graph", "tape_graph", "GraphPicture",
           "GraphvizNotFound", "GraphvizTimeout", "GraphvizTooLarge",
           "walk", "view_to_dot", "render_dot", "have_dot", "loss_figure",
           "figure_svg", "STYLES", "View", "ViewNode", "ViewEdge", "ViewCluster"]


def to_dot(graph, phases=None, collapse_depth="auto", grad_edges=False, rankdir="TB", legend=True,
           constants=True, expand=frozenset(), collapse=frozenset()):
    """DOT text of a Graph or Tape (or a GraphPicture's own options when given one).

    ``expand`` / ``collapse``: frame keys of Cell calls (``fc1``, ``network/_backbone``) to open or fold
    whatever ``collapse_depth`` says.
    """
    if isinstance(graph, GraphPicture):
        return graph.dot
    return GraphPicture(graph, phases=phases, collapse_depth=collapse_depth, grad_edges=grad_edges,
                        rankdir=rankdir, legend=legend, constants=constants, expand=expand, collapse=collapse).dot


def to_svg(graph, **options):
    """SVG text of a Graph, Tape, GraphPicture or DOT string (GraphvizNotFound without ``dot``)."""
    dot_text = graph if isinstance(graph, str) else to_dot(graph, **options)
    return render_dot(dot_text, "svg")


def loss_figure(*args, **kwargs):
    """A matplotlib Figure of loss and metric curves ``{name: (steps, values)}`` (see ``mslab.lab.viz.loss_curve``;
    imports matplotlib)."""
    from mslab.lab.viz.loss_curve import loss_figure as f
    return f(*args, **kwargs)


def figure_svg(fig):
    """Deterministic SVG text of a matplotlib Figure (see ``mslab.lab.viz.loss_curve``)."""
    from mslab.lab.viz.loss_curve import figure_svg as f
    return f(fig)
