"""The four pictures a learner asks for: forward graph, backward graph, training step, PYNATIVE tape.

Each traces or runs the call it is given and returns a ``GraphPicture``; the keyword options
(``phases``, ``collapse_depth``, ``grad_edges``, ``rankdir``, ...) pass through to it.
"""
from mslab.autodiff.grad_operation import grad
from mslab.core.context import PYNATIVE_MODE, in_mode
from mslab.core.pytree import flatten
from mslab.core.tensor import ParameterTuple, Tensor
from mslab.ir.graph import BACKWARD
from mslab.ir.tape import record
from mslab.lab.viz.picture import GraphPicture
from mslab.nn.cell import Cell
from mslab.runtime.compiled import input_names, trace


def _name(fn):
    return getattr(fn, "__name__", None) or type(fn).__name__


def forward_graph(fn, *inputs, **options):
    """The graph a call of ``fn`` (a Cell or function) compiles to in GRAPH mode: ``mslab.trace``."""
    return GraphPicture(trace(fn, *inputs), **options)


def backward_graph(fn, *inputs, weights=None, grad_position="auto", **options):
    """The backward graph autodiff generates for ``fn``: trace its gradient, show the backward nodes.

    ``weights``: the Parameters to differentiate (None: a Cell's trainable parameters; ``()``: none).
    ``grad_position``: input positions too; ``"auto"`` = none for a Cell with weights, else every
    floating-point input. Forward values the backward nodes read appear as faded stubs; pass
    ``phases=None`` to see forward and backward together. Each backward node names the forward node
    it is the gradient of ("grad of %3 MatMul").
    """
    if weights is None and isinstance(fn, Cell):
        weights = fn.trainable_params()
    weights = ParameterTuple(weights) if weights else None
    if grad_position == "auto":
        pos = tuple(i for i, a in enumerate(inputs) if isinstance(a, Tensor) and a._np_dtype.kind in "fc")
        grad_position = None if weights is not None else pos
    if grad_position is None and weights is None:
        raise ValueError("backward_graph: nothing to differentiate (no weights and no floating-point input)")
    g = trace(grad(fn, grad_position=grad_position, weights=weights), *inputs, name=f"grad_{_name(fn)}")
    options.setdefault("phases", (BACKWARD,))
    if grad_position is not None or weights is not None:
        pos = (grad_position,) if isinstance(grad_position, int) else tuple(grad_position or ())
        names = [f"grad {n}" for n in input_names(fn, len(inputs))]
        options.setdefault("output_names", [names[i] for i in pos] + [f"grad {w.name}" for w in weights or ()])
    return GraphPicture(g, **options)


def training_graph(train_cell, *inputs, **options):
    """One training step as one graph: a TrainOneStepCell's forward, plus the backward and optimizer
    nodes MindSpore's autodiff adds without the learner writing them."""
    return GraphPicture(trace(train_cell, *inputs), **options)


def tape_graph(fn, *inputs, **options):
    """Run ``fn(*inputs)`` eagerly (PYNATIVE mode) under ``mslab.record()`` and draw the tape."""
    with in_mode(PYNATIVE_MODE), record(_name(fn)) as tape:
        out = fn(*inputs)
        leaves, _ = flatten(out)
        tape.mark_outputs([t for t in leaves if isinstance(t, Tensor)])
    return GraphPicture(tape.graph, **options)
