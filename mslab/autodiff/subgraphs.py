"""Recording subgraphs for control flow: a branch or a loop body traced into a Graph of its own.

``trace_subgraph`` records a function into a new graph inside the one being traced (values it reads
from outside become inputs); ``replay`` records a graph's nodes again (a backward branch recomputes its
forward branch); ``merge_outputs`` lines up what two branches give (tensors of one type, or equal Python
values), so an If node has one output type whichever branch runs.
"""
import numpy as np

from mslab.autodiff.backprop import REPLAY_PARAMETERS, backprop
from mslab.core import dtype as mstype
from mslab.core import state
from mslab.core.errors import GraphModeError
from mslab.core.tensor import Tensor
from mslab.ir.graph import Graph, Value, ValueKind
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


class Unknown:
    """What a Parameter holds in a replay where the replay cannot give the value the forward read: after a write
    by an op other than Assign. Such a read gets a stand-in (a copy of the Parameter as it is when the backward
    runs); ``graph_gradients`` refuses it if a gradient depends on it."""


# The stand-ins of a replay and the values made from them (Values of the graphs being traced).
STAND_INS: set = set()


def replay(graph, args, parameters=None):
    """Record ``graph``'s nodes again in the active tracer on ``args`` (one per graph input), to differentiate them.

    A Parameter is read as the forward read it: ``parameters`` (id -> tensor; autodiff's ``REPLAY_PARAMETERS``
    by default) holds the copy autodiff took before the control-flow node where a write changed it since;
    after a write in the subgraph, the value written. Writes are not recorded again: the forward did them,
    once. Nested control flow is recorded again the same way (``replay`` of If and While), giving the values
    it wrote as outputs. Returns the outputs, the nodes recorded, and what each Parameter holds at the end.
    """
    tr = state.tracer
    now = dict(REPLAY_PARAMETERS if parameters is None else parameters)
    env = dict(zip(graph.inputs, args))
    for v in graph.consts:
        env[v] = v.handle
    start = len(tr.graph.nodes)
    for n in graph.nodes:
        target = n.written_parameter
        ins = [_read(v, env, now, n) for v in n.inputs]
        if target is not None:
            env[n.out] = now[id(target.handle)] = _written_value(n, ins)
            continue
        known, written = len(STAND_INS), {}
        if n.prim.subgraphs and hasattr(n.prim, "replay"):  # a nested If or While
            env[n.out], written = n.prim.replay(ins, now)
            now.update(written)
        else:
            env[n.out] = tr.record(n.prim, ins)
        if STAND_INS and (len(STAND_INS) > known or any(_stands_in(tr, x._sym) for x in ins if isinstance(x, Tensor))):
            STAND_INS.update(tr.value_of(t) for t in [env[n.out], *written.values()])
    return [_read(v, env, now, None) for v in graph.outputs], tr.graph.nodes[start:], now


def parameter_now(p, now):
    """What Parameter ``p`` holds in a replay whose Parameters hold ``now`` (a stand-in where that is unknown)."""
    value = now.get(id(p), p)
    if value is Unknown:
        value = array_ops.Identity()(p)
        STAND_INS.add(value._sym)
    return value


def _read(v, env, now, node):
    """The replay's value of a node input (or, for ``node`` None, an output) ``v``."""
    if type(v) is not Value:
        return v
    if v.kind != ValueKind.PARAM:
        return env[v]
    if node is not None and v is node.written_parameter:  # the Parameter written, not a read of it
        return v.handle
    return parameter_now(v.handle, now)


def _stands_in(tracer, v):
    """Whether Value ``v`` of ``tracer``'s graph is a stand-in or made from one (through captured inputs too)."""
    while v is not None:
        if v in STAND_INS:
            return True
        outer = next((o for o, inner in tracer.captured.values() if inner is v), None)
        v, tracer = outer, tracer.parent
    return False


def _refuse_stand_ins_on_gradient_path(tracer, nodes, roots, targets):
    """The nodes whose bprop rules run (they depend on a target and lead to a root) must not read a stand-in."""
    depends, on_path = set(targets), []
    for n in nodes:
        if n.prim.differentiable and any(type(v) is Value and v in depends for v in n.inputs):
            depends.add(n.out)
            on_path.append(n)
    leads = set(roots)
    for n in reversed(on_path):
        if n.out in leads:
            ins = [v for v in n.inputs if type(v) is Value]
            leads.update(ins)
            if any(_stands_in(tracer, v) for v in ins):
                raise GraphModeError(
                    "mslab cannot differentiate through this tensor `if`/`while`: the gradient needs a Parameter's "
                    "value as the forward read it after an in-place write the backward cannot recompute (only "
                    "Assign's, `self.w = ...`, can be); move the write out of the `if`/`while`"
                    + (f"\n  at {n.source}" if n.source else ""))


def _written_value(n, ins):
    """What write node ``n`` put into its Parameter: for an Assign its value input (in the Parameter's dtype)."""
    if type(n.prim) is not array_ops.Assign:  # (AssignAdd is a subclass: its value is not what it wrote)
        return Unknown
    value, dtype = ins[1], mstype.from_numpy(n.written_parameter.dtype)
    if not isinstance(value, Tensor):
        return Tensor(value, dtype)
    return value if value.dtype == dtype else array_ops.cast(value, dtype)


def graph_gradients(graph, xs, douts, weights=()):
    """Gradients of ``graph``'s outputs (weighted by ``douts``) w.r.t. its inputs ``xs``, then w.r.t. the
    Parameters ``weights`` it reads, recorded in the active tracer."""
    tr = state.tracer
    _depth[0] += 1
    try:
        outs, nodes, _ = replay(graph, xs)
        roots = [tr.value_of(o) for o in outs]
        read_as = [REPLAY_PARAMETERS.get(id(p), p) for p in weights]
        sources = [*xs, *[p if r is Unknown else r for p, r in zip(weights, read_as)]]
        targets = [tr.value_of(x) for x in sources]
        if STAND_INS:
            _refuse_stand_ins_on_gradient_path(tr, nodes, roots, targets)
        grads = backprop(tr, nodes, roots, list(douts), targets)
    finally:
        _depth[0] -= 1
        if not _depth[0]:  # the outermost backward of control flow is recorded: no stand-in is looked up again
            STAND_INS.clear()
    return tuple(g if g is not None else array_ops.zeros_like(x) for g, x in zip(grads, sources))


_depth = [0]  # how many graph_gradients calls are under way (they nest: a branch's backward holds its inner If's)


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


