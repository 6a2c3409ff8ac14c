"""The executor: a graph compiled into a flat schedule, run as straight-line code over numbered buffers.

Compilation (once per graph):

* every value gets a slot (a buffer number);
* every node gets its *kernel*: ``prim.kernel(inputs)`` lets an operator work out once what depends only
  on shapes, dtypes and constant attributes (axes, output shapes, window geometry); the default is
  ``compute`` with the node's constant inputs bound;
* nodes whose inputs are all known at compile time (constants, or folded nodes, such as the ``Fill``
  that makes *sens* and what is computed from it) are folded: computed once, here;
* each buffer is noted as free after its last reader, so numpy can reuse the memory;
* the schedule is turned into one Python function, a line per node (``print(executor.code)``); its
  variables are named after the IR values they hold (``%0`` is ``_0``, ``%fc1.weight`` is ``fc1_weight``), its
  kernels after the node they run and, when short, the node's Cell path (as torch.fx names its code)::

      _0 = k_0_fc1_MatMul(x, fc1_weight)    # %0 = MatMul
      _1 = k_1_fc1_BiasAdd(_0, fc1_bias)    # %1 = BiasAdd
      del _0

(The speed layer may plan the lines itself, through ``mslab.core.hooks.executor_lines``: ``mslab.fast.fusion``
computes some pairs of neighbouring nodes in one line, bit for bit what the two nodes compute.)

Running is calling that function: the same kernels in recorded order, which is also the order of side
effects (an optimizer's ``Assign`` runs after the backward nodes that read the weight).

``steps()`` runs the same schedule one node at a time and exposes every intermediate value: the
step-through views use it, never a second interpreter.
"""
from __future__ import annotations

import functools
import keyword
import re
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from mslab.autodiff.control_flow import If, While
from mslab.core import hooks
from mslab.core.errors import ExecutionError
from mslab.core.fp_warnings import quiet_kernels
from mslab.core.tensor import Tensor
from mslab.ir.graph import Graph, Node, Value, ValueKind


class Line:
    """One line of the generated code: ``fn`` of the ``ins`` slots, giving the ``outs`` slots; ``members`` are the
    schedule indices of the nodes it computes (one, unless the speed layer fused some), the first one's where the
    line stands."""

    __slots__ = ("fn", "ins", "outs", "members")

    def __init__(self, fn, ins, outs, members):
        self.fn, self.ins, self.outs, self.members = fn, ins, outs, members


def one_line_per_node(schedule, keep):
    """The plain plan of the generated code: each scheduled node ``(fn, slots, out, node)`` on a line of its own."""
    return [Line(fn, ins, (out,), (k,)) for k, (fn, ins, out, _) in enumerate(schedule)]


def _bind(compute, inputs, slot_of):
    """A function of the tensor inputs only, with the node's constant inputs bound in place."""
    slots = [slot_of[v] for v in inputs if type(v) is Value]
    consts = [v for v in inputs if type(v) is not Value]
    if not consts:
        return compute, slots
    n = len(slots)
    if all(type(v) is Value for v in inputs[:n]):  # tensors first, attributes after: the usual case
        tail = tuple(consts)
        return (lambda *xs: compute(*xs, *tail)), slots
    pattern = [(type(v) is Value, v) for v in inputs]

    def call(*xs):
        it = iter(xs)
        return compute(*[next(it) if is_t else c for is_t, c in pattern])
    return call, slots


_NOT_A_NAME_CHARACTER = re.compile(r"\W")


def _identifier(text: str) -> str:
    """``text`` made a Python identifier: ``%12`` -> ``_12``, ``fc1.weight`` -> ``fc1_weight``."""
    name = text.lstrip("%")
    if name.isdigit():  # most values: a node's number (every compile names each of them)
        return "_" + name
    if not name.isidentifier():
        name = _NOT_A_NAME_CHARACTER.sub("_", name)
        if not name or name[0].isdigit():
            name = "_" + name
    return name + "_" if keyword.iskeyword(name) else name


class _Names:
    """The generated code's names, each unique: a second ``fc1_weight`` becomes ``fc1_weight_2``."""

    def __init__(self, taken: Iterable[str] = ()) -> None:
        self.taken = {"run", *taken}

    def __call__(self, name: str) -> str:
        """``name`` (an identifier), or ``name_2``, ``name_3``, ... if it is taken."""
        base, i = name, 1
        while name in self.taken:
            i += 1
            name = f"{base}_{i}"
        self.taken.add(name)
        return name


def value_names(slot_of: dict[Value, int]) -> dict[int, str]:
    """Each slot's name in the generated code: its IR value's name as an identifier (``_identifier``), made unique
    where two would read the same (``fc1.weight`` and ``fc1_weight``)."""
    names = {s: _identifier(v.name) for v, s in slot_of.items()}
    taken = set(names.values())
    if len(taken) < len(names) or "run" in taken:
        unique = _Names()
        names = {s: unique(name) for s, name in names.items()}
    return names


_SHORT_PATH = 20  # a Cell path longer than this is left out of a kernel's name (its last part is kept if short)


def kernel_name(nodes: list[Node]) -> str:
    """``k_12_fc1_MatMul``: the kernel computing ``nodes`` (one node, or a fused line) named after the first node's
    IR name and Cell path (when short) and the ops it runs."""
    first = nodes[0]
    path = _short_path(first.scope)
    ops = first.prim.name if len(nodes) == 1 else "_".join([n.prim.name for n in nodes])
    name = f"k_{first.out.name.lstrip('%')}_{path}_{ops}" if path else f"k_{first.out.name.lstrip('%')}_{ops}"
    return name if name.isidentifier() else _identifier(name)


@functools.lru_cache(maxsize=1024)
def _short_path(scope: str) -> str:
    """``network/_backbone/fc1`` -> ``network_backbone_fc1``, or just ``fc1`` if that is too long, or "" if both are
    (a graph's nodes share a few scopes: each is worked out once)."""
    cells = [c.strip("_") for c in scope.split("/") if c.strip("_")]
    for path in ("_".join(cells), cells[-1] if cells else ""):
        if len(path) <= _SHORT_PATH:
            return _NOT_A_NAME_CHARACTER.sub("_", path)
    return ""


_STEPPABLE = (If, While)  # control-flow nodes whose inner steps ``steps(into_subgraphs=True)`` follows


def _compile_subgraph(graph):
    """A subgraph (an If's branch, a While's body) as a function of its input arrays, compiled once."""
    return Executor(graph).run


def kernel_of(node: Node, slot_of: dict[Value, int]) -> tuple[Callable, list[int], bool]:
    """``(fn, slots, direct)``: the node's kernel, the slots of its tensor inputs, and whether ``fn`` takes
    the tensor inputs alone (a specialised kernel) rather than every input in call order (``compute``).

    A control-flow node (If, While) gets its subgraphs compiled by this executor's class, through
    ``prim.kernel_with(compile)``: the primitive knows how to run them, the runtime how to compile them."""
    fn = node.prim.kernel_with(_compile_subgraph)
    if fn is None:
        fn = node.prim.kernel(node.inputs)
    if fn is not None:
        return fn, [slot_of[v] for v in node.inputs if type(v) is Value], True
    fn, slots = _bind(node.prim.compute, node.inputs, slot_of)
    return fn, slots, False


class Executor:
    """Runs one Graph. ``run(arrays) -> list of arrays`` for the graph's outputs."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        slot_of: dict[Value, int] = {}
        for v in graph.inputs + graph.params + graph.consts:
            slot_of[v] = len(slot_of)
        for n in graph.nodes:
            slot_of[n.out] = len(slot_of)
        self.slot_of = slot_of
        template: list[Any] = [None] * len(slot_of)  # a compile-time value's array, else None
        for v in graph.consts:
            template[slot_of[v]] = v.array
        self.input_slots = [slot_of[v] for v in graph.inputs]
        self.param_slots = [(slot_of[v], v.handle) for v in graph.params]
        self.folded: list[Node] = []  # nodes computed once, here
        schedule: list[tuple[Callable, list[int], int, Node]] = []
        direct: list[bool] = []
        for n in graph.nodes:
            for v in n.inputs:
                if type(v) is Value and v not in slot_of:
                    raise ExecutionError(f"node {n.out.name} ({n.prim.name}) reads {v.name}, which belongs to "
                                         f"another graph: a symbolic tensor escaped from an earlier trace")
            fn, slots, is_direct = kernel_of(n, slot_of)
            if (not n.prim.side_effect and n.prim.deterministic
                    and all(template[s] is not None for s in slots)):
                template[slot_of[n.out]] = self._fold(n, fn, [template[s] for s in slots])
                self.folded.append(n)
                continue
            schedule.append((fn, slots, slot_of[n.out], n))
            direct.append(is_direct)
        self.template = template
        missing = [v for v in graph.outputs if v not in slot_of]
        if missing:
            raise ExecutionError(f"graph output {missing[0].name} is not computed by this graph")
        self.output_slots = [slot_of[v] for v in graph.outputs]
        self.schedule = schedule  # (kernel, input slots, output slot, node) per node, in run order
        # Outputs that are parameters or compile-time values are copied on the way out: the caller must
        # not be able to change a weight or the next call's result by writing into them.
        self._out_copy = [v.kind == ValueKind.PARAM or template[self.slot_of[v]] is not None for v in graph.outputs]
        self._known_ids = {id(a) for a in template if a is not None}
        self._direct = direct
        self._generate()

    def _fold(self, n, fn, arrays):
        try:
            out = fn(*arrays)
            return out if n.out.dtype.kind == "O" else np.asarray(out)
        except Exception as e:
            raise self._error(n, e, arrays) from None

    # ---- code generation -----------------------------------------------------------------------------
    def _generate(self):
        """Write the schedule as one Python function (``self.code``) and compile it, with the lines planned by
        ``hooks.executor_lines`` (one per node when it is None); ``run`` writes it again if that hook changes.

        Every buffer is named after the IR value it holds (``_identifier``): graph inputs and parameters (read
        when the call starts) are the function's arguments, compile-time values (constants, folded nodes) its
        globals, node results its locals; each kernel is named after its node (``kernel_name``), each constant
        argument of a plain ``compute`` call ``q<i>``.
        """
        env = {}
        names = value_names(self.slot_of)
        unique = _Names(names.values())  # kernels and constant arguments get names no buffer has
        for s, a in enumerate(self.template):
            if a is not None:
                env[names[s]] = a
        lines = [f"def run({', '.join(names[s] for s in self.input_slots)}{', ' if self.input_slots else ''}"
                 f"{', '.join(names[s] for s, _ in self.param_slots)}):"]
        self._line_of_step = {}
        const_names = {}
        # The graph's outputs and parameters are never freed; other buffers go after the line that reads them last.
        keep = set(self.output_slots) | {s for s, _ in self.param_slots}
        self._planner = planner = hooks.executor_lines
        plan = (planner or one_line_per_node)(self.schedule, keep)
        direct = self._direct
        self._n_lines = len(plan)
        last = {}
        for i, line in enumerate(plan):
            for s in line.ins:
                last[s] = i
        frees = [[] for _ in plan]
        for s, i in last.items():
            if s not in keep and self.template[s] is None:
                frees[i].append(s)
        for line, free in zip(plan, frees):
            k = line.members[0]
            node = self.schedule[k][3]
            kernel = unique(kernel_name([self.schedule[m][3] for m in line.members]))
            if len(line.members) > 1 or direct[k]:
                args = [names[s] for s in line.ins]
                env[kernel] = line.fn
            else:  # compute itself, called with every input in order; constant inputs are globals
                env[kernel] = node.prim.compute
                args = []
                for v in node.inputs:
                    if type(v) is Value:
                        args.append(names[self.slot_of[v]])
                    else:
                        name = const_names.get(id(v))
                        if name is None:
                            name = const_names[id(v)] = unique(f"q{len(const_names)}")
                            env[name] = v
                        args.append(name)
            self._line_of_step[len(lines) + 1] = k
            what = ", ".join(f"{self.schedule[m][3].out.name} = {self.schedule[m][3].prim.name}" for m in line.members)
            lines.append(f"    {', '.join(names[o] for o in line.outs)} = {kernel}({', '.join(args)})  # {what}")
            if free:
                lines.append(f"    del {', '.join(names[s] for s in sorted(free))}")
        lines.append(f"    return [{', '.join(names[s] for s in self.output_slots)}]")
        self._code = "\n".join(lines) + "\n"
        self._code_obj = compile(self._code, f"<graph {self.graph.name}>", "exec")
        self._const_names = const_names
        exec(self._code_obj, env)  # noqa: S102 (the source is generated above from the schedule)
        self._run = env["run"]
        self._run_code = self._run.__code__
        self._names = names

    def _written_for_now(self):
        """Write the code again if the speed layer was switched since it was written (fused lines never run with
        it off, nor unfused ones with it on)."""
        if self._planner is not hooks.executor_lines:
            self._generate()

    @property
    def code(self) -> str:
        """The source of the generated ``run`` function, as it runs now."""
        self._written_for_now()
        return self._code

    @property
    def n_lines(self) -> int:
        """How many lines compute the nodes (fewer than the nodes where the speed layer fused some)."""
        self._written_for_now()
        return self._n_lines

    # ---- running -------------------------------------------------------------------------------------
    def _load(self, arrays):
        env = list(self.template)
        for s, p in self.param_slots:
            env[s] = p._data
        if len(arrays) != len(self.input_slots):
            raise TypeError(f"graph {self.graph.name} takes {len(self.input_slots)} tensor inputs, got {len(arrays)}")
        for s, a in zip(self.input_slots, arrays):
            env[s] = a
        return env

    def run(self, arrays: Sequence[Any]) -> list[np.ndarray]:
        """Run the whole graph on input arrays; return the output arrays."""
        if len(arrays) != len(self.input_slots):
            raise TypeError(f"graph {self.graph.name} takes {len(self.input_slots)} tensor inputs, got {len(arrays)}")
        if self._planner is not hooks.executor_lines:  # the speed layer was switched (see _written_for_now)
            self._generate()
        try:
            with quiet_kernels():  # inf and nan without numpy's warnings, as MindSpore (core/fp_warnings)
                outs = self._run(*arrays, *[p._data for _, p in self.param_slots])
        except Exception as e:
            raise self._run_error(e) from None
        # numpy ufuncs turn 0-d results into numpy scalars; callers get arrays, as in PYNATIVE.
        known = self._known_ids
        return [np.array(a) if c or id(a) in known else np.asarray(a) for a, c in zip(outs, self._out_copy)]

    def _run_error(self, exc):
        """The ExecutionError for an exception raised inside the generated code: which node, what inputs."""
        tb = exc.__traceback__
        frame = line = None
        while tb is not None:
            if tb.tb_frame.f_code is self._run_code:
                frame, line = tb.tb_frame, tb.tb_lineno
            tb = tb.tb_next
        k = self._line_of_step.get(line)
        if k is None:
            return exc
        _, slots, _, node = self.schedule[k]
        local = frame.f_locals
        arrays = [local.get(self._names[s], self.template[s]) for s in slots]
        return self._error(node, exc, arrays)

    def steps(self, arrays: Sequence[Any], into_subgraphs: bool = False) -> Iterator[tuple[Node, _ValueEnv]]:
        """Run node by node: yields ``(node, env)`` after each node; ``env`` maps Value -> array.

        Nothing is freed, so every intermediate value stays readable. Folded constant nodes are
        reported first (they were computed when the graph was compiled). With ``into_subgraphs``, a
        control-flow node's inner nodes are yielded too, before the node itself: the taken branch of an
        If, each iteration of a While's body; their ``env.where`` says ``(node, "then", None)`` or
        ``(node, "body", iteration)`` (None for the graph's own nodes).
        """
        env = self._load(arrays)
        values = _ValueEnv(env, self.slot_of)
        for n in self.folded:
            yield n, values
        for fn, ins, out, node in self.schedule:
            args = [env[i] for i in ins]
            try:
                if into_subgraphs and isinstance(node.prim, _STEPPABLE):
                    env[out] = yield from self._step_into(node, args)
                else:
                    with quiet_kernels():  # per node: a generator must not hold numpy's error state across yields
                        env[out] = fn(*args)
            except Exception as e:
                raise self._error(node, e, args) from None
            yield node, values

    def _sub(self, graph):
        cache = self.__dict__.setdefault("_subs", {})
        ex = cache.get(id(graph))
        if ex is None:
            ex = cache[id(graph)] = Executor(graph)
        return ex

    def _step_into(self, node, args):
        """Yield the inner steps of an If or While node; return its tuple output."""
        prim = node.prim
        if isinstance(prim, If):
            label = "then" if bool(args[0]) else "else"
            ex = self._sub(prim.then_graph if label == "then" else prim.else_graph)
            outs = yield from ex._inner_steps(args[1:], (node, label, None))
            return tuple(outs)
        k = prim.n_carried
        cond, body = self._sub(prim.cond_graph), self._sub(prim.body_graph)
        vals, rest, kept, i = list(args[:k]), list(args[k:]), [], 0
        while bool(cond.run(vals + rest)[0]):
            kept.append(prim.kept_values(vals))
            vals = yield from body._inner_steps(vals + rest, (node, "body", i))
            i += 1
        return (*vals, kept)

    def _inner_steps(self, arrays, where):
        last = None
        for n, values in self.steps(arrays, into_subgraphs=True):
            if values.where is None:
                values.where = where
            last = values
            yield n, values
        env = last.env if last is not None else self._load(arrays)
        return [env[s] for s in self.output_slots]

    def _error(self, node, exc, arrays):
        shapes = ", ".join(f"{a.dtype}{list(a.shape)}" for a in arrays if hasattr(a, "shape"))
        where = f" in scope '{node.scope}'" if node.scope else ""
        src = f"\n  source: {node.source}" if node.source else ""
        return ExecutionError(f"graph {self.graph.name}: node {node.out.name} ({node.prim.name}){where} failed: "
                              f"{exc}\n  inputs: {shapes}{src}")


class _ValueEnv:
    """Read access to a running graph's buffers by Value (or by node); ``where`` places a subgraph's step."""

    def __init__(self, env: list[Any], slot_of: dict[Value, int]) -> None:
        self.env = env
        self.slot_of = slot_of
        self.where: tuple[Node, str, int | None] | None = None

    def __getitem__(self, v: Value | Node) -> Any:
        if isinstance(v, Node):
            v = v.out
        return self.env[self.slot_of[v]]

    def tensor(self, v: Value | Node) -> Tensor:
        return Tensor._wrap(self[v])
