"""GradOperation, grad and value_and_grad: functions that return gradient functions.

``GradOperation(get_all, get_by_list, sens_param)(fn, weights)(*inputs[, sens])`` as in MindSpore.
How the gradient is found depends on where it is called:

* while GRAPH mode traces (e.g. inside ``TrainOneStepCell.construct``): ``fn`` is traced inline and
  autodiff appends the backward nodes to the same graph;
* at top level in GRAPH mode: the gradient function itself is traced, compiled and cached;
* in PYNATIVE mode: ``fn`` runs eagerly on a tape, then the bprop rules run backwards over it.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence, TypeAlias

from mslab.autodiff import graph_syntax
from mslab.autodiff.backprop import backprop
from mslab.core import graph_mode, hooks, state, tensor_hooks
from mslab.core.collector import collector_paused
from mslab.core.context import is_graph_mode
from mslab.core.fp_warnings import quiet_kernels
from mslab.core.pytree import flatten
from mslab.core.tensor import Parameter, Tensor
from mslab.ir.node import BACKWARD, Node
from mslab.ir.tape import Tape
from mslab.ops import array_ops

# What a gradient function differentiates with respect to: one Parameter (its gradient comes back unwrapped), several
# (a list, a ParameterTuple), or none.
Weights: TypeAlias = "Parameter | Sequence[Parameter] | None"
# Which inputs ``grad`` differentiates: one position (its gradient alone), several (a tuple of them), or none.
Positions: TypeAlias = "int | Sequence[int] | None"
# What a rule's ``select`` gives: (the inputs, the positions to differentiate, the weights, the sens or None).
Selection: TypeAlias = "tuple[tuple[Any, ...], list[int], tuple[Parameter, ...], Any]"


def _record_forward(fn: Callable, args: Sequence[Any], kept: dict[str, Any]) -> tuple[Any, list[Node] | None, Any]:
    """Run ``fn(*args)`` under a recorder; return (recorder, nodes, output). While GRAPH mode traces, the
    tracer records and ``nodes`` are the ones ``fn`` added; otherwise a tape of our own records (the plain
    ``Tape``, or the speed layer's through ``hooks.autodiff_tape``, given ``kept``: what it keeps between calls of
    one gradient function) and ``nodes`` is None: the tape gives them when a backward walks it."""
    tr = state.tracer
    if tr is not None:
        start = len(tr.graph.nodes)
        out = graph_syntax.converted(fn)(*args)
        return tr, tr.graph.nodes[start:], out
    tape = Tape() if hooks.autodiff_tape is None else hooks.autodiff_tape(kept)
    state.tapes.append(tape)
    state.grad_inputs.append(args)  # a write into one of them, in place, is an error (Tensor.__setitem__)
    try:
        out = fn(*args)
    finally:
        state.tapes.remove(tape)
        state.grad_inputs.pop()
    return tape, None, out


def backprop_tape(tape: Tape, outputs: Sequence[Tensor], sens: Sequence[Tensor],
                  sources: Sequence[Tensor]) -> list[Tensor | None]:
    """``backprop`` over autodiff's tape, rule by rule: the gradients of the tensors ``outputs`` (weighted by
    ``sens``) with respect to the tensors ``sources`` (None where no path leads from a source to an output)."""
    nodes = tape.recorded_nodes()  # first: a lean tape builds its nodes here, and their values with them
    roots = [tape.value_of(t) for t in outputs]
    return backprop(tape, nodes, roots, sens, [tape.value_of(s) for s in sources])


def _check_sens(fn: Callable, sens_list: Sequence[Any], outputs: Sequence[Tensor]) -> None:
    """A sens must have its output's shape (a (1,) sens may weight a scalar) and dtype, as MindSpore's PYNATIVE
    mode requires (``ValueError: The shape should be (2, 3), but got (3, 2)``; ``TypeError: The dtype should be
    Float32, but got Float16``). MindSpore's GRAPH mode also refuses the dtype, but returns gradients of the
    sens's shape for a wrong shape; mslab refuses it in both modes."""
    for i, (s, out) in enumerate(zip(sens_list, outputs)):
        if isinstance(s, Tensor) and s.shape == out.shape and s._np_dtype == out._np_dtype:
            continue  # the usual sens (every training step checks one): nothing to word
        name = getattr(fn, "__name__", None) or type(fn).__name__
        where = f"GradOperation of {name}: the sens for output {i}"
        if not isinstance(s, Tensor):
            raise TypeError(f"{where} must be a Tensor, got {type(s).__name__}")
        if tuple(s.shape) != tuple(out.shape) and not (tuple(out.shape) == () and tuple(s.shape) == (1,)):
            raise ValueError(f"{where} has shape {tuple(s.shape)} but the output has shape {tuple(out.shape)}: "
                             f"The shape should be {tuple(out.shape)}, but got {tuple(s.shape)}")
        if s.dtype != out.dtype:
            raise TypeError(f"{where} has dtype {s.dtype} but the output (shape {tuple(out.shape)}) has dtype "
                            f"{out.dtype}: The dtype should be {out.dtype}, but got {s.dtype}")


def gradients(fn: Callable, args: Sequence[Any], positions: Sequence[int], weights: Sequence[Parameter],
              sens: Any = None, has_aux: bool = False, kept: dict[str, Any] | None = None,
              ) -> tuple[Any, tuple[Tensor, ...], tuple[Tensor, ...]]:
    """The core: ``(output, input_grads, weight_grads)`` of ``fn(*args)``.

    ``positions``: indices into ``args`` to differentiate; ``weights``: Parameters; ``sens``: the
    output's sensitivity (a Tensor, or a tuple for tuple outputs); default ones of the output's shape.
    ``sens`` may also be a function of the output, called once the forward has run (a training step
    shapes its sens like the loss it has just computed). With ``has_aux`` only the first output is
    differentiated. ``kept``: a dict the caller keeps between calls for the speed layer (``mslab.core.hooks``).

    The plain path: record the forward on a tape, then ``backprop`` over it (``backprop_tape``), every call.
    """
    kept = {} if kept is None else kept
    rec, nodes, out = _record_forward(fn, args, kept)
    if callable(sens):
        sens = sens(out)
    leaves, _ = flatten(out)
    if not leaves:
        raise TypeError("GradOperation: the function returned no tensor to differentiate")
    diff = leaves[:1] if has_aux else leaves
    roots = [rec.value_of(t) for t in diff] if nodes is not None else []  # (tracing: before the sens's nodes)
    if sens is None:
        with rec.in_phase(BACKWARD):
            sens_list = [array_ops.ones_like(t) for t in diff]
    else:
        sens_list, _ = flatten(sens)
        if len(sens_list) != len(diff):
            raise ValueError(f"GradOperation: sens has {len(sens_list)} tensors but the function has "
                             f"{len(diff)} outputs")
        _check_sens(fn, sens_list, diff)
    for i in positions:
        if i >= len(args) or not isinstance(args[i], Tensor):
            raise TypeError(f"GradOperation: input {i} is not a Tensor, so it has no gradient")
    sources = [args[i] for i in positions] + list(weights)
    grads: list[Any]  # one per source: a Tensor, or None where no path leads from it to the output
    if nodes is not None:  # GRAPH mode's tracer
        grads = backprop(rec, nodes, roots, sens_list, [rec.value_of(s) for s in sources])
    elif hooks.backward_replay is not None and not state.tapes and not tensor_hooks.recorded_with_hooks(rec, sources):
        # our own tape, nobody else records it, no backward hook to run: a backward replayed from before may serve
        grads = hooks.backward_replay(kept, rec, diff, sens_list, sources)
    else:
        grads = backprop_tape(rec, diff, sens_list, sources)
    if any(g is None for g in grads):  # no path from a target to the output: zeros, made as a backward node
        with rec.in_phase(BACKWARD):
            grads = [g if g is not None else array_ops.zeros_like(s) for g, s in zip(grads, sources)]
    if rec is not state.tracer:
        rec.release()  # our own tape, walked: free the step's activations now (see Tape.release)
    return out, tuple(grads[:len(positions)]), tuple(grads[len(positions):])


class GradFunction:
    """What ``GradOperation(...)(fn, weights)``, ``grad(fn, ...)`` and ``value_and_grad(fn, ...)`` return.

    Call it like ``fn``. ``rule`` says which gradients to take and how to return them: a GradOperation
    (get_all / get_by_list / sens_param) or a ``GradSpec`` (grad_position / weights / has_aux). In GRAPH
    mode at top level the whole gradient computation is compiled once per input signature.
    """

    def __init__(self, rule: GradOperation | LossAndGrads | GradSpec, fn: Callable, weights: Weights) -> None:
        self.rule = rule
        self.fn = fn
        self.given_weights = weights
        # What the speed layer keeps between PYNATIVE calls (mslab.core.hooks: the weights' tape values, the
        # compiled backwards); stays empty while the speed layer is off.
        self.kept: dict[str, Any] = {}
        # One Parameter stands for itself (grad(fn, weights=w) gives w's gradient unwrapped, as in MindSpore).
        self.weights: tuple[Parameter, ...] = \
            () if weights is None else (weights,) if isinstance(weights, Parameter) else tuple(weights)
        self._names_from = fn  # graph inputs take fn's parameter names
        self.__name__ = f"grad_{getattr(fn, '__name__', type(fn).__name__)}"

    def __call__(self, *args: Any) -> Any:
        # inf and nan without numpy's warnings, as MindSpore (core/fp_warnings); no cycle collection (core/collector)
        with quiet_kernels(), collector_paused():
            if state.tracer is None and is_graph_mode():
                return graph_mode.run_compiled(self, self._compute, args)
            return self._compute(*args)

    def _compute(self, *args: Any) -> Any:
        args, positions, weights, sens = self.rule.select(args, self.weights)
        out, gin, gw = gradients(self.fn, args, positions, weights, sens, self.rule.has_aux, self.kept)
        if isinstance(self.rule, GradSpec):
            return self.rule.pack(out, gin, gw, weights)
        return self.rule.pack(out, gin, gw)


class GradOperation:
    """Build gradient functions: ``GradOperation(get_all=False, get_by_list=False, sens_param=False)``.

    ``GradOperation()(net)(x, y)`` -> d(out)/dx; ``get_all`` -> all inputs; ``get_by_list`` with
    ``(net, weights)`` -> weights; both -> ``(input_grads, weight_grads)``; ``sens_param`` -> the
    last argument weights the output (``ones`` otherwise), like PyTorch's ``loss.backward(sens)``.
    """

    has_aux = False

    def __init__(self, get_all: bool = False, get_by_list: bool = False, sens_param: bool = False) -> None:
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param
        self._functions: dict[tuple[int, tuple[int, ...]], GradFunction] = {}

    def __call__(self, fn: Callable, weights: Sequence[Parameter] | None = None) -> GradFunction:
        if self.get_by_list and weights is None:
            raise TypeError("GradOperation(get_by_list=True) needs the weights: grad_op(net, weights)")
        # One gradient function per (function, weights), kept here with its compiled graphs:
        # TrainOneStepCell-style code calls ``self.grad(self.network, self.weights)`` anew each step.
        key = (id(fn), tuple(map(id, weights or ())))
        gf = self._functions.get(key)
        if gf is None or gf.fn is not fn:
            gf = self._functions[key] = GradFunction(self, fn, weights)
        return gf

    def select(self, args: tuple[Any, ...], weights: tuple[Parameter, ...]) -> Selection:
        """Split a call's arguments into (inputs, input positions to differentiate, weights, sens)."""
        sens = None
        if self.sens_param:
            if not args:
                raise TypeError("GradOperation(sens_param=True): pass the sens as the last argument")
            args, sens = args[:-1], args[-1]
        tensor_positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        positions = tensor_positions if self.get_all else tensor_positions[:1]
        if self.get_by_list and not self.get_all:
            positions = []  # only the weights' gradients are returned: never compute the inputs'
        if not self.get_all and not self.get_by_list and not positions:
            raise TypeError("GradOperation: the function has no Tensor input to differentiate")
        return args, positions, (weights if self.get_by_list else ()), sens

    def pack(self, out: Any, gin: tuple[Tensor, ...], gw: tuple[Tensor, ...]) -> Any:
        """The result in GradOperation's structure."""
        if self.get_all and self.get_by_list:
            return gin, gw
        if self.get_by_list:
            return gw
        if self.get_all:
            return gin
        return gin[0]

    def __repr__(self) -> str:
        return f"GradOperation(get_all={self.get_all}, get_by_list={self.get_by_list}, sens_param={self.sens_param})"


class LossAndGrads:
    """The gradient rule of a training step: ``LossAndGrads(sens_of)(fn, weights)(*inputs)`` ->
    ``(loss, weight_grads)`` from ONE recorded forward pass of ``fn``.

    The backward starts from ``sens_of(loss)``, made after the forward. This is what MindSpore's
    ``loss = network(*inputs); grads = grad(network, weights)(*inputs, sens)`` amounts to: MindSpore
    runs those two calls of the network as one forward pass (GRAPH mode merges them, PYNATIVE mode
    reuses the forward it recorded), so BatchNorm's moving statistics advance once and Dropout draws
    one mask per step.
    """

    has_aux = False

    def __init__(self, sens_of: Callable[[Any], Any]) -> None:
        self.sens_of = sens_of
        # the GradFunction of the last (fn, weights): a training step asks for it every step
        self._last: GradFunction | None = None

    def __call__(self, fn: Callable, weights: Sequence[Parameter]) -> GradFunction:
        gf = self._last
        # (a tuple of weights cannot change in place; a list might, so it gets a new function every call)
        if gf is None or gf.fn is not fn or gf.given_weights is not weights or not isinstance(weights, tuple):
            gf = self._last = GradFunction(self, fn, weights)
        return gf

    def select(self, args: tuple[Any, ...], weights: tuple[Parameter, ...]) -> Selection:
        return args, [], weights, self.sens_of

    def pack(self, out: Any, gin: tuple[Tensor, ...], gw: tuple[Tensor, ...]) -> Any:
        return out, gw


class GradSpec:
    """The rule of ``grad`` / ``value_and_grad``: which inputs (``grad_position``) and weights, aux outputs."""

    def __init__(self, grad_position: Positions, weights: Weights, has_aux: bool, with_value: bool,
                 return_ids: bool = False) -> None:
        if grad_position is None and weights is None:
            raise ValueError("grad: grad_position and weights cannot both be None")
        self.grad_position = grad_position
        self.with_weights = weights is not None
        self.one_weight = isinstance(weights, Parameter)
        self.has_aux = has_aux
        self.with_value = with_value
        self.return_ids = return_ids

    def select(self, args: tuple[Any, ...], weights: tuple[Parameter, ...]) -> Selection:
        gp = self.grad_position
        positions = [] if gp is None else [gp] if isinstance(gp, int) else list(gp)
        for p in positions:
            if not 0 <= p < len(args):
                raise ValueError(f"grad: grad_position {p} is out of range for {len(args)} inputs")
        return args, positions, weights, None

    def pack(self, out: Any, gin: tuple[Any, ...], gw: tuple[Any, ...], weights: Sequence[Parameter] = ()) -> Any:
        gp = self.grad_position
        positions = () if gp is None else (gp,) if isinstance(gp, int) else tuple(gp)
        if self.return_ids:  # each gradient paired with its input position or its Parameter's name
            gin = tuple(zip(positions, gin))
            gw = tuple((w.name, g) for w, g in zip(weights, gw))
        if self.one_weight:
            gw = gw[0]
        if gp is None:
            grads = gw
        else:
            gi = gin[0] if isinstance(gp, int) or len(gin) == 1 else gin  # (0,) gives a Tensor too, as MindSpore
            grads = (gi, gw) if self.with_weights else gi
        if self.with_value:
            return out, grads
        if self.has_aux:
            aux = tuple(out[1:]) if isinstance(out, (tuple, list)) else ()
            return grads, aux
        return grads


def grad(fn: Callable, grad_position: Positions = 0, weights: Weights = None, has_aux: bool = False,
         return_ids: bool = False) -> GradFunction:
    """``mindspore.grad``: a function returning gradients of ``fn`` w.r.t. inputs and/or weights.

    ``grad_position`` int -> one Tensor, tuple -> tuple (of one position: one Tensor, as MindSpore 2.10 gives
    for ``grad_position=(0,)``); with ``weights`` -> ``(input_grads,
    weight_grads)`` (one Parameter as ``weights`` -> its gradient alone); ``grad_position=None`` with weights
    -> weight grads only; ``has_aux`` -> only the first output is differentiated and ``(grads, aux)`` is
    returned. ``return_ids`` pairs each gradient with its id: ``(position, grad)`` for an input,
    ``(parameter_name, grad)`` for a weight; ``get_grad`` picks one out.
    """
    return GradFunction(GradSpec(grad_position, weights, has_aux, False, return_ids), fn, weights)


def value_and_grad(fn: Callable, grad_position: Positions = 0, weights: Weights = None, has_aux: bool = False,
                   return_ids: bool = False) -> GradFunction:
    """``mindspore.value_and_grad``: like ``grad`` but returns ``(outputs, grads)``."""
    return GradFunction(GradSpec(grad_position, weights, has_aux, True, return_ids), fn, weights)


def get_grad(gradients: Any, identifier: int | Parameter) -> Tensor:
    """The gradient for ``identifier`` (an input position or a Parameter) in what ``grad(..., return_ids=True)``
    returned, as ``mindspore.get_grad``: ``get_grad(grads, 0)``, ``get_grad(grads, net.fc.weight)``."""
    key = identifier.name if isinstance(identifier, Parameter) else identifier
    found = _find_grad(gradients, key, isinstance(identifier, Parameter))
    if found is None:
        # observed on MindSpore 2.10 CPU: RuntimeError, this text
        raise RuntimeError(f"Can not find the gradient for position or Parameter {key}")
    return found


def _find_grad(node: Any, key: int | str, by_name: bool) -> Tensor | None:
    if not isinstance(node, tuple):
        return None
    if len(node) == 2 and isinstance(node[1], Tensor) and isinstance(node[0], str if by_name else int) \
            and not isinstance(node[0], bool) and node[0] == key:
        return node[1]
    for item in node:
        found = _find_grad(item, key, by_name)
        if found is not None:
            return found
    return None
