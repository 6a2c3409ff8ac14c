"""The engine's global recording state: who, if anyone, is recording the primitives that run.

``tracer``: the GRAPH-mode tracer building a graph right now (primitives become nodes), or None.
``tapes``: PYNATIVE tapes recording executed primitives (innermost last).
``cells``: the Cells whose ``construct`` is running, outermost first (for scopes and error messages).
``mixed_precision``: ``(dtype, casts made)`` for each running Cell set with ``Cell.to_float`` (innermost
last): primitives cast their floating-point inputs to the last one's dtype.
"""
tracer = None
tapes = []
cells = []
mixed_precision = []
