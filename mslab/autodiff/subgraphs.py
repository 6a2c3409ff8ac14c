"""Recording subgraphs for control flow: a branch or a loop body traced into a Graph of its own.

``trace_subgraph`` records a function into a new graph inside the one being traced (values it reads
from outside become inputs); ``replay`` records a graph's nodes again (a backward branch recomputes its
forward branch); ``merge_outputs`` lines up what two branches give (tensors of one type, or equal Python
values), so an If node has one output type whichever branch runs.
"""
import numpy as np

from mslab.autodiff.backprop import backprop
from mslab.core import dtype as mstype
from mslab.core import state
from mslab.core.errors import GraphModeError
from mslab.core.tensor import Tensor
from mslab.ir.graph import Graph, Value
from mslab.ir.provenance import source_line
from mslab.ir.tracer import Tracer, recording_with
from mslab.ops import array_ops


class _Undefined:
    """The value of a variable that has not been assigned yet (carried into a branch that may assign it)."""

    def __repr__(self):
        return "UNDEFINED"


UNDEFINED = _Undefined()


def load(thunk):
    """``thunk()``, or UNDEFINED when the variable it reads is not assigned yet."""
    try:
        return thunk()
    except NameError:
        return UNDEFINED


def error(message):
    """A GraphModeError that ends with the line of the learner's code it is about."""
    where = source_line()
    return GraphModeError(message + (f"\n  at {where}" if where else ""))


def is_symbolic(x):
    return isinstance(x, Tensor) and x._data is None


def trace_subgraph(name, fn, explicit=()):
    """Record ``fn(*explicit)`` into a new subgraph of the graph being traced.

    Each tensor in ``explicit`` becomes an input of the subgraph (in order); any other value of an
    enclosing graph that ``fn`` reads is captured as a further input. Returns ``(graph, tracer, result)``.
    """
    parent = state.tracer
    graph = Graph(name)
    sub = Tracer(graph, parent=parent)
    args = []
    for i, a in enumerate(explicit):
        if isinstance(a, Tensor):
            v = graph.add_input(f"arg{i}", a.shape, a._np_dtype)
            v.handle = Tensor._symbolic(v)
            args.append(v.handle)
        else:
            args.append(a)
    with recording_with(sub):
        result = fn(*args)
    return graph, sub, result


def replay(graph, args):
    """Record ``graph``'s nodes again in the active tracer on ``args`` (one per graph input)."""
    tr = state.tracer
    env = dict(zip(graph.inputs, args))
    for v in graph.params + graph.consts:
        env[v] = v.handle
    start = len(tr.graph.nodes)
    for n in graph.nodes:
        env[n.out] = tr.record(n.prim, [env[v] if type(v) is Value else v for v in n.inputs])
    return [env[v] for v in graph.outputs], tr.graph.nodes[start:]


def graph_gradients(graph, xs, douts, weights=()):
    """Gradients of ``graph``'s outputs (weighted by ``douts``) w.r.t. its inputs ``xs``, then w.r.t. the
    Parameters ``weights`` it reads, recorded in the active tracer."""
    tr = state.tracer
    outs, nodes = replay(graph, xs)
    roots = [tr.value_of(o) for o in outs]
    sources = [*xs, *weights]
    grads = backprop(tr, nodes, roots, list(douts), [tr.value_of(x) for x in sources])
    return tuple(g if g is not None else array_ops.zeros_like(x) for g, x in zip(grads, sources))


def zeros(shape, dtype):
    return array_ops.zeros(shape, mstype.from_numpy(np.dtype(dtype)))


def flat_items(obj):
    """``(leaves, rebuild)``: the non-container items of nested tuples/lists in order, and how to put them back."""
    if isinstance(obj, (tuple, list)):
        parts = [flat_items(x) for x in obj]
        leaves = [leaf for p, _ in parts for leaf in p]
        sizes = [len(p) for p, _ in parts]

        def rebuild(items):
            out, i = [], 0
            for (_, build), n in zip(parts, sizes):
                out.append(build(items[i:i + n]))
                i += n
            return type(obj)(out)
        return leaves, rebuild
    return [obj], lambda items: items[0]


def tensor_for(value, like):
    """A Python number as a tensor, typed like ``like`` (a Tensor) when given: so both branches agree."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (bool, np.bool_)):
        dt = mstype.bool_
    elif isinstance(value, (int, np.integer)):
        dt = mstype.int64
    elif isinstance(value, (float, np.floating)):
        dt = mstype.float32
    else:
        return None
    if isinstance(like, Tensor):
        dt = like.dtype
    return Tensor(value, dt)


def describe(name):
    return f"variable '{name}'" if name else "the returned value"


def merge_outputs(where, tracers, results, names):
    """Line up what the branches give; return (per-branch graph outputs, parts, rebuild, constants)."""
    leaves, rebuild = zip(*[flat_items(r) for r in results])
    if len({len(x) for x in leaves}) != 1:
        raise error(f"the branches of {where} give results of different structure; both must return the "
                             f"same number of values")
    outs = [[] for _ in tracers]
    parts, slots = [], []
    for i, items in enumerate(zip(*leaves)):
        name = names[i] if names and i < len(names) else None
        if any(x is UNDEFINED for x in items):
            if all(x is UNDEFINED for x in items):
                slots.append(("C", UNDEFINED))
                continue
            raise error(f"{describe(name)} is assigned in only one branch of {where}; give it a value "
                                 f"before the `if` (a graph value must exist on every path)")
        if not any(isinstance(x, Tensor) for x in items) and all(same(items[0], x) for x in items):
            slots.append(("C", items[0]))
            continue
        like = next((x for x in items if isinstance(x, Tensor)), None)
        tensors = [tensor_for(x, like) for x in items]
        if any(t is None for t in tensors):
            kinds = " and ".join(type(x).__name__ for x in items)
            raise error(f"{describe(name)} is a {kinds} in the branches of {where}; a value that differs "
                                 f"between branches must be a tensor or a number")
        values = [tr.value_of(t) for tr, t in zip(tracers, tensors)]
        first = values[0]
        for v in values[1:]:
            if v.shape != first.shape or v.dtype != first.dtype:
                raise error(f"{describe(name)} is {first.type_str} in one branch of {where} and "
                                     f"{v.type_str} in another; a graph value has one shape and dtype")
        for o, v in zip(outs, values):
            o.append(v)
        slots.append(("T", len(parts)))
        parts.append((first.shape, first.dtype))
    return outs, parts, rebuild[0], slots


def same(a, b):
    try:
        return bool(a == b) and type(a) is type(b)
    except Exception:
        return a is b


def unify_inputs(graphs_and_tracers):
    """Give every subgraph the same inputs: the union of what each captured, in one order."""
    order = []
    for _, tr in graphs_and_tracers:
        for v in tr.captured:
            if all(v is not o for o in order):
                order.append(v)
    for graph, tr in graphs_and_tracers:
        explicit = [x for x in graph.inputs if all(x is not inner for _, inner in tr.captured.values())]
        inputs = list(explicit)
        for v in order:
            entry = tr.captured.get(v)
            inputs.append(entry[1] if entry else graph.add_input(f"unused{len(inputs)}", v.shape, v.dtype))
        graph.inputs = inputs
    outer = []
    for v in order:
        for _, tr in graphs_and_tracers:
            if v in tr.captured:
                outer.append(tr.captured[v][0])
                break
    return outer


