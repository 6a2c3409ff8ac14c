"""What calling a Cell does, by mode: the one place where PYNATIVE and GRAPH part ways for Cells.

* While a graph is being traced, a Cell call is inlined: its ``construct`` runs on symbolic tensors
  under the Cell's scope (so nodes know they came from ``network/fc1``).
* In GRAPH mode at top level, the call is compiled once per input signature and the graph runs.
* In PYNATIVE mode ``construct`` simply runs, primitive by primitive.
"""
import sys

import numpy as np

from mslab.autodiff import custom_bprop, graph_syntax
from mslab.core import state
from mslab.core.collector import collector_paused
from mslab.core.context import is_graph_mode
from mslab.core.errors import CellNestingError
from mslab.core.fp_warnings import quiet_kernels
from mslab.core.pytree import flatten
from mslab.core.tensor import Tensor
from mslab.runtime.compiled import cache_of, input_names


def _check_inputs(cell, args):
    for i, a in enumerate(args):
        if isinstance(a, np.ndarray):
            raise TypeError(f"{type(cell).__name__}: input {i} is a numpy array of shape {a.shape}; Cells take "
                            f"mslab Tensors. Wrap it: mslab.Tensor(array).")


def _run_construct(cell, args, kwargs):
    hooks = cell.__dict__.get("_forward_hooks")
    if not hooks or not (hooks["pre"] or hooks["post"]):
        return _run_construct_only(cell, args, kwargs)
    return _run_with_hooks(cell, hooks, args, kwargs)


def _run_with_hooks(cell, hooks, args, kwargs):
    """``construct`` between the forward hooks registered on ``cell``, as MindSpore's ``Cell.__call__`` runs them:
    each pre hook ``fn(cell, args)`` may return new inputs (a non-tuple is one input); each hook
    ``fn(cell, args, output)`` may return a new output. ``with_kwargs`` hooks also get (and may replace) the
    keyword arguments; ``always_call`` hooks run even when ``construct`` raises."""
    for fn, with_kwargs, _ in list(hooks["pre"].values()):
        ret = fn(cell, args, kwargs) if with_kwargs else fn(cell, args)
        if ret is None:
            continue
        if with_kwargs:
            if not (isinstance(ret, tuple) and len(ret) == 2):
                raise RuntimeError("forward pre hook with kwargs must return None or a tuple of (new_args, "
                                   f"new_kwargs), but got {ret}")
            args, kwargs = ret
        else:
            args = ret if isinstance(ret, tuple) else (ret,)
    try:
        output = _run_construct_only(cell, args, kwargs)
    except Exception:
        for fn, with_kwargs, always in list(hooks["post"].values()):
            if always:
                fn(cell, args, kwargs, None) if with_kwargs else fn(cell, args, None)
        raise
    for fn, with_kwargs, _ in list(hooks["post"].values()):
        ret = fn(cell, args, kwargs, output) if with_kwargs else fn(cell, args, output)
        if ret is not None:
            output = ret
    return output


def _run_construct_only(cell, args, kwargs):
    # Nothing may raise between the push and the ``try`` below: a Cell left on ``state.cells`` would
    # put itself into the scope of every later node (a RecursionError can strike anywhere).
    precision = cell.__dict__.get("_mixed_precision_type")  # set by Cell.to_float
    state.cells.append(cell)
    if precision is not None:
        state.mixed_precision.append((precision, {}))  # the dtype, and each input's cast made once per call
    try:
        phase = getattr(cell, "_graph_phase", None)
        # While tracing, construct runs as the front end converted it (control flow on tensors -> nodes),
        # and the graph notes that it depends on this Cell (its training flag and attributes).
        tracer = state.tracer
        if tracer is None:
            construct = cell.construct
        else:
            construct = graph_syntax.converted(cell.construct)
            tracer.note_cell(cell)
        if phase is None:
            return construct(*args, **kwargs)
        recorders = [state.tracer] if state.tracer is not None else list(state.tapes)
        saved = [r.phase for r in recorders]
        for r in recorders:
            r.phase = phase
        try:
            return construct(*args, **kwargs)
        finally:
            for r, p in zip(recorders, saved):
                r.phase = p
    finally:
        state.cells.pop()
        if precision is not None:
            state.mixed_precision.pop()


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


_BPROP: dict[type, bool] = {}  # Cell class -> whether it defines its own bprop (asked on every call under a gradient)


def _has_bprop(cls):
    has = _BPROP.get(cls)
    if has is None:
        has = _BPROP[cls] = getattr(cls, "bprop", None) is not None
    return has


def call_cell(cell, args, kwargs):
    """Run ``cell(*args, **kwargs)`` in the current mode.

    At the outermost call, a failure that comes from an input that is not a Tensor (``net([1, 2])``,
    ``net(None)``) is reported as a TypeError naming the Cell and the input (MindSpore: ``For
    primitive[Shape], the input argument must be Tensor, but got <class 'list'>``), and Cells nested
    deeper than Python's recursion limit raise a CellNestingError.
    """
    tracing = state.tracer is not None
    if (tracing or state.tapes) and not kwargs and _has_bprop(type(cell)):
        # A Cell with its own backward, while a gradient is being recorded: one node, its bprop the Cell's.
        return custom_bprop.call(cell, args, lambda a: _run_construct(cell, a, {}))
    if tracing:
        return _run_construct(cell, args, kwargs)
    _check_inputs(cell, args)
    if state.cells:  # inside an eager call: its outermost call already guards and words the errors
        if kwargs or not is_graph_mode():
            return _run_construct(cell, args, kwargs)  # (every layer of an eager step: _call_here's work, shorter)
        return compile_call(cell, args).run(args)
    try:
        # The whole call computes without numpy's floating-point warnings (core/fp_warnings) and without the cycle
        # collector walking the step's objects (core/collector).
        with quiet_kernels(), collector_paused():
            return _call_here(cell, args, kwargs, True)
    except RecursionError as e:
        if isinstance(e, CellNestingError):
            raise
        raise CellNestingError(type(cell).__name__, "Calling", sys.getrecursionlimit()) from None
    except (AttributeError, TypeError) as e:
        why = _not_a_tensor(args)
        if why is None:
            raise
        raise TypeError(f"{type(cell).__name__}: {why} ({type(e).__name__}: {e})") from e


def _call_here(cell, args, kwargs, outermost):
    """A top-level (not traced) call: compiled in GRAPH mode, construct run eagerly in PYNATIVE mode."""
    if is_graph_mode() and not kwargs:
        return compile_call(cell, args).run(args)
    if outermost and any(t.shows_calls for t in state.tapes):
        return _record_call(cell, args, kwargs)
    return _run_construct(cell, args, kwargs)

def _record_call(cell, args, kwargs):
    """An outermost PYNATIVE call under ``mslab.record()``: name the tape's inputs, mark its outputs."""
    tapes = [t for t in state.tapes if t.shows_calls]
    names = input_names(cell, len(args))
    for t in tapes:
        t.name_inputs(args, names)
    out = _run_construct(cell, args, kwargs)
    for t in tapes:
        t.mark_outputs([o for o in flatten(out)[0] if isinstance(o, Tensor)])
    return out


def compile_call(cell, args):
    """The Compiled graph a GRAPH-mode call ``cell(*args)`` runs (traced and cached on first use)."""
    construct = cell.__dict__.get("_construct_fn")
    if construct is None:
        construct = cell.__dict__["_construct_fn"] = _Construct(cell)
    return cache_of(cell).get(construct, args)


def compiled_graphs(cell):
    """The graphs compiled for this Cell so far (one per input signature)."""
    cache = cell.__dict__.get("_compile_cache")
    return [e.compiled.graph for es in cache.graphs.values() for e in es] if cache else []

