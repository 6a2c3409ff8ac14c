"""Optimizer: the Cell that turns gradients into weight updates (``mindspore.nn.Optimizer``).

An optimizer is called with the gradients, one per parameter, and writes new values into the
parameters with ``ops.assign``. Because the update is written with mslab ops:

* in PYNATIVE mode it runs at once, op by op;
* in GRAPH mode (inside ``TrainOneStepCell``) the update becomes part of the compiled graph, after the
  forward and backward nodes; every node it records has phase ``"optimizer"`` (``_graph_phase``).

Before the update, every optimizer prepares the gradients the same way (as MindSpore does)::

    g = g + weight_decay * w        # ungrouped: skipped for names containing "beta" or "gamma";
                                    # a group's weight_decay applies to every parameter of the group
    g = g * (1 / loss_scale)        # undo a static loss scale

The learning rate may be a float, a list (``lr = list[global_step]``; a step past its end raises), a
Tensor (0-d: fixed, 1-d: a list) or a ``LearningRateSchedule`` Cell called with the step. ``global_step``
(created first, then ``learning_rate``, as in MindSpore) is a Parameter the optimizer increases by one
every call; ``get_lr()`` only reads it.

A call's writes land together or not at all: if anything raises during the update (in PYNATIVE mode,
or while a GRAPH-mode training step runs), every weight and state is put back as it was.
"""
import contextlib
import functools
import inspect

import numpy as np

from mslab.core import context, state
from mslab.core import dtype as mstype
from mslab.core.tensor import Parameter, ParameterTuple, Tensor
from mslab.ir.node import OPTIMIZER
from mslab.nn.cell import Cell
from mslab.ops import functional as F


def _default_decay_filter(p):
    if not isinstance(p, Parameter):
        raise TypeError(f"Optimizer: the parameters must be Parameters, got a {type(p).__name__} "
                        f"(this one is not a Parameter)")
    return "beta" not in p.name and "gamma" not in p.name


def _check_number(name, value, low=0.0, strict=False, owner="Optimizer"):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{owner}: {name} must be a float, got {type(value).__name__}")
    if value < low or (strict and value == low):
        raise ValueError(f"{owner}: {name} must be {'>' if strict else '>='} {low}, got {value}")
    return float(value)


def state_param(value, name):
    """A float32 Parameter holding optimizer state such as ``beta1_power`` (never trained itself)."""
    return Parameter(Tensor(np.asarray(value, np.float32)), name=name, requires_grad=False)


def clone_state(params, prefix, init="zeros"):
    """``params.clone(prefix, init)`` with the clones marked not trainable (they are state, not weights)."""
    if isinstance(init, (int, float)) and not isinstance(init, bool):
        out = params.clone(prefix=prefix, init="zeros")
        for c in out:
            c.set_data(np.full(c.shape, init, c._data.dtype))
    else:
        out = params.clone(prefix=prefix, init=init)
    for c in out:
        c.requires_grad = False
    return out


class all_or_nothing:
    """``with all_or_nothing():`` run the block; if it raises (even KeyboardInterrupt), write every array it wrote
    in place back as it was.

    The writes themselves keep the old contents (``core.state.before_write``, called by every in-place write), so
    a step copies only what it changes, when it changes it. Inside a guarded step an inner block adds nothing.
    (A class rather than a generator: every eager training step enters it, and this costs a third as much.)
    """

    __slots__ = ("_journal",)

    def __enter__(self):
        if state.journals:  # a whole training step is already guarded (TrainOneStepCell): its journal covers this
            self._journal = None
        else:
            self._journal = {}
            state.journals.append(self._journal)
        return self

    def __exit__(self, exc_type, exc, tb):
        journal = self._journal
        if journal is None:
            return False
        state.journals.pop()
        if exc_type is not None:
            for array, old in journal.values():
                np.copyto(array, old)  # in place: compiled graphs hold the Parameter's array
        return False


def check_unique(owner, params, grouped):
    """Refuse the same Parameter twice, or two Parameters with one name, with MindSpore's errors."""
    seen = {}
    for p in params:
        other = seen.get(p.name)
        if other is None:
            seen[p.name] = p
        elif other is p and grouped:
            raise RuntimeError(f"For '{owner}', the {p.name} parameter already exists, it does not support "
                               f"repeated setting. Please check whether the optimizer parameter has been set "
                               f"multiple times.")
        else:
            what = "the same Parameter is given twice" if other is p else "two Parameters share this name"
            raise ValueError(f"{owner}: {what}: its name '{p.name}' already exists. Please set a unique name "
                             f"for the parameter.")


class _LearningRate:
    """One learning rate: fixed, a per-step list, or a schedule Cell (what ``get_lr`` reads)."""

    def __init__(self, owner, lr, name):
        self.dynamic = False
        if isinstance(lr, Cell):  # a LearningRateSchedule
            self.kind, self.value, self.dynamic = "schedule", lr, True
            return
        if isinstance(lr, Tensor):
            arr = np.asarray(lr.asnumpy(), np.float32)
            if arr.ndim > 1:
                raise ValueError(f"{type(owner).__name__}: a Tensor learning rate must be 0-d or 1-d, got {arr.shape}")
            lr = arr.item() if arr.ndim == 0 else list(arr)
        if isinstance(lr, (list, tuple)):
            if not lr:
                raise ValueError(f"{type(owner).__name__}: the learning-rate list is empty")
            for v in lr:
                _check_number("learning_rate", float(v), owner=type(owner).__name__)
            self.kind, self.dynamic = "list", True
            self.value = Parameter(Tensor(np.asarray(lr, np.float32)), name=name, requires_grad=False)
            self.positions = Tensor(np.arange(len(lr), dtype=np.int32))
            return
        _check_number("learning_rate", lr, owner=type(owner).__name__)
        self.kind = "fixed"
        self.value = state_param(lr, name)

    def check_step(self, owner, step):
        """A list's rate for ``step`` must exist: MindSpore's Gather fails past the end, so does mslab."""
        if self.kind == "list" and step >= self.value.shape[0]:
            n = self.value.shape[0]
            raise RuntimeError(f"{owner}: the learning-rate list has {n} entries and step {step} is past its end "
                               f"(MindSpore: For 'Gather', the 'input_indices' should be in the range [0, {n}), "
                               f"but got {step})")

    def current(self, global_step):
        """The rate for this step, a 0-d float32 tensor."""
        if self.kind == "fixed":
            return self.value
        if self.kind == "schedule":
            return F.reshape(self.value(global_step), ())
        # lr = list[min(step, len-1)]: a one-hot mask picks the entry (exact: one term is non-zero).
        n = self.value.shape[0]
        step = F.minimum(F.reshape(global_step, ()), n - 1)
        mask = F.cast(F.equal(self.positions, step), mstype.float32)
        return F.reduce_sum(F.mul(self.value, mask), ())


_NOTHING_KEPT = contextlib.nullcontext()


@contextlib.contextmanager
def _written_back(cond, written):
    """Copies of ``written`` taken before the block; after it, ``written = select(cond, copy, written)``."""
    old = [F.identity(t) for t in written]
    yield
    for t, o in zip(written, old):
        F.assign(t, F.select(cond, o, t))


class Optimizer(Cell):
    """Base class of optimizers: ``Optimizer(learning_rate, parameters, weight_decay=0.0, loss_scale=1.0)``.

    ``parameters`` is an iterable of Parameters (``net.trainable_params()``) or a list of group
    dicts ``{'params': [...], 'weight_decay': 0.01, 'lr': 0.1}``. Subclasses write ``construct(grads)``
    with ``decay_weight``, ``scale_grad``, ``get_lr`` and ``ops.assign(w, self._keep(w, new))`` (or an update
    primitive that writes in place, inside ``with self.kept_if_skipped(w, ...)``: Momentum, SGD), and
    return the tuple of their results (TrainOneStepCell passes it to ``ops.depend``).
    """

    _graph_phase = OPTIMIZER

    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        super().__init__(auto_prefix=False)
        owner = type(self).__name__
        if parameters is None:
            raise ValueError(f"{owner}: give the parameters to optimize, e.g. net.trainable_params()")
        items = list(parameters)
        if not items:
            raise ValueError(f"{owner}: the parameter list is empty (did the filter drop everything?)")
        weight_decay = _check_number("weight_decay", weight_decay, owner=owner)
        self.loss_scale = _check_number("loss_scale", loss_scale, strict=True, owner=owner)
        params, decays, lrs = [], [], []
        self.is_group = isinstance(items[0], dict)
        self.is_group_lr = False
        if self.is_group:
            order = None
            for gi, group in enumerate(items):
                if not isinstance(group, dict):
                    raise TypeError(f"{owner}: mix of group dicts and Parameters in the parameter list")
                if "order_params" in group:
                    order = list(group["order_params"])
                    continue
                gp = list(group["params"])
                wd = _check_number("weight_decay", group.get("weight_decay", weight_decay), owner=owner)
                if "lr" in group:
                    self.is_group_lr = True
                    lr = _LearningRate(self, group["lr"], f"learning_rate_group_{gi}")
                else:
                    lr = None
                for p in gp:
                    _default_decay_filter(p)  # only for its check that p is a Parameter
                    params.append(p)
                    decays.append(wd)  # MindSpore: a group's weight_decay applies to all of the group
                    lrs.append(lr)
            if order is not None:
                where = {id(p): i for i, p in enumerate(params)}
                idx = [where[id(p)] for p in order if id(p) in where]
                params, decays, lrs = [params[i] for i in idx], [decays[i] for i in idx], [lrs[i] for i in idx]
        else:
            for p in items:
                params.append(p)
                decays.append(weight_decay if _default_decay_filter(p) else 0.0)
                lrs.append(None)
        for i, p in enumerate(params):
            if not isinstance(p, Parameter):
                raise TypeError(f"{owner}: parameter {i} is a {type(p).__name__}, not a Parameter")
        check_unique(owner, params, self.is_group)
        # global_step, then learning_rate, then the weights, then (in subclasses) their state: MindSpore's
        # order in get_parameters() and checkpoints
        self.global_step = Parameter(Tensor(np.zeros((1,), np.int32)), name="global_step", requires_grad=False)
        self.global_step_increase_tensor = Tensor(np.ones((1,), np.int32))  # MindSpore's name for the step's +1
        self.weight_decay = weight_decay
        self.decay_flags = tuple(d > 0 for d in decays)
        self._decays = tuple(decays)
        self._decays_any = any(d > 0 for d in decays)
        self._base_lr = _LearningRate(self, learning_rate, "learning_rate")
        self.learning_rate = self._base_lr.value  # a Parameter, or the schedule Cell
        self._group_lrs = [lr if lr is not None else self._base_lr for lr in lrs]
        for k, lr in enumerate({id(x): x for x in self._group_lrs if x is not self._base_lr}.values()):
            setattr(self, f"_group_lr_holder_{k}", lr.value)  # register group rates (Parameters/Cells)
        self.parameters = ParameterTuple(params)
        self.dynamic_lr = any(lr.dynamic for lr in self._group_lrs)
        self._skip_cond = None  # the bool tensor of skip_update_if while it holds: updates keep the old values there
        self._target = context.get_context("device_target")

    # ---- what MindSpore's optimizers expose -----------------------------------------------------
    @property
    def params(self):
        return self.parameters

    @property
    def _parameters(self):
        return self.parameters

    @property
    def target(self):
        """Where MindSpore would run the update: the context's ``device_target`` when the optimizer was built
        ('CPU' on a CPU). mslab updates with numpy in every case."""
        return self._target

    @target.setter
    def target(self, value):
        # MindSpore's base class raises a bare NotImplementedError; Adam, LazyAdam, FTRL, ProximalAdagrad and
        # AdaFactor override the setter with one that calls _set_base_target
        raise NotImplementedError(f"For '{type(self).__name__}', the property 'target' cannot be set: this "
                                  f"optimizer does not override the setter (MindSpore 2.10 raises "
                                  f"NotImplementedError too)")

    def _set_base_target(self, value):
        """What a subclass's ``target`` setter calls: checks ``value`` with MindSpore 2.10's messages, then keeps it
        (for MindSpore, 'CPU' means updating on the host with fused optimizer kernels)."""
        if not isinstance(value, str):
            raise TypeError(f"For 'Optimizer', the property 'target' must be string, but got {type(value)}")
        if value not in ("CPU", "Ascend", "GPU"):
            raise ValueError(f"For 'Optimizer', the property 'target' must be one of ['CPU', 'Ascend' ,'GPU'], "
                             f"but got {value}")
        if self._target == "CPU" and value in ("Ascend", "GPU"):
            raise ValueError("For 'Optimizer', the property 'target' cannot be set to 'GPU' or 'Ascend' in the "
                             "'CPU' environment.")
        if {self._target, value} == {"Ascend", "GPU"}:
            raise ValueError(f"For 'Optimizer', the property 'target' cannot be set to '{value}' in the "
                             f"'{self._target}' environment.")
        self._target = value

    def flatten_gradients(self, gradients):
        return tuple(gradients)

    def decay_weight(self, gradients):
        """``g + weight_decay * w`` (ungrouped: for every parameter whose name has no "beta"/"gamma")."""
        gradients = tuple(gradients)
        if len(gradients) != len(self.parameters):
            raise ValueError(f"{type(self).__name__}: got {len(gradients)} gradients for "
                             f"{len(self.parameters)} parameters")
        if not self._decays_any:
            return gradients  # no decay anywhere (the usual case): nothing to add
        return tuple(F.add(g, F.mul(p, wd)) if wd > 0 else g
                     for g, p, wd in zip(gradients, self.parameters, self._decays))

    def scale_grad(self, gradients):
        """Undo a static loss scale: ``g * (1 / loss_scale)``."""
        if self.loss_scale == 1.0:
            return tuple(gradients)
        reciprocal = 1.0 / self.loss_scale
        return tuple(F.mul(g, reciprocal) for g in gradients)

    def get_lr(self):
        """The learning rate for this step (a tuple, one per parameter, with group rates).

        Reading it changes nothing (MindSpore 2.x); the optimizer's call advances ``global_step``.
        """
        if self.is_group_lr:
            return tuple(x.current(self.global_step) for x in self._group_lrs)
        return self._base_lr.current(self.global_step)

    def get_lr_parameter(self, param):
        """The learning rate that applies to ``param`` (a Parameter, or for a schedule the Cell)."""
        for p, lr in zip(self.parameters, self._group_lrs):
            if p is param or p.name == getattr(param, "name", None):
                return lr.value
        raise ValueError(f"{type(self).__name__}: {param!r} is not optimized by this optimizer")

    def _per_param(self, lr):
        return list(lr) if isinstance(lr, tuple) else [lr] * len(self.parameters)

    def _prepare(self, gradients):
        """The common first steps of ``construct``: decay, unscale, the learning rate per parameter, and
        ``global_step += 1`` (every call, as MindSpore's optimizers do)."""
        gradients = self.flatten_gradients(gradients)
        gradients = self.decay_weight(gradients)
        gradients = self.scale_grad(gradients)
        lr = self._per_param(self.get_lr())
        with self.kept_if_skipped(self.global_step):  # one AssignAdd, as MindSpore's optimizers do
            F.assign_add(self.global_step, self.global_step_increase_tensor)
        return gradients, lr

    def check_can_step(self):
        """Raise before a step that would run past the end of a learning-rate list."""
        if self.dynamic_lr:
            step = int(self.global_step.asnumpy()[0])
            for lr in {id(x): x for x in self._group_lrs}.values():
                lr.check_step(type(self).__name__, step)

    def _step_guard(self):
        """Around each eager call (not traced: a traced step's TrainOneStepCell checks and guards): a learning-rate
        list that has run out raises before the step, and a step that raises leaves every weight as it was."""
        self.check_can_step()
        return all_or_nothing()

    # ---- writing --------------------------------------------------------------------------------
    def _keep(self, variable, value):
        """The value to write: ``value``, or ``select(cond, variable, value)`` while ``skip_update_if(cond)``
        holds (so a skipped step writes the old numbers back). Use as ``ops.assign(w, self._keep(w, new))``."""
        cond = self._skip_cond
        if cond is not None:
            return F.select(cond, variable, value)
        return value

    def kept_if_skipped(self, *written):
        """``with self.kept_if_skipped(w, v):`` around an update that writes ``w`` and ``v`` in place (one
        ``ApplyMomentum``): while ``skip_update_if(cond)`` holds, they get their old numbers back where ``cond``
        is True. Outside it, nothing is added."""
        cond = self._skip_cond
        return _NOTHING_KEPT if cond is None else _written_back(cond, written)

    @contextlib.contextmanager
    def skip_update_if(self, cond):
        """Inside the block, every write keeps the old value where the bool tensor ``cond`` is True.

        How a loss-scale cell skips a step on overflow in GRAPH mode, where ``if overflow:`` cannot
        branch on a tensor: the new values are computed and ``ops.select`` keeps the old ones.
        """
        saved = self._skip_cond
        self._skip_cond = cond
        try:
            yield self
        finally:
            self._skip_cond = saved

    def construct(self, gradients):
        raise NotImplementedError(f"{type(self).__name__} must define construct(gradients)")

    def extend_repr(self):
        return f"learning_rate={self._base_lr.kind}, weight_decay={self.weight_decay}, loss_scale={self.loss_scale}"


def opt_init_args_register(fn):
    """Decorator for an optimizer's ``__init__`` that records its arguments (MindSpore's
    ``nn.optim.optimizer.opt_init_args_register``), before ``fn`` runs:

    ``self.init_params = {"params": params}``; ``self.init_learning_rate`` (a Tensor as a list or
    number, None for a schedule Cell); ``self.init_args``: every other argument, defaults included.
    """
    @functools.wraps(fn)
    def deco(self, *args, **kwargs):
        arguments = inspect.signature(fn).bind(self, *args, **kwargs)
        arguments.apply_defaults()
        arguments = dict(arguments.arguments)
        arguments.pop("self")
        if "params" in arguments:
            self.init_params = {"params": arguments.pop("params")}
        if "optimizer" in arguments:
            self.init_params = {"params": arguments.pop("optimizer").init_params["params"]}
        if "learning_rate" in arguments:
            lr = arguments.pop("learning_rate")
            lr = lr.asnumpy().tolist() if isinstance(lr, Tensor) else lr
            self.init_learning_rate = None if isinstance(lr, Cell) else lr
        self.init_args = arguments
        fn(self, *args, **kwargs)

    return deco
