"""GRAPH mode's compile-and-run: trace a callable once per input signature, optimise, execute.

``trace(fn, *args)`` returns the Graph a call would compile (what a learner prints or draws).
``CompileCache.call(fn, args)`` is what a Cell call, a ``jit`` function or a ``GradOperation``
result does in GRAPH mode: look the signature up (shapes, dtypes, constant arguments, training
flags), trace and compile on a miss, then run the executor on the input arrays.
"""
from __future__ import annotations

import inspect
from collections import OrderedDict
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from mslab.autodiff import graph_syntax
from mslab.core import graph_mode, state, tensor_hooks
from mslab.core.context import LAX, STRICT, get_context
from mslab.core.errors import GraphModeError
from mslab.core.freeze import freeze
from mslab.core.pytree import flatten, unflatten
from mslab.core.tensor import Parameter, ParameterTuple, Tensor
from mslab.ir.graph import Graph
from mslab.ir.passes import optimize
from mslab.ir.tape import RunRecorder
from mslab.ir.tracer import tracing
from mslab.runtime.executor import Executor

_changes = 0  # moves on whenever some Cell's training flag or public attribute changes


def cell_changed() -> None:
    """Some Cell's training flag or a public attribute changed (``Cell.set_train`` and ``Cell.__setattr__``
    call this): compiled graphs re-check the Cells they were traced through before their next run."""
    global _changes
    _changes += 1


class _Entry:
    """A compiled graph with what it baked in: each Cell it ran through, with its training flag and
    attribute version at trace time. It serves a call only while all of them are unchanged, so a graph
    for training and one for evaluation live side by side, and a change to one Cell leaves the graphs
    of the others alone."""

    __slots__ = ("compiled", "deps", "checked")

    def __init__(self, compiled: Compiled, cells: Sequence[Any]) -> None:
        self.compiled = compiled
        self.deps = [(c, c.training, c._attr_version) for c in cells]
        self.checked = _changes

    def valid(self) -> bool:
        if self.checked == _changes:
            return True
        for cell, training, version in self.deps:
            if cell.training != training or cell._attr_version != version:
                return False
        self.checked = _changes
        return True

    def outdated(self) -> bool:
        """An attribute it baked in has changed since: it can never serve a call again."""
        return any(cell._attr_version != version for cell, _, version in self.deps)


def input_names(fn: Any, n: int) -> list[str]:
    """Names for the ``n`` graph inputs of a call to ``fn``: its parameter names (``x``, ``label``).

    A gradient function is named after the function it differentiates, and a wrapper whose construct
    takes ``*inputs`` (TrainOneStepCell, WithLossCell, ...) after the network it passes them to.
    """
    fn = getattr(fn, "_names_from", None) or fn
    target = getattr(fn, "construct", fn)
    try:
        params = list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        params = []
    params = [p for p in params if p.name != "self"]
    if params and all(p.kind == p.VAR_POSITIONAL for p in params):
        owner = getattr(fn, "cell", None) or getattr(target, "__self__", None)
        inner = getattr(owner, "network", None) or getattr(owner, "_backbone", None)
        if inner is not None and inner is not owner:
            return input_names(inner, n)
    names = []
    for p in params:
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            names.append(p.name)
        elif p.kind == p.VAR_POSITIONAL:
            names.extend(f"{p.name}{i}" for i in range(n - len(names)))
    names += [f"arg{i}" for i in range(len(names), n)]
    return names[:n]


def _const_sig(a: Any) -> Any:
    # Python containers and scalars select the compiled graph by value, as MindSpore does: a new dict
    # with other values compiles anew instead of reusing a graph that baked the old ones in.
    if isinstance(a, (tuple, list)):
        return (type(a).__name__,) + tuple(_sig(x) for x in a)
    if isinstance(a, dict):
        return ("dict",) + tuple((k, _sig(v)) for k, v in a.items())
    if isinstance(a, np.ndarray):
        raise TypeError("a numpy array was passed where a Tensor is expected: wrap it as mslab.Tensor(array) "
                        "(numpy arrays are not graph inputs)")
    try:
        return freeze(a)
    except TypeError:  # no value to compare (a set, an object without __hash__): this very object
        return ("id", id(a))


def _sig(a: Any) -> Any:
    if isinstance(a, Parameter):  # read when the graph runs, so the graph is this Parameter's
        return ("P", id(a))
    if isinstance(a, Tensor):
        return ("T", a.shape, a._np_dtype.str)
    return _const_sig(a)


def signature(args: Sequence[Any]) -> tuple:
    """The cache key of a call: tensor shapes and dtypes, and the values of its constant arguments."""
    return tuple(_sig(a) for a in args)


def _symbolic_args(graph: Graph, args: Sequence[Any], names: Sequence[str]) -> list[Any]:
    out: list[Any] = []
    for a, name in zip(args, names):
        if isinstance(a, (Parameter, ParameterTuple)):
            out.append(a)  # Parameters are not graph inputs: the graph reads (and may write) them as they are
        elif isinstance(a, Tensor):
            t = Tensor._symbolic(None)
            t._sym = graph.add_input(name, a.shape, a._np_dtype, handle=t)
            tensor_hooks.share(a, t)  # the argument's hooks are compiled in, and stay (as in MindSpore 2.10)
            out.append(t)
        elif isinstance(a, (tuple, list)) and any(isinstance(x, Tensor) for x in a):
            out.append(type(a)(_symbolic_args(graph, a, [f"{name}{i}" for i in range(len(a))])))
        elif isinstance(a, dict) and any(isinstance(x, Tensor) for x in a.values()):
            out.append(dict(zip(a, _symbolic_args(graph, list(a.values()), [f"{name}_{k}" for k in a]))))
        else:
            out.append(a)
    return out


def tensor_leaves(args: Sequence[Any]) -> Iterator[Tensor]:
    """The Tensors among call arguments (inside tuples too), in order: a graph's input arrays."""
    for a in args:
        if isinstance(a, Parameter):
            continue  # read by the graph itself
        if isinstance(a, Tensor):
            yield a
        elif isinstance(a, (tuple, list)):
            yield from tensor_leaves(a)
        elif isinstance(a, dict):
            yield from tensor_leaves(list(a.values()))


def trace(fn: Callable, *args: Any, name: str | None = None, optimize_graph: bool = True, names_from: Any = None,
          syntax_level: int | None = None) -> Graph:
    """Trace ``fn(*args)`` into a Graph without running it: forward, and backward/optimizer nodes if
    ``fn`` computes gradients or updates weights (a ``GradOperation`` result, a TrainOneStepCell).

    As MindSpore's default ``capture_mode="ast"``: the source of ``fn`` (and of the Cells and functions
    it calls) is converted first, so ``if``/``while`` on tensors become If/While nodes, and Python with
    no graph form becomes JIT Fallback nodes (``syntax_level``: LAX or STRICT; the context's by default).
    ``print(mslab.trace(net, x))`` shows the IR text.
    """
    if state.tracer is not None:
        raise GraphModeError("mslab.trace cannot be called while another graph is being traced")
    name = name or getattr(fn, "__name__", None) or type(fn).__name__
    if syntax_level is None:
        syntax_level = get_context("jit_syntax_level")
    graph = Graph(name)
    sym = _symbolic_args(graph, args, input_names(names_from or fn, len(args)))
    with tracing(graph, syntax_level) as tr:
        out = graph_syntax.converted(fn)(*sym)
        leaves, tree = flatten(out)
        graph.outputs = [tr.value_of(t) for t in leaves]
    graph.output_tree = tree
    graph.cells = list(tr.cells_seen)  # the Cells whose construct it ran: what it depends on
    if optimize_graph:
        optimize(graph)
    return graph


def trace_by_running(fn: Callable, args: Sequence[Any], name: str | None = None, names_from: Any = None,
                     ) -> tuple[Graph, Any]:
    """``jit(capture_mode="trace")``: run ``fn(*args)`` eagerly once and keep what ran as a Graph.

    Returns ``(graph, result)``. Python control flow is baked in as it ran on these values (MindSpore's
    trace mode does the same, without a warning): a later call with values that would take another
    branch still runs the recorded one.
    """
    rec = RunRecorder(name or getattr(fn, "__name__", None) or type(fn).__name__)
    graph = rec.graph
    for t, n in zip(tensor_leaves(args), input_names(names_from or fn, len(list(tensor_leaves(args))))):
        rec.add_call_input(t, n)
    state.tapes.append(rec)
    try:
        result = fn(*args)
    finally:
        state.tapes.remove(rec)
    leaves, tree = flatten(result)
    graph.outputs = [rec.value_of(t) for t in leaves]
    graph.output_tree = tree
    optimize(graph)
    return graph, result


class Compiled:
    """One traced and compiled graph with its executor."""

    __slots__ = ("graph", "executor")

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.executor = Executor(graph)

    def run(self, args: Sequence[Any]) -> Any:
        """Run the graph on the call's tensors; its outputs as Tensors, in the structure ``fn`` returned."""
        arrays = [t._data for t in tensor_leaves(args)]
        outs = self.executor.run(arrays)
        return unflatten(self.graph.output_tree, [Tensor._wrap(a) for a in outs])


class CompileCache:
    """Compiled graphs of one callable, keyed by input signature; at most ``graph_cache_size`` of them.

    ``capture_mode``: "ast" (convert the source, MindSpore's default) or "trace" (record one eager run).
    ``syntax_level``: what JIT Fallback may do (None: the context's ``jit_syntax_level``). The least
    recently used graph goes when the cache is full (``set_context(graph_cache_size=n)``, mslab only),
    so calls with ever new batch sizes do not pile graphs up.
    """

    def __init__(self, names_from: Any = None, capture_mode: str = "ast", syntax_level: int | None = None) -> None:
        self.graphs: OrderedDict[tuple, list[_Entry]] = OrderedDict()  # signature -> [_Entry], most recently used last
        self.names_from = names_from  # the function whose parameter names name the graph inputs
        self.capture_mode = capture_mode
        self.syntax_level = syntax_level

    def _lookup(self, key: tuple) -> Compiled | None:
        entries = self.graphs.get(key)
        if not entries:
            return None
        for e in entries:
            if e.valid():
                self.graphs.move_to_end(key)
                return e.compiled
        entries[:] = [e for e in entries if not e.outdated()]
        return None

    def _store(self, key: tuple, graph: Graph) -> Compiled:
        c = Compiled(graph)
        self.graphs.setdefault(key, []).append(_Entry(c, getattr(graph, "cells", ())))
        self.graphs.move_to_end(key)
        limit = max(1, int(get_context("graph_cache_size")))
        while sum(len(es) for es in self.graphs.values()) > limit:
            oldest = next(iter(self.graphs))
            self.graphs[oldest].pop(0)
            if not self.graphs[oldest]:
                del self.graphs[oldest]
        return c

    def get(self, fn: Callable, args: Sequence[Any]) -> Compiled:
        """The Compiled graph for a call ``fn(*args)``: cached by signature, traced and compiled on a miss."""
        key = signature(args)
        c = self._lookup(key)
        if c is None:
            c = self._store(key, trace(fn, *args, names_from=self.names_from, syntax_level=self.syntax_level))
        return c

    def call(self, fn: Callable, args: Sequence[Any]) -> Any:
        """The result of ``fn(*args)`` run as a compiled graph (``capture_mode='trace'``: a miss runs it eagerly)."""
        if self.capture_mode == "trace":
            key = signature(args)
            c = self._lookup(key)
            if c is None:  # the recording run is this call: its result (and side effects) count once
                graph, result = trace_by_running(fn, args, names_from=self.names_from)
                self._store(key, graph)
                return result
            return c.run(args)
        return self.get(fn, args).run(args)

    def __len__(self) -> int:
        return sum(len(es) for es in self.graphs.values())


def cache_of(owner: Any, names_from: Any = None) -> CompileCache:
    """The CompileCache kept on ``owner`` (a Cell, a gradient function), made on first use."""
    cache = getattr(owner, "_compile_cache", None)  # a Cell declares it (None until now); a gradient function not
    if cache is None:
        cache = owner._compile_cache = CompileCache(names_from=names_from)
    return cache


def run_compiled(owner: Any, fn: Callable, args: Sequence[Any]) -> Any:
    """A top-level GRAPH-mode call of a gradient function: compiled once per signature, graphs kept on ``owner``."""
    return cache_of(owner, names_from=owner).call(fn, args)


graph_mode.install(run_compiled)


_CAPTURE_MODES = ("ast", "trace")


class jit:
    """Compile a function (or method) as GRAPH mode does: ``@mslab.jit`` (1.x name ``ms_function``).

    MindSpore 2.10's signature: ``jit(function=None, *, capture_mode="ast", jit_level="O0", dynamic=0,
    fullgraph=False, backend="", **options)``. ``capture_mode="ast"`` converts the function's source
    (control flow on tensors becomes If/While nodes); ``"trace"`` records the operators one run calls, so
    Python control flow is baked in as it ran. A jit function accepts JIT Fallback (LAX) unless
    ``fullgraph=True`` (STRICT), whatever the context says (observed on MindSpore 2.10). The first call
    with a new input signature compiles; later calls run the graph. Inside a graph being traced, the
    function is simply inlined.
    """

    def __init__(self, function: Callable | None = None, *, capture_mode: str = "ast", jit_level: str = "O0",
                 dynamic: int = 0, fullgraph: bool = False, backend: str = "", **options: Any) -> None:
        if capture_mode not in _CAPTURE_MODES:
            raise ValueError(f"jit: capture_mode must be one of {_CAPTURE_MODES} in mslab, got {capture_mode!r} "
                             f"(MindSpore's 'bytecode' mode is not offered)")
        self.fn = function
        self.options = dict(capture_mode=capture_mode, jit_level=jit_level, dynamic=dynamic, fullgraph=fullgraph,
                            backend=backend, **options)
        self.capture_mode = capture_mode
        self.cache = CompileCache(capture_mode=capture_mode, syntax_level=STRICT if fullgraph else LAX)
        if function is not None:
            self.__name__ = getattr(function, "__name__", "jit")
            self.__doc__ = getattr(function, "__doc__", None)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.fn is None:  # used as @jit(...) with arguments
            return jit(args[0], **self.options)
        if state.tracer is not None:
            return graph_syntax.call(self.fn, *args, **kwargs)
        if state.tapes:
            # A PYNATIVE gradient is recording (``ms.grad(jit_fn)``): run the operators where its tape sees
            # them. Same numbers; the branches taken are those of these values, as in MindSpore.
            return self.fn(*args, **kwargs)
        if kwargs:
            raise TypeError(f"jit function {self.__name__}: pass tensors positionally in GRAPH mode")
        return self.cache.call(self.fn, args)

    def __get__(self, obj: Any, objtype: type | None = None) -> jit:
        if obj is None:
            return self
        # One compiled function per instance, kept on the instance (so its graphs die with it): in its dict
        # ``_jit_methods``, which a Cell declares (None until its first jit method) and other objects get here.
        name = getattr(self.fn, "__name__", "fn")
        methods = getattr(obj, "_jit_methods", None)
        j = None if methods is None else methods.get(name)
        if j is None:
            j = jit(self.fn.__get__(obj, objtype), **self.options)  # type: ignore[union-attr]  # a method: fn is set
            if methods is None and hasattr(obj, "__dict__"):
                methods = obj._jit_methods = {}
            if methods is not None:
                methods[name] = j
        return j


def ms_function(fn: Callable | None = None, input_signature: Any = None, **kwargs: Any) -> jit:
    """MindSpore 1.x's name for ``jit`` (``ms_function(fn, input_signature=None)``)."""
    return jit(fn, **kwargs)


def jit_class(cls: type) -> type:
    """Mark a user class so GRAPH mode may use its instances and methods (``@mindspore.jit_class``).

    MindSpore's graph compiler needs the mark to read such an object's attributes and call its methods
    inside ``construct``; mslab traces ``construct`` by running Python, which can use any object, so the
    mark is recorded (``cls.__ms_class__``) and the class comes back unchanged. The checks and messages
    are MindSpore 2.10's (observed on CPU).
    """
    if not isinstance(cls, type):
        raise TypeError(f"Decorator jit_class can only be used for class type, but got {cls}.")
    # A Cell is compiled through its construct already (mslab.nn.cell.Cell, found by name: nn is a layer above)
    if any(k.__name__ == "Cell" and k.__module__ == "mslab.nn.cell" for k in cls.__mro__):
        raise TypeError(f"Decorator jit_class is used for user-defined classes and cannot be used for nn.Cell: {cls}.")
    cls.__ms_class__ = True  # type: ignore[attr-defined]  # the mark, on the user's class
    return cls
