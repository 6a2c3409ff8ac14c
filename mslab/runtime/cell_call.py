"""The pieces ``Cell.__call__`` uses (``mslab/nn/cell.py`` shows the three cases; this module holds the details).

* ``guard(cell, args, graph_mode)``: what the outermost call adds around itself: numpy's warnings off, the cycle
  collector paused, an input that is not a Tensor or a too deep nesting reported in words, ``mslab.record()``'s
  input names; and a training step's own guard (``Cell._step_guard``). Another nested call gets a context that
  does nothing.
* ``pre_hooks`` / ``post_hooks`` / ``always_hooks``: forward hooks, run as MindSpore's ``Cell.__call__`` runs them.
* ``recorders_in_phase``: the nodes an optimizer records get the phase ``"optimizer"``.
* ``graphs_of(cell)``: the compiled graphs a GRAPH-mode call runs (one per input signature), and what they trace.

``mslab.runtime`` sits below ``mslab.nn``: nothing here imports a Cell, not even for a type (``cell: Any``); it is
handed one.
"""
from __future__ import annotations

import functools
import sys
from collections import OrderedDict
from types import TracebackType
from typing import Any, Callable, Literal, Sequence, TypeAlias

import numpy as np

from mslab.core import state
from mslab.core.collector import collector_paused
from mslab.core.errors import CellNestingError
from mslab.core.fp_warnings import quiet_kernels
from mslab.core.pytree import flatten
from mslab.core.tensor import Tensor
from mslab.ir.graph import Graph
from mslab.ir.node import Phase
from mslab.runtime.compiled import CompileCache, Compiled, cache_of, input_names


def _not_a_tensor(args: Sequence[Any]) -> str | None:
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


# A Cell's forward hooks (``Cell._forward_hooks``): by kind ("pre", "post"), handle id -> (hook, with_kwargs,
# always_call), in the order they run.
Hooks: TypeAlias = "dict[str, OrderedDict[int, tuple[Callable, bool, bool]]]"


def guard(cell: Any, args: Sequence[Any], graph_mode: bool) -> _Guard | None:
    """The context of an eager (not traced) call of ``cell``: a ``_Guard`` for the outermost call, or for a
    training step (``cell._step_guard``) at any depth; None for other nested calls (the outermost one guards them).

    Numpy arrays are refused at every level (``net(np_array)`` is a common slip).
    """
    for i, a in enumerate(args):
        if isinstance(a, np.ndarray):
            raise TypeError(f"{type(cell).__name__}: input {i} is a numpy array of shape {a.shape}; Cells take "
                            f"mslab Tensors. Wrap it: mslab.Tensor(array).")
    step = cell._step_guard
    if state.cells:  # inside an eager call: its outermost call already guards and words the errors
        return None if step is None else _Guard(cell, args, False, False, step())
    recording = not graph_mode and bool(state.tapes) and any(t.shows_calls for t in state.tapes)
    return _Guard(cell, args, True, recording, None if step is None else step())


class _Guard:
    """The outermost call computes without numpy's floating-point warnings (core/fp_warnings) and without the
    cycle collector walking the step's objects (core/collector).

    A failure that comes from an input that is not a Tensor (``net([1, 2])``, ``net(None)``) is reported as a
    TypeError naming the Cell and the input (MindSpore: ``For primitive[Shape], the input argument must be
    Tensor, but got <class 'list'>``), and Cells nested deeper than Python's recursion limit raise a
    CellNestingError. Under ``mslab.record()`` (a PYNATIVE call), the tape names the call's inputs after
    ``construct``'s arguments and marks its outputs. A training step's own guard (``step``, e.g. all or nothing
    of its writes) goes inside. (A class, not a generator: every step enters it.)
    """

    __slots__ = ("cell", "args", "tapes", "outer", "step")

    def __init__(self, cell: Any, args: Sequence[Any], outermost: bool, recording: bool, step: Any) -> None:
        self.cell, self.args, self.step = cell, args, step
        self.tapes = [t for t in state.tapes if t.shows_calls] if recording else ()
        self.outer = (quiet_kernels(), collector_paused()) if outermost else ()

    def __enter__(self) -> _Guard:
        if self.tapes:
            names = input_names(self.cell, len(self.args))
            for t in self.tapes:
                t.name_inputs(self.args, names)
        if self.outer:
            quiet, paused = self.outer
            quiet.__enter__()
            paused.__enter__()
        if self.step is not None:
            self.step.__enter__()
        return self

    def recorded(self, output: Any) -> Any:
        """``output``, marked as the call's outputs on the tapes recording it (``mslab.record()``)."""
        for t in self.tapes:
            t.mark_outputs([o for o in flatten(output)[0] if isinstance(o, Tensor)])
        return output

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> Literal[False]:
        if self.step is not None:
            self.step.__exit__(exc_type, exc, tb)
        if self.outer:
            quiet, paused = self.outer
            paused.__exit__(exc_type, exc, tb)
            quiet.__exit__(exc_type, exc, tb)
        if exc_type is None or not self.outer or isinstance(exc, CellNestingError):
            return False
        name = type(self.cell).__name__
        if isinstance(exc, RecursionError):
            raise CellNestingError(name, "Calling", sys.getrecursionlimit()) from None
        if isinstance(exc, (AttributeError, TypeError)):
            why = _not_a_tensor(self.args)
            if why is not None:
                raise TypeError(f"{name}: {why} ({type(exc).__name__}: {exc})") from exc
        return False


# ---- forward hooks (``Cell.register_forward_pre_hook`` / ``register_forward_hook``) ----------------------------
def pre_hooks(cell: Any, hooks: Hooks, args: tuple[Any, ...], kwargs: dict[str, Any],
              ) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """Each pre hook ``fn(cell, args)`` may return new inputs (a non-tuple is one input); a ``with_kwargs`` one,
    ``fn(cell, args, kwargs)``, returns None or ``(new_args, new_kwargs)``. Returns ``(args, kwargs)``."""
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
    return args, kwargs


def post_hooks(cell: Any, hooks: Hooks, args: tuple[Any, ...], kwargs: dict[str, Any], output: Any) -> Any:
    """Each hook ``fn(cell, args, output)`` (``with_kwargs``: ``fn(cell, args, kwargs, output)``) may return a new
    output."""
    for fn, with_kwargs, _ in list(hooks["post"].values()):
        ret = fn(cell, args, kwargs, output) if with_kwargs else fn(cell, args, output)
        if ret is not None:
            output = ret
    return output


def always_hooks(cell: Any, hooks: Hooks, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """``construct`` raised: the ``always_call=True`` hooks run anyway, with output None."""
    for fn, with_kwargs, always in list(hooks["post"].values()):
        if always:
            fn(cell, args, kwargs, None) if with_kwargs else fn(cell, args, None)


class recorders_in_phase:
    """``with recorders_in_phase(phase):`` the tracer (or else every tape) records nodes with ``phase`` (an
    optimizer's ``"optimizer"``)."""

    __slots__ = ("phase", "saved")

    def __init__(self, phase: Phase) -> None:
        self.phase = phase

    def __enter__(self) -> recorders_in_phase:
        recorders = [state.tracer] if state.tracer is not None else list(state.tapes)
        self.saved = [(r, r.phase) for r in recorders]
        for r in recorders:
            r.phase = self.phase
        return self

    def __exit__(self, *exc: Any) -> Literal[False]:
        for r, phase in self.saved:
            r.phase = phase
        return False


_BPROP: dict[type, bool] = {}  # Cell class -> whether it defines its own bprop (asked on every call under a gradient)


def has_bprop(cls: type) -> bool:
    """Whether the Cell class defines ``bprop`` (its own backward, used when a gradient records the call)."""
    has = _BPROP.get(cls)
    if has is None:
        has = _BPROP[cls] = getattr(cls, "bprop", None) is not None
    return has


# ---- GRAPH mode ------------------------------------------------------------------------------------------------
def graphs_of(cell: Any) -> tuple[CompileCache, Callable]:
    """``(cache, construct)``: the CompileCache kept on ``cell`` and the function it traces.

    That function is ``cell._construct_call`` (hooks, scope, ``construct``) as a partial, which adds no Python
    frame, named after the Cell and carrying ``construct`` and ``cell`` for the graph's input names.
    """
    construct: Any = cell._construct_fn  # a functools.partial carrying attributes of its own
    if construct is None:
        construct = functools.partial(cell._construct_call)
        construct.__name__ = type(cell).__name__
        construct.construct = cell.construct  # for argument names
        construct.cell = cell
        cell._construct_fn = construct
    return cache_of(cell), construct


def compile_call(cell: Any, args: Sequence[Any]) -> Compiled:
    """The Compiled graph a GRAPH-mode call ``cell(*args)`` runs (traced and cached on first use)."""
    cache, construct = graphs_of(cell)
    return cache.get(construct, args)


def compiled_graphs(cell: Any) -> list[Graph]:
    """The graphs compiled for this Cell so far (one per input signature)."""
    cache = cell._compile_cache
    return [e.compiled.graph for es in cache.graphs.values() for e in es] if cache else []
