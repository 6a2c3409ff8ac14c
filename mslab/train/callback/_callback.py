"""Callback, RunContext and the callback parameters: how ``Model.train`` lets you watch and steer a loop.

``Model.train`` calls every callback at fixed points of the loop::

    on_train_begin
      on_train_epoch_begin                      (once per epoch)
        on_train_step_begin / on_train_step_end (every step; in sink mode once per sink)
      on_train_epoch_end
    on_train_end

and ``Model.eval`` the ``on_eval_*`` counterparts. Each hook gets a ``RunContext``;
``run_context.original_args()`` is the ``cb_params`` object (attributes and dict access) holding
``cur_epoch_num``, ``cur_step_num``, ``batch_num``, ``net_outputs``, ``train_network``, ...;
``run_context.request_stop()`` ends training after the current step (or sink).

MindSpore 1.x named the hooks ``begin``, ``epoch_begin``, ``step_begin``, ``step_end``,
``epoch_end``, ``end``. The 2.x hooks call them by default, so a callback written for 1.x keeps working.
"""
import numpy as np


class CallbackParams(dict):
    """The ``cb_params`` a callback reads: a dict whose keys are also attributes (``cb.cur_step_num``)."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"cb_params has no attribute {name!r}; it has: {', '.join(sorted(self))}") from None

    def __setattr__(self, name, value):
        self[name] = value

    def __delattr__(self, name):
        try:
            del self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self):
        return "CallbackParams(" + ", ".join(f"{k}={_short(v)}" for k, v in self.items()) + ")"


def _short(v):
    text = repr(v) if isinstance(v, (int, float, str, bool, type(None))) else type(v).__name__
    return text


_InternalCallbackParam = CallbackParams  # MindSpore's internal name


class RunContext:
    """What a hook receives: ``original_args()`` (the cb_params) and ``request_stop()``."""

    def __init__(self, original_args):
        if not isinstance(original_args, dict):
            raise TypeError(f"RunContext: original_args must be a dict (cb_params), got {type(original_args).__name__}")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self):
        """The callback parameters (``cb_params``) of the running loop."""
        return self._original_args

    def request_stop(self):
        """Ask the loop to stop after the current step (the epoch-end hooks still run)."""
        self._stop_requested = True

    def get_stop_requested(self):
        """True once some callback called ``request_stop``."""
        return self._stop_requested


class Callback:
    """Base class of callbacks (``mindspore.train.Callback``); override the hooks you need.

    2.x hooks: ``on_train_begin/end``, ``on_train_epoch_begin/end``, ``on_train_step_begin/end`` and
    ``on_eval_*``. By default each calls its 1.x name (``begin``, ``epoch_begin``, ``step_begin``,
    ``step_end``, ``epoch_end``, ``end``), which do nothing, so either style works.
    """

    def __enter__(self):
        return self

    def __exit__(self, *err):
        pass

    # 1.x names
    def begin(self, run_context):
        """Called once before training (1.x name of ``on_train_begin``)."""

    def epoch_begin(self, run_context):
        """Called before each epoch."""

    def epoch_end(self, run_context):
        """Called after each epoch."""

    def step_begin(self, run_context):
        """Called before each step (in sink mode: before each sink)."""

    def step_end(self, run_context):
        """Called after each step (in sink mode: after each sink)."""

    def end(self, run_context):
        """Called once after training."""

    # 2.x names: training
    def on_train_begin(self, run_context):
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_train_step_end(self, run_context):
        self.step_end(run_context)

    def on_train_end(self, run_context):
        self.end(run_context)

    # 2.x names: evaluation (MindSpore routes them to the same 1.x names)
    def on_eval_begin(self, run_context):
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context):
        self.step_end(run_context)

    def on_eval_end(self, run_context):
        self.end(run_context)


_HOOKS = (
    "begin", "epoch_begin", "epoch_end", "step_begin", "step_end", "end",
    "on_train_begin", "on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin", "on_train_step_end",
    "on_train_end", "on_eval_begin", "on_eval_epoch_begin", "on_eval_epoch_end", "on_eval_step_begin",
    "on_eval_step_end", "on_eval_end",
)


def as_callback_list(callbacks):
    """A list of Callback objects from None, one Callback, or a list/tuple of them."""
    if callbacks is None:
        return []
    if isinstance(callbacks, Callback):
        return [callbacks]
    if isinstance(callbacks, (list, tuple)):
        for i, cb in enumerate(callbacks):
            if not isinstance(cb, Callback):
                raise TypeError(f"callbacks[{i}] is a {type(cb).__name__}, not a Callback (subclass "
                                f"mslab.train.Callback and override on_train_step_end etc.)")
        return list(callbacks)
    raise TypeError(f"callbacks must be a Callback or a list of Callbacks, got {type(callbacks).__name__}")


class CallbackManager(Callback):
    """Calls the same hook on every callback of a list, in order (MindSpore's ``_CallbackManager``)."""

    def __init__(self, callbacks):
        self._callbacks = as_callback_list(callbacks)

    @property
    def callbacks(self):
        return list(self._callbacks)

    def __enter__(self):
        for cb in self._callbacks:
            cb.__enter__()
        return self

    def __exit__(self, *err):
        for cb in self._callbacks:
            cb.__exit__(*err)


def _fan_out(name):
    def hook(self, run_context):
        for cb in self._callbacks:
            getattr(cb, name)(run_context)
    hook.__name__ = name
    hook.__doc__ = f"Call ``{name}`` on every callback."
    return hook


for _name in _HOOKS:
    setattr(CallbackManager, _name, _fan_out(_name))
del _name

_CallbackManager = CallbackManager


def handle_loss(net_outputs):
    """The loss as a Python float from ``net_outputs``: a Tensor (averaged) or a tuple whose first item is
    the loss (``(loss, overflow, scale)`` from a loss-scale cell); None when there is no tensor to read."""
    loss = net_outputs
    if isinstance(loss, (tuple, list)) and loss:
        loss = loss[0]
    if hasattr(loss, "asnumpy"):
        return float(np.mean(loss.asnumpy()))
    if isinstance(loss, (int, float)) and not isinstance(loss, bool):
        return float(loss)
    return None
