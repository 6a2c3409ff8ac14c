"""What calling a Cell does, by mode: the one place where PYNATIVE and GRAPH part ways for Cells.

* While a graph is being traced, a Cell call is inlined: its ``construct`` runs on symbolic tensors
  under the Cell's scope (so nodes know they came from ``network/fc1``).
* In GRAPH mode at top level, the call is compiled once per input signature and the graph runs.
* In PYNATIVE mode ``construct`` simply runs, primitive by primitive.
"""
import sys

import numpy as np

from mslab.core import state
from mslab.core.context import is_graph_mode
from mslab.core.errors import CellNestingError
from mslab.runtime.compiled import cache_of


def _check_inputs(cell, args):
    for i, a in enumerate(args):
        if isinstance(a, np.ndarray):
            raise TypeError(f"{type(cell).__name__}: input {i} is a numpy array of shape {a.shape}; Cells take "
                            f"mslab Tensors. Wrap it: mslab.Tensor(array).")


def _run_construct(cell, args, kwargs):
    state.cells.append(cell)
    phase = getattr(cell, "_graph_phase", None)
    try:
        if phase is None:
            return cell.construct(*args, **kwargs)
        recorders = [state.tracer] if state.tracer is not None else list(state.tapes)
        saved = [r.phase for r in recorders]
        for r in recorders:
            r.phase = phase
        try:
            return cell.construct(*args, **kwargs)
        finally:
            for r, p in zip(recorders, saved):
                r.phase = p
    finally:
        state.cells.pop()


class _Construct:
    """``cell.construct`` as a plain function of the inputs (what gets traced)."""

    def __init__(self, cell):
        self.cell = cell
        self.__name__ = type(cell).__name__
        self.construct = cell.construct  # for argument names

    def __call__(self, *args):
        return _run_construct(self.cell, args, {})


def _not_a_tensor(args):
    """Why an input that an op needed as a Tensor is not one (None, a list, a ragged list), or None."""
    for i, a in enumerate(args):
        if a is None:
            return f"input {i} is None, but the Cell needs a Tensor there"
        if isinstance(a, (list, tuple)):
            kind = type(a).__name__
            lengths = [len(r) if isinstance(r, (list, tuple)) else None for r in a]
            if len(set(lengths)) > 1:
                rows = ", ".join("-" if n is None else str(n) for n in lengths)
                return (f"input {i} is a ragged {kind} (rows of lengths {rows}), but the Cell needs a Tensor there "
                        "and no Tensor can hold rows of different lengths")
            return f"input {i} is a {kind}, but the Cell needs a Tensor there: wrap it, mslab.Tensor(your_{kind})"
    return None


def call_cell(cell, args, kwargs):
    """Run ``cell(*args, **kwargs)`` in the current mode.

    At the outermost call, a failure that comes from an input that is not a Tensor (``net([1, 2])``,
    ``net(None)``) is reported as a TypeError naming the Cell and the input (MindSpore: ``For
    primitive[Shape], the input argument must be Tensor, but got <class 'list'>``), and Cells nested
    deeper than Python's recursion limit raise a CellNestingError.
    """
    if state.tracer is not None:
        return _run_construct(cell, args, kwargs)
    _check_inputs(cell, args)
    outermost = not state.cells
    try:
        if is_graph_mode() and not kwargs:
            return compile_call(cell, args).run(args)
        return _run_construct(cell, args, kwargs)
    except RecursionError as e:
        if not outermost or isinstance(e, CellNestingError):
            raise
        raise CellNestingError(type(cell).__name__, "Calling", sys.getrecursionlimit()) from None
    except (AttributeError, TypeError) as e:
        why = _not_a_tensor(args) if outermost else None
        if why is None:
            raise
        raise TypeError(f"{type(cell).__name__}: {why} ({type(e).__name__}: {e})") from e


def compile_call(cell, args):
    """The Compiled graph a GRAPH-mode call ``cell(*args)`` runs (traced and cached on first use)."""
    construct = cell.__dict__.get("_construct_fn")
    if construct is None:
        construct = cell.__dict__["_construct_fn"] = _Construct(cell)
    return cache_of(cell).get(construct, args)


def compiled_graphs(cell):
    """The graphs compiled for this Cell so far (one per input signature)."""
    cache = cell.__dict__.get("_compile_cache")
    return [c.graph for c in cache.graphs.values()] if cache else []
