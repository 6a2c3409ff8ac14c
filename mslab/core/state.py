"""The engine's global recording state: who, if anyone, is recording the primitives that run.

``tracer``: the GRAPH-mode tracer building a graph right now (primitives become nodes), or None.
``tapes``: PYNATIVE tapes recording executed primitives (innermost last).
``cells``: the Cells whose ``construct`` is running, outermost first (for scopes and error messages).
``journals``: open write journals (an all-or-nothing training step): each keeps the old contents of every
array written in place while it is open, so that a step that fails part-way can put them back.
``mixed_precision``: ``(dtype, casts made)`` for each running Cell set with ``Cell.to_float`` (innermost
last): primitives cast their floating-point inputs to the last one's dtype.
``kernels_quiet``: True while numpy's floating-point warnings are off for mslab's kernels (``fp_warnings``).
"""
from typing import Any

# The recorders and Cells are defined in the layers above (ir, nn), which this module may not import: Any.
tracer: Any = None
tapes: list[Any] = []
grad_inputs: list[Any] = []  # the arguments each running PYNATIVE gradient function was called with
cells: list[Any] = []
journals: list[dict[int, tuple[Any, Any]]] = []
mixed_precision: list[tuple[Any, dict[int, tuple[Any, Any]]]] = []
kernels_quiet = False


def before_write(array):
    """Call just before writing into ``array`` in place (Assign, BatchNorm's moving statistics): an open journal
    keeps a copy of its old contents. Only what a step actually writes is copied, once per step."""
    for journal in journals:
        if id(array) not in journal:
            journal[id(array)] = (array, array.copy())
