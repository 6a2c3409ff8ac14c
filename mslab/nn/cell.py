"""Cell: the building block of networks, as ``mindspore.nn.Cell``.

Subclass it, assign layers and Parameters in ``__init__``, write the computation in ``construct``.
Assigning a Parameter, a Cell or a ParameterTuple registers it. With ``auto_prefix=True`` (the
default) a child's parameters are renamed with the attribute path: ``self.fc = Dense(...)`` gives
``fc.weight`` and ``fc.bias``. Wrappers (WithLossCell, TrainOneStepCell, optimizers) pass
``auto_prefix=False`` so the names inside them stay those of the network.

Calling a Cell runs ``construct`` in the current mode: eagerly in PYNATIVE_MODE, compiled into a
graph (once per input signature) in GRAPH_MODE, inlined while a graph is being traced (``Cell.__call__``
shows the three; ``mslab.runtime.cell_call`` holds their details).
"""
from __future__ import annotations

import itertools
import sys
import weakref
from collections import OrderedDict
from typing import Any, Callable, ContextManager, Iterator, ValuesView

import numpy as np

from mslab.autodiff import custom_bprop, graph_syntax
from mslab.autodiff import hooks as grad_hooks
from mslab.core import dtype as mstype
from mslab.core import state
from mslab.core.context import is_graph_mode
from mslab.core.errors import CellNestingError
from mslab.core.tensor import Parameter, ParameterTuple, Tensor, has_pending
from mslab.ir.node import Phase
from mslab.ops import array_ops
from mslab.runtime import cell_call, compiled

_REGISTRIES = ("_params", "_cells", "_param_tuples", "_own")
_hook_ids = itertools.count()


class HookHandle:
    """What ``register_forward_(pre_)hook`` and ``register_backward_(pre_)hook`` return (MindSpore's
    ``HookHandle``): ``handle.remove()`` unregisters the hook (again: nothing happens)."""

    def __init__(self, cell: Cell, kind: str, handle_id: int) -> None:
        self._cell, self._kind, self.handle_id = weakref.ref(cell), kind, handle_id

    def remove(self) -> None:
        cell = self._cell()
        if cell is None:  # the Cell is gone, and its hooks with it
            return
        where = "_backward_hooks" if self._kind.startswith("backward") else "_forward_hooks"
        hooks = cell.__dict__.get(where)
        if hooks is not None and hooks[self._kind].pop(self.handle_id, None) is not None:
            if not any(hooks.values()):
                cell.__dict__[where] = None  # no hook left: calls take the short way again
            cell._hooks_changed()


class Cell:
    """Base class of every layer and network (``mindspore.nn.Cell``)."""

    _graph_phase: Phase | None = None  # a class's recorder phase: optimizers say "optimizer", and their nodes get it
    # A training step's guard, a method returning a context entered around each eager call (TrainOneStepCell and
    # optimizers: all or nothing of the weights written); None: a plain Cell has none.
    _step_guard: Callable[[], ContextManager] | None = None

    # The types of what ``__init__`` writes (it writes them into ``__dict__``; see there what each one is for).
    _params: OrderedDict[str, Parameter]
    _cells: OrderedDict[str, Cell]
    _param_tuples: OrderedDict[str, ParameterTuple]
    _own: OrderedDict[str, Parameter | ParameterTuple]
    _auto_prefix: bool
    training: bool
    requires_grad: bool
    _flags: dict[str, Any]
    _param_prefix: str
    cell_type: str | None
    _forward_hooks: cell_call.Hooks | None
    _backward_hooks: dict[str, OrderedDict[int, Callable]] | None
    _mixed_precision_type: np.dtype | None
    _attr_version: int
    _compile_cache: compiled.CompileCache | None
    _construct_fn: Callable | None
    _jit_methods: dict[str, compiled.jit] | None

    def __init__(self, auto_prefix: bool = True, flags: dict[str, Any] | None = None) -> None:
        # Written into __dict__ directly: Cell.__setattr__ needs the registries, and counts attribute changes.
        d = self.__dict__
        # What the Cell holds, by kind (Cell.__setattr__ fills them)
        d["_params"] = OrderedDict()
        d["_cells"] = OrderedDict()
        d["_param_tuples"] = OrderedDict()
        d["_own"] = OrderedDict()  # own Parameters and ParameterTuples in assignment order (MindSpore's walk)
        d["_auto_prefix"] = auto_prefix
        # MindSpore's public state
        d["training"] = False  # set_train; Dropout and BatchNorm read it
        d["requires_grad"] = False  # set_grad
        d["_flags"] = dict(flags or {})  # add_flags
        d["_param_prefix"] = ""  # set by update_cell_prefix, as in MindSpore
        d["cell_type"] = None  # update_cell_type
        # What the runtime keeps on a Cell (every attribute it reads or writes is here)
        d["_forward_hooks"] = None  # {"pre": {id: hook}, "post": {id: hook}} while a forward hook is registered
        d["_backward_hooks"] = None  # {"backward": {id: hook}, "backward_pre": {id: hook}} once one is registered
        d["_mixed_precision_type"] = None  # to_float's numpy dtype: ops inside cast their inputs to it
        d["_attr_version"] = 0  # counts attribute and hook changes: a graph traced through the Cell checks it
        d["_compile_cache"] = None  # runtime.compiled.CompileCache: this Cell's GRAPH-mode graphs, made on first use
        d["_construct_fn"] = None  # what those graphs trace (runtime.cell_call.graphs_of), made on first use
        d["_jit_methods"] = None  # {name: mslab.jit}: this Cell's @jit methods, compiled per instance on first use

    @property
    def cls_name(self) -> str:
        """The Cell's class name (``"Dense"``), as MindSpore's ``Cell.cls_name``."""
        return type(self).__name__

    @property
    def param_prefix(self) -> str:
        """The Cell's path in its network (``"seq.0"``) once ``update_cell_prefix`` ran on the network, else ``''``."""
        return self._param_prefix

    def update_cell_prefix(self) -> None:
        """Give every Cell of this network its attribute path as ``param_prefix`` (``''`` for this one)."""
        for path, cell in self.cells_and_names():
            cell._param_prefix = path

    def update_cell_type(self, cell_type: str | None) -> None:
        """Set ``cell_type`` (MindSpore uses it to mark quantisation cells); it starts as None."""
        self.cell_type = cell_type

    # ---- registration -------------------------------------------------------------------------
    def _registries_ready(self) -> None:
        if "_params" not in self.__dict__:
            raise AttributeError(f"{type(self).__name__}: call super().__init__() in __init__ before assigning "
                                 f"Parameters or Cells")

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        if isinstance(value, Parameter):
            self._registries_ready()
            self._forget(name)
            if value._auto_named:
                value._name = name
                value._auto_named = False
            d["_params"][name] = value
            d["_own"][name] = value
        elif isinstance(value, Cell):
            self._registries_ready()
            self._forget(name)
            if d["_auto_prefix"]:
                try:
                    value.update_parameters_name(name + ".")
                except RecursionError:
                    raise CellNestingError(f"{type(value).__name__} (as {type(self).__name__}.{name})",
                                           "Naming the parameters of", sys.getrecursionlimit()) from None
            d["_cells"][name] = value
        elif isinstance(value, (Tensor, int, float)) and name in d.get("_params", ()) \
                and any(c is self for c in state.cells):
            # ``self.weight = t`` inside construct keeps the Parameter and writes t's numbers into it, as MindSpore
            # does: an Assign while a graph is traced (later reads see the new value, no gradient flows through
            # it), else set_data (a Python number: GRAPH mode only, as in MindSpore).
            if state.tracer is not None:
                array_ops.assign(d["_params"][name], value)
            elif isinstance(value, Tensor):
                d["_params"][name].set_data(value)
            else:
                raise TypeError(f"Parameter '{name}' already exists in network, can not assign this type: "
                                f"'{type(value)}' as a parameter.")
            return
        elif isinstance(value, ParameterTuple):
            self._registries_ready()
            self._forget(name)
            d["_param_tuples"][name] = value
            d["_own"][name] = value
        else:
            prop = getattr(type(self), name, None)
            if isinstance(prop, property) and prop.fset is not None:  # Optimizer.target: its setter decides, as in
                prop.fset(self, value)                                   # any Python class (and in MindSpore)
                return
            if "_params" in d:
                self._forget(name)
                if not name.startswith("_"):
                    # A graph traced through this Cell may have baked the old value in as a constant.
                    d["_attr_version"] += 1
                    compiled.cell_changed()
        d[name] = value

    def _forget(self, name: str) -> None:
        for reg in _REGISTRIES:
            self.__dict__[reg].pop(name, None)

    def __delattr__(self, name: str) -> None:
        if "_params" in self.__dict__:
            self._forget(name)
        object.__delattr__(self, name)

    def insert_child_to_cell(self, child_name: str, child_cell: Cell | None) -> None:
        """Register ``child_cell`` under ``child_name`` (as ``setattr`` would)."""
        if not isinstance(child_cell, Cell) and child_cell is not None:
            raise TypeError(f"insert_child_to_cell: {child_name} must be a Cell, got {type(child_cell).__name__}")
        setattr(self, child_name, child_cell)

    def insert_param_to_cell(self, param_name: str, param: Parameter, check_name_contain_dot: bool = True) -> None:
        """Register ``param`` under ``param_name`` (as ``setattr`` would)."""
        if check_name_contain_dot and "." in param_name:
            raise KeyError(f"insert_param_to_cell: parameter name {param_name!r} must not contain '.'")
        if not isinstance(param, Parameter):
            raise TypeError(f"insert_param_to_cell: {param_name} must be a Parameter, got {type(param).__name__}")
        setattr(self, param_name, param)

    def update_parameters_name(self, prefix: str = "", recurse: bool = True) -> None:
        """Name every parameter ``prefix`` + its attribute path in this Cell: how ``fc.weight`` is made.

        Names are rebuilt from the path each time (as MindSpore does), so a network assigned into
        several wrappers takes the path of the latest one instead of piling prefixes up.
        """
        seen = set()
        for path, p in self._param_paths("", recurse):
            if id(p) not in seen:
                seen.add(id(p))
                p._name = prefix + path

    def _param_paths(self, base: str, recurse: bool) -> Iterator[tuple[str, Parameter]]:
        for key, p in self._params.items():
            yield base + key, p
        if recurse:
            for name, c in self._cells.items():
                if c is not None:
                    yield from c._param_paths(f"{base}{name}.", True)

    # ---- walking ------------------------------------------------------------------------------
    def parameters_and_names(self, name_prefix: str = "", expand: bool = True) -> Iterator[tuple[str, Parameter]]:
        """``(path, Parameter)`` pairs: own Parameters and ParameterTuples first, in the order they were
        assigned (as MindSpore), then children in assignment order, depth first.

        The path is where the walk found the Parameter, as MindSpore 2.10 writes it: the Cell's path, a dot,
        then the attribute's name (a ParameterTuple's items: the Parameter's name). In a TrainOneStepCell the
        optimizer's state is thus ``optimizer.moments.fc.weight`` while its ``p.name`` (what a checkpoint
        saves) stays ``moments.fc.weight``. Each Parameter appears once, at its first path.
        """
        seen = set()
        for name, p in self._walk_params(name_prefix, expand):
            if id(p) not in seen:
                seen.add(id(p))
                yield name, p

    def _walk_params(self, prefix: str, expand: bool) -> Iterator[tuple[str, Parameter]]:
        dot = prefix + "." if prefix else ""
        for key, own in self._own.items():  # in assignment order: an optimizer's global_step, lr, weights, state
            if isinstance(own, Parameter):
                yield dot + key, own
            else:
                for p in own:
                    yield dot + p.name, p
        if expand:
            for key, c in self._cells.items():
                if c is not None:
                    yield from c._walk_params(dot + key, True)

    def get_parameters(self, expand: bool = True) -> Iterator[Parameter]:
        """A generator over every Parameter (trainable or not)."""
        for _, p in self.parameters_and_names(expand=expand):
            yield p

    def trainable_params(self, recurse: bool = True) -> list[Parameter]:
        """The list of Parameters with ``requires_grad=True``."""
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse: bool = True) -> list[Parameter]:
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse: bool = True) -> OrderedDict[str, Parameter]:
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    def cells_and_names(self, cells: set[int] | None = None, name_prefix: str = "") -> Iterator[tuple[str, Cell]]:
        """``('', self)`` then every sub-cell with its attribute path (``fc``, ``layers.0``), depth first."""
        seen = set() if cells is None else cells
        if id(self) not in seen:
            seen.add(id(self))
            yield name_prefix, self
        for name, c in self._cells.items():
            if c is None or id(c) in seen:
                continue
            path = f"{name_prefix}.{name}" if name_prefix else name
            yield from c.cells_and_names(seen, path)

    def apply(self, fn: Callable[[Cell], Any]) -> Cell:
        """Call ``fn(cell)`` on every sub-cell, children first, then on this Cell (as MindSpore); returns self.

        ``net.apply(init_weights)`` is how a function re-initialises every layer of a network.
        """
        for c in self.cells():
            c.apply(fn)
        fn(self)
        return self

    def name_cells(self) -> OrderedDict[str, Cell]:
        """The direct children, as an OrderedDict name -> Cell."""
        return OrderedDict((k, v) for k, v in self._cells.items() if v is not None)

    def cells(self) -> ValuesView[Cell]:
        return self.name_cells().values()

    # ---- modes and flags ----------------------------------------------------------------------
    def set_train(self, mode: bool = True) -> Cell:
        """Set ``training`` on this cell and every sub-cell (Dropout and BatchNorm read it); returns self."""
        for _, c in self.cells_and_names():
            c.__dict__["training"] = bool(mode)  # not counted as an attribute change: graphs check the flag itself
        compiled.cell_changed()
        return self

    def set_grad(self, requires_grad: bool = True) -> Cell:
        """Mark the cell for gradient recording (MindSpore builds the backward graph for it); returns self."""
        self.__dict__["requires_grad"] = requires_grad  # not counted as an attribute change (no graph bakes it in)
        return self

    def get_flags(self) -> dict[str, Any]:
        """The flags set by ``add_flags`` (and ``flags=`` of ``__init__``), as a dict."""
        return self._flags

    def add_flags(self, **flags: Any) -> Cell:
        self._flags.update(flags)
        return self

    def add_flags_recursive(self, **flags: Any) -> Cell:
        for _, c in self.cells_and_names():
            c.add_flags(**flags)
        return self

    def to_float(self, dst_type: Any) -> Cell:
        """Run this Cell and every Cell inside it in ``dst_type`` (float16 or float32); returns self.

        As in MindSpore 2.10's PYNATIVE mode (observed on CPU), each op inside casts its floating-point
        inputs, parameters included, to ``dst_type``: a float16 Dense computes in float16 and returns
        float16, while its parameters stay float32 (their gradients come back float32 through the
        cast). A sub-Cell set later with ``to_float(float32)`` runs in float32 again (amp level O2 keeps
        BatchNorm so). MindSpore's GRAPH mode differs in one corner mslab does not copy: it casts the
        Cell's inputs and parameters but not tensors created inside ``construct``.
        """
        if dst_type not in (mstype.float16, mstype.float32):
            raise ValueError("For 'to_float', the argument 'dst_type' must be mstype.float32 or mstype.float16 "
                             f"(mslab has no bfloat16), but got type: {type(dst_type)} and value: {dst_type}.")
        precision = mstype.to_numpy(dst_type)
        for _, c in self.cells_and_names():
            c._mixed_precision_type = precision
        compiled.cell_changed()
        return self

    def recompute(self, **kwargs: Any) -> Cell:
        """Accepted for compatibility: recomputation trades memory for time on devices."""
        return self

    # ---- forward hooks ------------------------------------------------------------------------
    def register_forward_pre_hook(self, hook_fn: Callable, *, prepend: bool = False, with_kwargs: bool = False,
                                  ) -> HookHandle:
        """Call ``hook_fn(cell, inputs)`` before each ``construct``; a value it returns replaces the inputs.

        As MindSpore's ``Cell.register_forward_pre_hook``; returns a handle whose ``remove()`` unregisters it.
        ``with_kwargs=True``: ``hook_fn(cell, args, kwargs)`` returning None or ``(new_args, new_kwargs)``.
        """
        return self._add_hook("pre", hook_fn, prepend, with_kwargs, False)

    def register_forward_hook(self, hook_fn: Callable, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False) -> HookHandle:
        """Call ``hook_fn(cell, inputs, output)`` after each ``construct``; a value it returns replaces the output.

        As MindSpore's ``Cell.register_forward_hook``: hooks run in PYNATIVE mode and, traced into the graph,
        in GRAPH mode (so a hook that reads numbers, ``asnumpy()``, works in PYNATIVE mode only). Gradients
        flow through what a hook computes. ``always_call=True`` runs it even when ``construct`` raises.
        Adding or removing a hook makes GRAPH mode trace again (MindSpore 2.10 keeps running a graph it compiled
        before the change, observed on CPU).
        """
        return self._add_hook("post", hook_fn, prepend, with_kwargs, always_call)

    def _add_hook(self, kind: str, hook_fn: Callable, prepend: bool, with_kwargs: bool, always_call: bool,
                  ) -> HookHandle:
        if not callable(hook_fn):
            raise TypeError(f"{type(self).__name__}: the hook must be a function, got {type(hook_fn).__name__}")
        if self._forward_hooks is None:
            self._forward_hooks = {"pre": OrderedDict(), "post": OrderedDict()}
        hooks = self._forward_hooks
        handle = HookHandle(self, kind, next(_hook_ids))
        hooks[kind][handle.handle_id] = (hook_fn, with_kwargs, always_call)
        if prepend:
            hooks[kind].move_to_end(handle.handle_id, last=False)
        self._hooks_changed()
        return handle

    # ---- backward hooks (mslab.autodiff.hooks runs them) ---------------------------------------------------
    def register_backward_pre_hook(self, hook_fn: Callable) -> HookHandle:
        """Call ``hook_fn(cell, grad_output)`` when the backward pass reaches this Cell's output; a tuple (or
        Tensor) it returns replaces the output's gradients, None keeps them.

        As MindSpore 2.10's ``Cell.register_backward_pre_hook``, in PYNATIVE and GRAPH mode (there the hook is
        compiled into the backward graph); returns a handle whose ``remove()`` unregisters it.
        """
        return self._add_backward_hook("backward_pre", hook_fn)

    def register_backward_hook(self, hook_fn: Callable) -> HookHandle:
        """Call ``hook_fn(cell, grad_input, grad_output)`` once the gradients of this Cell's Tensor inputs are
        known (``grad_input``, a tuple; ``grad_output``: the output's); a tuple (or Tensor) it returns replaces
        ``grad_input``, None keeps it.

        As MindSpore 2.10's ``Cell.register_backward_hook``, in PYNATIVE and GRAPH mode; returns a handle whose
        ``remove()`` unregisters it. The Parameters' gradients are not shown to the hook.
        """
        return self._add_backward_hook("backward", hook_fn)

    def _add_backward_hook(self, kind: str, hook_fn: Callable) -> HookHandle:
        if not callable(hook_fn):  # MindSpore 2.10's TypeError and text (observed on CPU)
            raise TypeError(f"Expected a callable hook function, but got {type(hook_fn).__name__}.")
        if self.__dict__.get("_backward_hooks") is None:
            self.__dict__["_backward_hooks"] = {"backward": OrderedDict(), "backward_pre": OrderedDict()}
        handle = HookHandle(self, kind, next(_hook_ids))
        self._backward_hooks[kind][handle.handle_id] = hook_fn  # type: ignore[index]  # made just above
        self._hooks_changed()
        return handle

    def _hooks_changed(self) -> None:
        # A graph traced through this Cell ran its hooks (or none) while tracing: trace again.
        self._attr_version += 1
        compiled.cell_changed()

    # ---- running ------------------------------------------------------------------------------
    def construct(self, *inputs: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must define construct(...)")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """``cell(*args)``: run ``construct``, in one of three ways."""
        if has_pending():  # parameters built inside nn.utils.no_init_parameters get their numbers now
            self.init_parameters_data()
        if (state.tracer is not None or state.tapes) and not kwargs and cell_call.has_bprop(type(self)):
            # A Cell with its own bprop while a gradient records: one node, whose backward is that bprop.
            return custom_bprop.call(self, args, lambda a: self._construct_call(*a))
        if state.tracer is not None:
            # 1. Inside a graph being traced: inline, construct converted, its nodes under this Cell's scope.
            return self._construct_call(*args, **kwargs)
        compiles = is_graph_mode() and not kwargs
        call = cell_call.guard(self, args, compiles)  # the outermost call's and a step's guard, record()
        if call is None:  # (3.) inside another Cell's eager call, which guards it: construct just runs
            return self._construct_call(*args, **kwargs)
        with call:
            if compiles:
                # 2. GRAPH mode: construct traced into a graph once per input signature; the graph runs.
                graphs, construct = cell_call.graphs_of(self)
                return graphs.get(construct, args).run(args)
            # 3. PYNATIVE mode: construct runs, primitive by primitive.
            return call.recorded(self._construct_call(*args, **kwargs))

    def _construct_call(self, *args: Any, **kwargs: Any) -> Any:
        """``construct`` between this Cell's forward hooks, under its scope (``state.cells``), its
        ``to_float`` precision and its recorder phase; converted for GRAPH mode while a graph is traced."""
        hooks = self._forward_hooks
        if hooks is not None:
            args, kwargs = cell_call.pre_hooks(self, hooks, args, kwargs)
        backward_hooks = self.__dict__.get("_backward_hooks")
        if backward_hooks is not None and (state.tracer is not None or state.tapes):  # a gradient is recording
            args, hooked_call = grad_hooks.on_inputs(self, backward_hooks, args)
        precision, phase = self._mixed_precision_type, self._graph_phase
        # Nothing may raise between the push and the ``try``: a Cell left on ``state.cells`` would put itself
        # into the scope of every later node (a RecursionError can strike anywhere).
        state.cells.append(self)
        if precision is not None:
            state.mixed_precision.append((precision, {}))  # the dtype, and each input's cast made once per call
        try:
            try:
                tracer = state.tracer
                if tracer is None:
                    construct = self.construct
                else:  # control flow on tensors becomes nodes; the graph depends on this Cell (flags, attributes)
                    construct = graph_syntax.converted(self.construct)
                    tracer.note_cell(self)
                if phase is None:
                    output = construct(*args, **kwargs)
                else:
                    with cell_call.recorders_in_phase(phase):
                        output = construct(*args, **kwargs)
            finally:
                state.cells.pop()
                if precision is not None:
                    state.mixed_precision.pop()
        except Exception:
            if hooks is not None:
                cell_call.always_hooks(self, hooks, args, kwargs)
            raise
        if hooks is not None:
            output = cell_call.post_hooks(self, hooks, args, kwargs, output)
        if backward_hooks is not None and (state.tracer is not None or state.tapes):
            output = grad_hooks.on_outputs(hooked_call, output)
        return output

    def init_parameters_data(self, auto_parallel_mode: bool = False) -> dict[Parameter, Any]:
        """Draw the numbers of every parameter still waiting for them (built inside
        ``nn.utils.no_init_parameters``), in parameter order; returns ``{parameter: parameter}``."""
        return {p: p.init_data() for p in self.get_parameters()}

    # ---- printing -----------------------------------------------------------------------------
    def extend_repr(self) -> str:
        """The text inside ``Dense(...)`` in the Cell's repr; layers override it."""
        return ""

    def __repr__(self) -> str:
        extra = self.extend_repr()
        children = [(k, v) for k, v in self._cells.items() if v is not None]
        if not children:
            return f"{type(self).__name__}({extra})"
        lines = [f"{type(self).__name__}("]
        if extra:  # with children, MindSpore puts the settings on a line of their own
            lines.append("  " + extra.replace("\n", "\n  "))
        for name, c in children:
            inner = repr(c).replace("\n", "\n  ")
            lines.append(f"  ({name}): {inner}")
        return "\n".join(lines) + "\n)"
