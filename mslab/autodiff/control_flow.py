"""Control flow on tensor values in GRAPH mode: If and While nodes that hold subgraphs, and their gradients.

The front end (``mslab.ir.frontend``) rewrites ``if``/``while`` into calls of :func:`if_` and
:func:`while_`, which decide while the function is recorded:

* a condition that is a Python value (a *constant condition*: shapes, attributes, ``self.training``)
  runs one branch, or unrolls the loop, as plain Python: the graph shows no control flow;
* a condition that is a tensor (a *variable condition*) records both branches, or the loop's condition
  and body, as subgraphs of one If or While node, and the graph decides when it runs.

These primitives live beside autodiff, not with the op families, because their bprops differentiate
their subgraphs: the backward of If is an If over the branches' backward graphs, and the backward of
While runs the body's backward once per iteration, in reverse, on the values the forward loop kept.
(MindSpore expresses the same with Switch and partial nodes; one If node with two subgraphs shows the
same idea with fewer boxes.)
"""
import numpy as np

from mslab.autodiff.backprop import reading_parameters_as
from mslab.autodiff.subgraphs import (
    UNDEFINED,
    describe,
    error,
    graph_gradients,
    is_symbolic,
    load,
    merge_outputs,
    parameter_now,
    replay,
    same,
    tensor_for,
    trace_subgraph,
    unify_inputs,
    zeros,
)
from mslab.core import state
from mslab.core.tensor import Tensor
from mslab.ir.evaluate import run_graph
from mslab.ir.graph import Value, ValueKind
from mslab.ops import math_ops, shape_ops, unary_ops
from mslab.ops.primitive import Primitive

__all__ = ["If", "While", "WhileGrad", "TupleGetItem", "if_", "while_", "and_", "or_", "not_", "ifexp", "load",
           "UNDEFINED"]


def _has_side_effect(graph):
    return any(n.prim.side_effect for n in graph.nodes)


def _parameters_used(*graphs):
    """``(read, written)``: the Parameters the subgraphs read, and those they write (Assign, ``self.w = t``),
    control flow nested in them included; each once, in first-use order.

    A Parameter is read where it lives, not passed in as an input, so the node must name the ones it reads for
    autodiff (``Primitive.parameters``): a weight used inside a loop body gets its gradient through the loop's
    bprop.
    """
    read, written = {}, {}
    for g in graphs:
        wrote = {}  # the output of a write: the Parameter it wrote (reading it reads the Parameter)
        for n in g.nodes:
            target = n.written_parameter
            if target is not None:
                written.setdefault(id(target.handle), target.handle)
                wrote[n.out] = target
            for v in n.inputs:
                if type(v) is Value and v.kind == ValueKind.PARAM and v is not target:
                    read.setdefault(id(v.handle), v.handle)
                elif type(v) is Value and v in wrote:
                    read.setdefault(id(wrote[v].handle), wrote[v].handle)
            for p in n.prim.parameters:
                read.setdefault(id(p), p)
            for p in getattr(n.prim, "writes", ()):  # a nested If or While
                written.setdefault(id(p), p)
    return tuple(read.values()), tuple(written.values())


def _read_before_written(graph):
    """The Parameters a loop body writes and reads before its write: such a read sees the previous iteration's
    write, so the loop keeps a copy of them with each iteration for its backward (``While.kept_parameters``)."""
    written = {id(p) for p in _parameters_used(graph)[1]}
    done, early = set(), []
    for n in graph.nodes:
        target = n.written_parameter
        reads = [v.handle for v in n.inputs if type(v) is Value and v.kind == ValueKind.PARAM and v is not target]
        for p in reads + list(n.prim.parameters):
            if id(p) in written and id(p) not in done and all(p is not q for q in early):
                early.append(p)
        done |= {id(p) for p in ([target.handle] if target is not None else getattr(n.prim, "writes", ()))}
    return early


# ---- primitives ------------------------------------------------------------------------------------------------
class TupleGetItem(Primitive):
    """Element ``index`` of a control-flow node's tuple output (MindSpore's TupleGetItem).

    Autodiff does not call a bprop for it: the gradient of the element goes to that position of the
    tuple's gradient (see ``tuple_index`` in ``mslab.autodiff.backprop``).
    """

    n_tensors = 1

    def __init__(self, index):
        super().__init__(index=index)
        self.tuple_index = index

    def infer(self, tup):
        if isinstance(tup, tuple):
            a = tup[self.index]
            return np.shape(a), np.asarray(a).dtype
        return tup.parts[self.index]

    def compute(self, tup):
        return tup[self.index]


class _ControlFlow(Primitive):
    """What If and While share: subgraphs, a tuple output described by ``parts``, no merging under CSE."""

    def key(self):
        return (type(self), id(self))

    def infer(self, *ins):
        return (), np.dtype(object)

    def kernel_with(self, compile_graph):
        """The node's kernel with each subgraph compiled by ``compile_graph(graph) -> run(arrays) -> arrays``."""
        raise NotImplementedError


class If(_ControlFlow):
    """``if cond: ... else: ...`` on a tensor: runs one of two subgraphs on the values they read.

    Inputs: the condition (a bool scalar tensor), then every value the branches read from outside
    (both subgraphs take the same inputs). Output: a tuple, one element per value the ``if`` assigns or
    returns.
    """

    def __init__(self, then_graph, else_graph, parts):
        super().__init__()
        self.then_graph, self.else_graph = then_graph, else_graph
        self.subgraphs = (("then", then_graph), ("else", else_graph))
        self.parts = parts
        self.side_effect = _has_side_effect(then_graph) or _has_side_effect(else_graph)
        self.parameters, self.writes = _parameters_used(then_graph, else_graph)

    def compute(self, cond, *xs):
        return tuple(run_graph(self.then_graph if bool(cond) else self.else_graph, xs))

    def kernel_with(self, compile_graph):
        run_then, run_else = compile_graph(self.then_graph), compile_graph(self.else_graph)
        return lambda cond, *xs: tuple((run_then if cond else run_else)(list(xs)))

    def replay(self, ins, parameters):
        """This If recorded again for a backward's recomputation: a new If whose branches replay these ones,
        reading Parameters as ``parameters`` gives them (see ``subgraphs.replay``), and giving what they write
        as further outputs. Returns its output and ``{id(Parameter): value written}``."""
        cond, xs = ins[0], ins[1:]
        name, writes = state.tracer.graph.name, self.writes
        branches = []
        for label, graph in self.subgraphs:
            def branch(g=graph):
                outs, _, now = replay(g, xs, parameters)
                return [*outs, *[parameter_now(p, now) for p in writes]]
            sub_graph, sub, outs = trace_subgraph(f"{name}.{label}", branch)
            sub_graph.outputs = [sub.value_of(t) for t in outs]
            branches.append((sub_graph, sub))
        outer = unify_inputs(branches)
        parts = self.parts + [(tuple(p.shape), p._np_dtype) for p in writes]
        out = If(branches[0][0], branches[1][0], parts)(cond, *[v.handle for v in outer])
        return out, {id(p): TupleGetItem(len(self.parts) + j)(out) for j, p in enumerate(writes)}

    def bprop(self, cond, *rest, needs=None):
        """An If over the two branches' backward graphs: each recomputes its branch and differentiates it
        (w.r.t. the values it reads, then the Parameters in ``needs``)."""
        xs, dout = rest[:-2], rest[-1]
        douts = [d if d is not None else zeros(shape, dtype) for d, (shape, dtype) in zip(dout, self.parts)]
        wanted = _wanted(self.parameters, needs)

        def backward_of(graph):
            def branch():
                return graph_gradients(graph, xs, douts, wanted)
            return branch

        grads = if_(cond, backward_of(self.then_graph), backward_of(self.else_graph), (), ())
        return (None, *grads[:len(xs)], *_spread(self.parameters, wanted, grads[len(xs):]))


class While(_ControlFlow):
    """``while cond: body`` on a tensor condition: runs the body subgraph until the condition subgraph is False.

    Inputs: the loop's carried values (what the body assigns), then every other value the condition or the
    body reads. Output: a tuple of the final carried values and, last, the list of the carried values at
    the start of each iteration (kept for the backward pass), each followed by a copy of the Parameters the
    body reads before it writes them (``kept_parameters``: each iteration reads the previous one's write).
    """

    def __init__(self, cond_graph, body_graph, n_carried, parts):
        super().__init__()
        self.cond_graph, self.body_graph, self.n_carried = cond_graph, body_graph, n_carried
        self.subgraphs = (("cond", cond_graph), ("body", body_graph))
        self.parts = parts + [((), np.dtype(object))]
        self.side_effect = _has_side_effect(cond_graph) or _has_side_effect(body_graph)
        self.parameters, self.writes = _parameters_used(cond_graph, body_graph)
        self.kept_parameters = tuple(_read_before_written(body_graph))

    def kept_values(self, vals):
        """What the loop keeps of an iteration for its backward: the carried values, then the kept Parameters."""
        if not self.kept_parameters:  # the usual loop: no copy to make
            return vals
        return list(vals) + [np.array(p._data) for p in self.kept_parameters]

    def _loop(self, run_cond, run_body, xs):
        k = self.n_carried
        vals, rest = list(xs[:k]), list(xs[k:])
        kept = []
        while bool(run_cond(vals + rest)[0]):
            kept.append(self.kept_values(vals))
            vals = list(run_body(vals + rest))
        return (*vals, kept)

    def compute(self, *xs):
        return self._loop(lambda a: run_graph(self.cond_graph, a), lambda a: run_graph(self.body_graph, a), xs)

    def kernel_with(self, compile_graph):
        run_cond, run_body = compile_graph(self.cond_graph), compile_graph(self.body_graph)
        return lambda *xs: self._loop(run_cond, run_body, xs)

    def replay(self, ins, parameters):
        """This While recorded again for a backward's recomputation: a new While whose condition and body
        replay these ones, reading Parameters as ``parameters`` gives them (see ``subgraphs.replay``). The
        Parameters the body writes go round the new loop as carried values (an iteration reads the previous
        one's writes). Returns its output and ``{id(Parameter): value written}``."""
        k, writes = self.n_carried, self.writes
        carried, rest = list(ins[:k]), list(ins[k:])
        start = [parameter_now(p, parameters) for p in writes]
        name = state.tracer.graph.name
        graphs = []
        for label, graph in self.subgraphs:
            def run(*a, g=graph, is_body=label == "body"):
                outs, _, now = replay(g, [*a[:k], *rest], {**parameters, **{id(p): t for p, t in zip(writes, a[k:])}})
                return [*outs, *[parameter_now(p, now) for p in writes]] if is_body else outs
            sub_graph, sub, outs = trace_subgraph(f"{name}.{label}", run, [*carried, *start])
            sub_graph.outputs = [sub.value_of(t) for t in outs]
            graphs.append((sub_graph, sub))
        outer = unify_inputs(graphs)
        parts = self.parts[:-1] + [(tuple(p.shape), p._np_dtype) for p in writes]
        out = While(graphs[0][0], graphs[1][0], k + len(writes), parts)(*carried, *start, *[v.handle for v in outer])
        return out, {id(p): TupleGetItem(k + j)(out) for j, p in enumerate(writes)}

    def bprop(self, *rest, needs=None):
        """A WhileGrad node: the body's backward, once per iteration in reverse, on the kept values (gradients
        w.r.t. the loop's inputs, then the Parameters in ``needs``, which add up over the iterations)."""
        xs, out, dout = rest[:-2], rest[-2], rest[-1]
        k = self.n_carried
        kept = TupleGetItem(k)(out)
        douts = [d if d is not None else zeros(shape, dtype) for d, (shape, dtype) in zip(dout[:k], self.parts)]
        inputs = list(xs)
        wanted = _wanted(self.parameters, needs)
        copies = self.kept_parameters  # the body's backward reads them as kept with each iteration
        c, n = len(copies), len(inputs)

        def body_backward(*a):  # a: carried, the kept Parameters, the other inputs, the douts
            with reading_parameters_as({id(p): t for p, t in zip(copies, a[k:k + c])}):
                return graph_gradients(self.body_graph, [*a[:k], *a[k + c:n + c]], a[n + c:], wanted)

        grad_graph, sub, grads = trace_subgraph(f"{self.body_graph.name}.grad", body_backward,
                                                [*inputs[:k], *copies, *inputs[k:], *douts])
        grad_graph.outputs = [sub.value_of(g) for g in grads]
        extra = [outer for outer, _ in sub.captured.values()]
        parts = [(v.shape, v.dtype) for v in self.body_graph.inputs] + [(tuple(p.shape), p._np_dtype) for p in wanted]
        node = WhileGrad(grad_graph, k, len(inputs) - k, len(extra), parts, c)
        res = node(kept, *xs[k:], *douts, *[v.handle for v in extra])
        grads = [TupleGetItem(i)(res) for i in range(len(parts))]
        return (*grads[:len(inputs)], *_spread(self.parameters, wanted, grads[len(inputs):]))


class WhileGrad(_ControlFlow):
    """The backward of a While: for each kept iteration, last first, the body's backward subgraph maps the
    gradient of the iteration's outputs to the gradient of its inputs; gradients of values the body only
    reads add up over the iterations. Its subgraph's inputs: an iteration's kept values (carried values,
    then ``n_copies`` kept Parameters), the other inputs, the douts, values captured from outside."""

    def __init__(self, grad_graph, n_carried, n_rest, n_extra, parts, n_copies=0):
        super().__init__()
        self.grad_graph, self.n_carried, self.n_rest, self.n_extra = grad_graph, n_carried, n_rest, n_extra
        self.n_copies = n_copies
        self.subgraphs = (("body backward", grad_graph),)
        self.parts = parts
        self.parameters, self.writes = _parameters_used(grad_graph)  # a second derivative is refused

    def _run(self, run, kept, *xs):
        k, r = self.n_carried, self.n_rest
        rest, d, extra = list(xs[:r]), list(xs[r:r + k]), list(xs[r + k:])
        d_rest = [np.zeros(s, dt) for s, dt in self.parts[k:]]
        for vals in reversed(kept):
            grads = run(list(vals) + rest + d + extra)
            d = grads[:k]
            d_rest = [a + b for a, b in zip(d_rest, grads[k:])]
        return (*d, *d_rest)

    def compute(self, kept, *xs):
        return self._run(lambda a: run_graph(self.grad_graph, a), kept, *xs)

    def kernel_with(self, compile_graph):
        run = compile_graph(self.grad_graph)
        return lambda kept, *xs: self._run(run, kept, *xs)

    def bprop(self, *args):
        raise error("mslab cannot differentiate the backward pass of a tensor `while` loop a second time")


def _wanted(parameters, needs):
    """The Parameters (of a control-flow node's ``parameters``) whose gradients autodiff asks for: the last
    flags of ``needs`` (all of them when the rule is called without ``needs``)."""
    if needs is None:
        return list(parameters)
    return [p for p, need in zip(parameters, needs[len(needs) - len(parameters):]) if need]


def _spread(parameters, wanted, grads):
    """One gradient per Parameter of ``parameters``: those of ``wanted`` from ``grads``, None for the others."""
    of = {id(p): g for p, g in zip(wanted, grads)}
    return [of.get(id(p)) for p in parameters]


# ---- what converted code calls ---------------------------------------------------------------------------------
def _condition(c, what):
    """A condition as a Python bool, or as a symbolic bool scalar tensor (a variable condition)."""
    if isinstance(c, Tensor):
        if not is_symbolic(c):
            return bool(c)
        if c.size != 1:
            raise error(f"the condition of {what} is a tensor of shape {tuple(c.shape)}; a condition must "
                                 f"be a single value (use .any() or .all())")
        if c._np_dtype != np.bool_:
            c = math_ops.not_equal(c, 0)
        return shape_ops.reshape(c, ()) if c.shape != () else c
    return c


def _rebuild(rebuild, slots, node_out):
    items = [c if kind == "C" else TupleGetItem(c)(node_out) for kind, c in slots]
    return rebuild(items)


def if_(cond, then_fn, else_fn, carried, names):
    """Run ``then_fn(*carried)`` or ``else_fn(*carried)``: directly for a Python condition, as an If node
    holding both (recorded as subgraphs) for a tensor condition. Returns what the branch returns."""
    c = _condition(cond, "an `if`")
    if not is_symbolic(c):
        return (then_fn if c else else_fn)(*carried)
    parent = state.tracer
    n = len(parent.graph.nodes)
    # The branches read ``carried`` (and anything else from outside) as captured inputs.
    then_g, then_tr, then_res = trace_subgraph(f"{parent.graph.name}.then{n}", lambda: then_fn(*carried))
    else_g, else_tr, else_res = trace_subgraph(f"{parent.graph.name}.else{n}", lambda: else_fn(*carried))
    outs, parts, rebuild, slots = merge_outputs("this `if`", [then_tr, else_tr], [then_res, else_res], names)
    then_g.outputs, else_g.outputs = outs
    outer = unify_inputs([(then_g, then_tr), (else_g, else_tr)])
    out = If(then_g, else_g, parts)(c, *[v.handle for v in outer])
    return _rebuild(rebuild, slots, out)


def while_(cond_fn, body_fn, carried, names):
    """``while cond_fn(*carried): carried = body_fn(*carried)``: unrolled in Python while the condition is a
    Python value; from the first tensor condition on, one While node holding the condition and the body."""
    carried = tuple(carried)
    while True:
        c = _condition(cond_fn(*carried), "a `while`")
        if is_symbolic(c):
            return _record_while(cond_fn, body_fn, carried, names)
        if not c:
            return carried
        carried = tuple(body_fn(*carried))


def _record_while(cond_fn, body_fn, carried, names):
    values = list(carried)
    for i, v in enumerate(values):
        if v is UNDEFINED:
            raise error(f"{describe(names[i])} is assigned in a `while` loop on a tensor condition but has "
                                 f"no value before it; give it one (a graph loop's values exist before the first "
                                 f"iteration)")
        t = None if isinstance(v, Tensor) else tensor_for(v, None)
        if t is not None:
            values[i] = t  # a Python number the body changes must be a tensor to flow around the loop
    idx = [i for i, v in enumerate(values) if isinstance(v, Tensor)]
    explicit = [values[i] for i in idx]

    def with_carried(ts):
        vals = list(values)
        for j, i in enumerate(idx):
            vals[i] = ts[j]
        return vals

    def cond_call(*ts):
        c = _condition(cond_fn(*with_carried(ts)), "a `while`")
        return c if isinstance(c, Tensor) else Tensor(bool(c))

    def body_call(*ts):
        out = list(body_fn(*with_carried(ts)))
        for i, (before, after) in enumerate(zip(values, out)):
            if i not in idx and not same(before, after):
                raise error(f"{describe(names[i])} changes from {before!r} to {after!r} in a `while` loop "
                                     f"on a tensor condition; only tensors and numbers can change in a graph loop")
        return [out[i] if isinstance(out[i], Tensor) else tensor_for(out[i], explicit[j]) for j, i in enumerate(idx)]

    parent = state.tracer
    n = len(parent.graph.nodes)
    cond_g, cond_tr, c = trace_subgraph(f"{parent.graph.name}.cond{n}", cond_call, explicit)
    body_g, body_tr, res = trace_subgraph(f"{parent.graph.name}.body{n}", body_call, explicit)
    cond_g.outputs = [cond_tr.value_of(c)]
    body_g.outputs = [body_tr.value_of(t) for t in res]
    for j, (v, x) in enumerate(zip(body_g.outputs, explicit)):
        if v.shape != tuple(x.shape) or v.dtype != x._np_dtype:
            name = names[idx[j]] if names else None
            raise error(f"{describe(name)} is {Value('input', '', x.shape, x._np_dtype).type_str} before a "
                                 f"`while` loop and {v.type_str} after its body; a value carried around a graph loop "
                                 f"keeps its shape and dtype")
    outer = unify_inputs([(cond_g, cond_tr), (body_g, body_tr)])
    parts = [(tuple(x.shape), x._np_dtype) for x in explicit]
    out = While(cond_g, body_g, len(idx), parts)(*explicit, *[v.handle for v in outer])
    final = with_carried([TupleGetItem(j)(out) for j in range(len(idx))])
    return tuple(final)


def _truthy(value):
    return bool(value)


def _as_bool(x):
    return x if not isinstance(x, Tensor) or x._np_dtype == np.bool_ else math_ops.not_equal(x, 0)


def and_(*thunks):
    """``a and b and ...``: Python's rule for Python values; a tensor makes the rest a logical_and."""
    value = thunks[0]()
    for thunk in thunks[1:]:
        if is_symbolic(value):
            value = math_ops.logical_and(_as_bool(value), _as_bool(thunk()))
        elif not _truthy(value):
            return value
        else:
            value = thunk()
    return value


def or_(*thunks):
    """``a or b or ...``: Python's rule for Python values; a tensor makes the rest a logical_or."""
    value = thunks[0]()
    for thunk in thunks[1:]:
        if is_symbolic(value):
            value = math_ops.logical_or(_as_bool(value), _as_bool(thunk()))
        elif _truthy(value):
            return value
        else:
            value = thunk()
    return value


def not_(x):
    """``not x``: a logical_not for a tensor being traced."""
    return unary_ops.logical_not(_as_bool(x)) if is_symbolic(x) else not x


def ifexp(cond, then_thunk, else_thunk):
    """``a if cond else b``."""
    return if_(cond, then_thunk, else_thunk, (), ())
