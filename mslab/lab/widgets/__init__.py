"""mslab.widgets (lab layer): notebook views of what the engine does (import explicitly; ``import mslab`` does not).

    from mslab.lab.widgets import GraphView, StepThrough, LossPlot, TapeView, ComparePanel, CompilePipeline
    GraphView(mslab.trace(train_net, x, y))      # pan, zoom, click a node, expand/collapse Cells
    StepThrough(train_net, x, y)                 # one real training step, stage by stage
    LossPlot()                                   # a Model.train callback, or plot.update(step, loss=...)
    TapeView(net_with_loss, x, y)                # PYNATIVE tape beside the GRAPH-mode backward graph
    ComparePanel()                               # mslab / PyTorch / TensorFlow code per concept
    CompilePipeline(train_net, x, y)             # the graph after each compilation stage (CSE, DCE, ...)

The front-end code (one self-contained ES module per widget, and one CSS file) lives in the repository's
widgets/ folder (mslab/_frontend/ in a wheel); see its README. GraphView is the one graph pane: StepThrough,
TapeView and CompilePipeline show GraphViews as child widgets. Outside a live kernel each widget shows its
text repr and, where the format allows, a static picture or table (``widget.static()`` returns it as a
displayable object).
"""
from mslab.lab.widgets.compare_panel import ComparePanel
from mslab.lab.widgets.compile_pipeline import CompilePipeline
from mslab.lab.widgets.graph_view import GraphView
from mslab.lab.widgets.loss_plot import LossPlot
from mslab.lab.widgets.step_through import StepThrough
from mslab.lab.widgets.tape_view import TapeView

__all__ = ["GraphView", "StepThrough", "LossPlot", "TapeView", "ComparePanel", "CompilePipeline"]
