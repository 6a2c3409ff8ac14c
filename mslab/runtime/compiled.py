"""GRAPH mode's compile-and-run: trace a callable once per input signature, optimise, execute.

``trace(fn, *args)`` returns the Graph a call would compile (what a learner prints or draws).
``CompileCache.call(fn, args)`` is what a Cell call, a ``jit`` function or a ``GradOperation``
result does in GRAPH mode: look the signature up (shapes, dtypes, constant arguments, training
flags), trace and compile on a miss, then run the executor on the input arrays.
"""
import inspect

import numpy as np

from mslab.core import graph_mode, state
from mslab.core.errors import GraphModeError
from mslab.core.pytree import flatten, unflatten
from mslab.core.tensor import Tensor
from mslab.ir.graph import Graph
from mslab.ir.passes import optimize
from mslab.ir.tracer import tracing
from mslab.runtime.executor import Executor

_generation = 0  # part of every cache key; invalidate() moves it on, so older graphs are never hit again


def invalidate():
    """Make every compiled graph stale: Cell state a graph may have baked in as a constant changed.

    ``Cell.set_train`` calls it (graphs depend on every Cell's training flag), and so does writing a
    public Cell attribute (``self.scale = 2.0`` after compiling). The next call recompiles.
    """
    global _generation
    _generation += 1


def input_names(fn, n):
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


def _const_sig(a):
    if isinstance(a, (tuple, list)):
        return (type(a).__name__,) + tuple(_sig(x) for x in a)
    if isinstance(a, np.ndarray):
        raise TypeError("a numpy array was passed where a Tensor is expected: wrap it as mslab.Tensor(array) "
                        "(numpy arrays are not graph inputs)")
    try:
        hash(a)
        return ("C", type(a).__name__, a)
    except TypeError:
        return ("id", id(a))


def _sig(a):
    if isinstance(a, Tensor):
        return ("T", a.shape, a._np_dtype.str)
    return _const_sig(a)


def signature(args):
    """The cache key of a call: tensor shapes and dtypes, constant arguments, training flags."""
    return (tuple(_sig(a) for a in args), _generation)


def _symbolic_args(graph, args, names):
    out = []
    for a, name in zip(args, names):
        if isinstance(a, Tensor):
            t = Tensor._symbolic(None)
            t._sym = graph.add_input(name, a.shape, a._np_dtype, handle=t)
            out.append(t)
        elif isinstance(a, (tuple, list)) and any(isinstance(x, Tensor) for x in a):
            out.append(type(a)(_symbolic_args(graph, a, [f"{name}{i}" for i in range(len(a))])))
        else:
            out.append(a)
    return out


def tensor_leaves(args):
    """The Tensors among call arguments (inside tuples too), in order: a graph's input arrays."""
    for a in args:
        if isinstance(a, Tensor):
            yield a
        elif isinstance(a, (tuple, list)):
            yield from tensor_leaves(a)


def trace(fn, *args, name=None, optimize_graph=True, names_from=None):
    """Trace ``fn(*args)`` into a Graph without running it: forward, and backward/optimizer nodes if
    ``fn`` computes gradients or updates weights (a ``GradOperation`` result, a TrainOneStepCell).

    ``print(mslab.trace(net, x))`` shows the IR text.
    """
    if state.tracer is not None:
        raise GraphModeError("mslab.trace cannot be called while another graph is being traced")
    name = name or getattr(fn, "__name__", None) or type(fn).__name__
    graph = Graph(name)
    sym = _symbolic_args(graph, args, input_names(names_from or fn, len(args)))
    with tracing(graph) as tr:
        out = fn(*sym)
        leaves, tree = flatten(out)
        graph.outputs = [tr.value_of(t) for t in leaves]
    graph.output_tree = tree
    if optimize_graph:
        optimize(graph)
    return graph


class Compiled:
    """One traced and compiled graph with its executor."""

    __slots__ = ("graph", "executor")

    def __init__(self, graph):
        self.graph = graph
        self.executor = Executor(graph)

    def run(self, args):
        arrays = [t._data for t in tensor_leaves(args)]
        outs = self.executor.run(arrays)
        return unflatten(self.graph.output_tree, [Tensor._wrap(a) for a in outs])


class CompileCache:
    """Compiled graphs of one callable, keyed by input signature."""

    def __init__(self, names_from=None):
        self.graphs = {}
        self.names_from = names_from  # the function whose parameter names name the graph inputs

    def get(self, fn, args):
        key = signature(args)
        c = self.graphs.get(key)
        if c is None:
            c = Compiled(trace(fn, *args, names_from=self.names_from))
            self.graphs[key] = c
        return c

    def call(self, fn, args):
        return self.get(fn, args).run(args)


def cache_of(owner, names_from=None):
    """The CompileCache kept on ``owner`` (a Cell, a gradient function), made on first use."""
    cache = owner.__dict__.get("_compile_cache")
    if cache is None:
        cache = owner.__dict__["_compile_cache"] = CompileCache(names_from=names_from)
    return cache


def run_compiled(owner, fn, args):
    """A top-level GRAPH-mode call of a gradient function: compiled once per signature, graphs kept on ``owner``."""
    return cache_of(owner, names_from=owner).call(fn, args)


graph_mode.install(run_compiled)


class jit:
    """Compile a function (or method) as GRAPH mode would: ``@mslab.jit`` (1.x name ``ms_function``).

    The first call with a new input signature traces and compiles; later calls run the graph.
    Inside a graph being traced, the function is simply inlined.
    """

    def __init__(self, fn=None, input_signature=None, **kwargs):
        self.fn = fn
        self.cache = CompileCache()
        if fn is not None:
            self.__name__ = getattr(fn, "__name__", "jit")
            self.__doc__ = getattr(fn, "__doc__", None)

    def __call__(self, *args, **kwargs):
        if self.fn is None:  # used as @jit(...) with arguments
            return jit(args[0])
        if state.tracer is not None:
            return self.fn(*args, **kwargs)
        if kwargs:
            raise TypeError(f"jit function {self.__name__}: pass tensors positionally in GRAPH mode")
        return self.cache.call(self.fn, args)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        # One compiled function per instance, kept on the instance (so its graphs die with it).
        key = "_jit_" + getattr(self.fn, "__name__", "fn")
        j = obj.__dict__.get(key) if hasattr(obj, "__dict__") else None
        if j is None:
            j = jit(self.fn.__get__(obj, objtype))
            if hasattr(obj, "__dict__"):
                obj.__dict__[key] = j
        return j


ms_function = jit
