"""Recursive functions in GRAPH mode: a function that calls itself, stopping on a tensor's value.

Tracing inlines the functions that ``construct`` calls. A recursion whose stop depends on a tensor
(``if x > 0: return f(x - 1) + 1``) would inline forever, since both branches of a tensor ``if`` are
recorded. MindSpore compiles such a function once, as a graph of its own that calls itself; mslab does the
same: when a function calls itself with arguments of the same kind (tensors of the same shapes and dtypes,
equal Python values), its call is traced again as a graph of its own, and each recursive call becomes a
CallGraph node of that graph. When the graph runs, the If node that holds the stop decides how deep it goes.

The graph's output type is needed while its own calls are recorded: the first guess is the type of the
first tensor argument; if the traced graph returns something else, it is traced again with that type.
"""
import sys

import numpy as np

from mslab.autodiff.control_flow import TupleGetItem
from mslab.autodiff.subgraphs import error, flat_items, trace_subgraph
from mslab.core import state
from mslab.core.context import call_depth_limit
from mslab.core.errors import GraphModeError
from mslab.core.tensor import Tensor
from mslab.ir.evaluate import run_graph
from mslab.ir.node import Value, ValueKind
from mslab.ops.primitive import Primitive


class RecursiveFunction:
    """One recursive function compiled for one kind of arguments: its graph and its output type."""

    def __init__(self, name, first_tensor):
        self.name = name
        self.graph = None  # set once traced (its own CallGraph nodes read it when they run)
        self.parts = [(tuple(first_tensor.shape), first_tensor._np_dtype)]  # [(shape, dtype)] of the outputs
        self.rebuild = lambda items: items[0]  # the outputs' structure (one tensor, a tuple, ...)
        self.depth = 0  # calls running now, nested
        self.failure = None  # the error of a recursion that went too deep, on its way out


class CallGraph(Primitive):
    """A call of a recursive function's graph (MindSpore: a graph calling itself). Output: a tuple of the
    function's outputs. Only the outermost call shows the graph as its subgraph (it contains itself)."""

    def __init__(self, fn, outermost):
        super().__init__()
        self.fn = fn
        self.parts = list(fn.parts)
        self.subgraphs = ((fn.name, fn.graph),) if outermost else ()

    def key(self):
        return (type(self), id(self))

    def infer(self, *ins):
        return (), np.dtype(object)

    def _run(self, run, xs):
        fn = self.fn
        if fn.depth >= _depth_limit() and fn.failure is None:
            fn.failure = GraphModeError(f"the recursive function {fn.name} called itself {fn.depth} times deep "
                                        f"while the graph ran: an infinite recursion or loop (its stop condition "
                                        f"never held)")
            raise fn.failure
        fn.depth += 1
        try:
            return tuple(run(list(xs)))
        except Exception:
            if fn.failure is not None:
                raise fn.failure from None  # once, not wrapped again by every level it passes through
            raise
        finally:
            fn.depth -= 1
            if fn.depth == 0:
                fn.failure = None

    def compute(self, *xs):
        return self._run(lambda a: run_graph(self.fn.graph, a), xs)

    def kernel_with(self, compile_graph):
        compiled = []  # compiled on first run: the graph contains this node, so it cannot be compiled before

        def kernel(*xs):
            if not compiled:
                compiled.append(compile_graph(self.fn.graph))
            return self._run(compiled[0], xs)
        return kernel

    def bprop(self, *args):
        raise error(f"mslab cannot differentiate through the recursive function {self.fn.name} yet")


def _depth_limit():
    # Each nested call runs a few Python frames (executor, If node, subgraph): stay well inside Python's limit.
    return max(10, sys.getrecursionlimit() // 12)


class _Restart(Exception):
    """Raised by a recursive call to the outer call of the same function: trace it as a graph of its own."""

    def __init__(self, frame):
        super().__init__("restart")
        self.frame = frame


class _Frame:
    def __init__(self, signature):
        self.signature = signature
        self.fn = None  # the RecursiveFunction, once the function is known to recurse


_active: list[_Frame] = []  # the user functions being inlined now, outermost first


def _kind(x):
    """What a recursive call must repeat exactly to be a call of the same graph."""
    if isinstance(x, Tensor):
        return ("tensor", tuple(x.shape), x._np_dtype)
    if isinstance(x, (tuple, list)):
        return (type(x), tuple(_kind(a) for a in x))
    try:
        hash(x)
        return (type(x), x)
    except TypeError:
        return ("object", id(x))


def call(converted, original, args, kwargs):
    """``converted(*args, **kwargs)`` while a graph is traced, recording a recursion as a graph that calls itself."""
    if state.tracer is None or kwargs or not any(isinstance(a, Tensor) for a in args):
        return converted(*args, **kwargs)
    if len(_active) >= call_depth_limit():  # MindSpore 2.10's words (observed), first lines
        raise RuntimeError(f"Exceed function call depth limit {call_depth_limit()}, (function call depth: "
                           f"{len(_active) + 1}). It's always happened with complex construction of code or infinite "
                           "recursion or loop. Please check the code if it's has the infinite recursion or call "
                           "'mindspore.set_recursion_limit(recursion_limit=value)' to adjust this value.")
    target = getattr(original, "__func__", original)
    signature = (target.__code__, id(getattr(original, "__self__", None)), _kind(args))
    for frame in _active:
        if frame.signature == signature:  # the function calls itself with arguments of the same kind
            if frame.fn is None:
                raise _Restart(frame)
            return _call_node(frame.fn, args, outermost=False)
    frame = _Frame(signature)
    graph = state.tracer.graph
    start = len(graph.nodes)
    _active.append(frame)
    try:
        try:
            return converted(*args)
        except _Restart as restart:
            if restart.frame is not frame:
                raise
        del graph.nodes[start:]  # what the inlined attempt recorded: the graph of its own replaces it
        name = getattr(target, "__qualname__", "recursive")
        return _call_node(_trace_recursive(frame, name, converted, args), args, outermost=True)
    finally:
        _active.pop()


def _trace_recursive(frame, name, converted, args):
    positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
    tensors = [args[i] for i in positions]
    fn = frame.fn = RecursiveFunction(name, tensors[0])  # from now on, its own calls record CallGraph nodes

    def body(*ts):
        values = list(args)
        for i, t in zip(positions, ts):
            values[i] = t
        return converted(*values)

    parent = state.tracer
    for _ in range(3):  # the output type guessed, then the one the traced graph gives
        graph, tracer, result = trace_subgraph(f"{parent.graph.name}.{name}", body, tensors)
        leaves, rebuild = flat_items(result)
        if not all(isinstance(t, Tensor) for t in leaves):
            raise error(f"the recursive function {name} returns {result!r}; a function that calls itself in a "
                        f"graph must return tensors")
        if tracer.captured:
            raise error(f"the recursive function {name} reads a tensor computed outside it; pass it as an argument")
        graph.outputs = [tracer.value_of(t) for t in leaves]
        parts = [(v.shape, v.dtype) for v in graph.outputs]
        same_structure = rebuild(list(range(len(leaves)))) == fn.rebuild(list(range(len(fn.parts))))
        if parts == fn.parts and same_structure:
            if not _stops(graph, fn):
                raise error(f"There isn't any branch that can be evaluated: the recursive function {name} calls "
                            f"itself on every path; check the code for an infinite recursion or loop")
            fn.graph = graph
            return fn
        fn.parts, fn.rebuild = parts, rebuild
    raise error(f"the recursive function {name} returns values whose shape or dtype changes with the depth of "
                f"the recursion; a graph's value has one shape and dtype")


def _stops(graph, fn):
    """Whether ``graph``'s outputs can be computed along some path that does not call ``fn`` again (for a
    control-flow node: through one of its subgraphs, the branch that stops the recursion)."""
    done = set()
    for n in graph.nodes:
        if isinstance(n.prim, CallGraph) and n.prim.fn is fn:
            continue
        ready = all(v.kind != ValueKind.NODE or v in done for v in n.inputs if type(v) is Value)
        if ready and (not n.prim.subgraphs or any(_stops(sub, fn) for _, sub in n.prim.subgraphs)):
            done.add(n.out)
    return all(v.kind != ValueKind.NODE or v in done for v in graph.outputs)


def _call_node(fn, args, outermost):
    out = CallGraph(fn, outermost)(*[a for a in args if isinstance(a, Tensor)])
    return fn.rebuild([TupleGetItem(i)(out) for i in range(len(fn.parts))])
