"""Model: the high-level training loop (``mindspore.train.Model``).

``Model(network, loss_fn, optimizer, metrics)`` wraps the pieces a learner would otherwise join by hand::

    train_network = TrainOneStepCell(WithLossCell(network, loss_fn), optimizer)   # train()
    eval_network  = WithEvalCell(network, loss_fn)                               # eval(): (loss, out, label)
    predict       = network                                                      # predict()

``train(epoch, dataset, callbacks, dataset_sink_mode, sink_size)`` runs the loop and calls the
callbacks (see ``mslab.train.callback``). Without sink every step is visible to callbacks and
``cur_step_num`` counts across epochs (1..6, 7..12, ...). With ``dataset_sink_mode=True`` in GRAPH
mode each epoch sinks ``sink_size`` steps (the whole dataset when -1) to the simulated device and runs
them in one go (MindSpore's training guide, train.md): the step callbacks fire once per epoch,
``cur_step_num`` jumps by the sink size and ``net_outputs`` is the last step's loss. ``model.transfer_counts``
then shows why this matters: how often host and device exchanged data. In PYNATIVE mode sinking falls back to no sink.
Sinking needs a device: with ``device_target="CPU"`` (the default) MindSpore ignores
``dataset_sink_mode`` and trains step by step over the whole dataset, and so does mslab; only ``sink_size``
shows, as the ``batch_num`` callbacks see (LossMonitor's step is counted modulo it).
``set_context(device_target="Ascend")`` gives the simulated device.
"""
import math
import warnings

import numpy as np

from mslab.core.context import device_can_sink, is_graph_mode
from mslab.nn.cell import Cell
from mslab.nn.wrap.cell_wrapper import TrainOneStepCell, WithEvalCell, WithLossCell
from mslab.nn.wrap.loss_scale import TrainOneStepWithLossScaleCell
from mslab.train.callback._callback import CallbackManager, CallbackParams, RunContext, handle_loss
from mslab.train.callback._loss_monitor import LossMonitor
from mslab.train.callback._time_monitor import TimeMonitor
from mslab.train.dataset_helper import DatasetHelper, TransferCounts, connect_network_with_dataset
from mslab.train.metrics import Loss, get_metrics

_AMP_LEVELS = ("O0", "O1", "O2", "O3", "auto")
# fit's validation runs the user's callbacks, not these (MindSpore: mindspore.train.callback.__all__),
# except TimeMonitor
_BUILTIN_CALLBACKS = frozenset(("Callback", "LossMonitor", "TimeMonitor", "ModelCheckpoint", "CheckpointConfig",
                                "LearningRateScheduler", "EarlyStopping", "History", "ProgressBar",
                                "ReduceLROnPlateau", "LambdaCallback", "SummaryCollector", "OnRequestExit",
                                "BackupAndRestore", "TFTRegister"))


def _positive_int(name, value):
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"Model.train: {name} must be a positive int, got {value!r}")
    return value


def _build_train_network(network, loss_fn, optimizer, loss_scale_manager):
    if optimizer is None:
        return WithLossCell(network, loss_fn) if loss_fn is not None else network
    net = WithLossCell(network, loss_fn) if loss_fn is not None else network
    if loss_scale_manager is not None:
        update_cell = loss_scale_manager.get_update_cell()
        if update_cell is not None:
            return TrainOneStepWithLossScaleCell(net, optimizer, scale_sense=update_cell)
        return TrainOneStepCell(net, optimizer, sens=loss_scale_manager.get_loss_scale())
    return TrainOneStepCell(net, optimizer)


class _TrainingFlags:
    """Remember every sub-cell's ``training`` flag and put them back afterwards."""

    def __init__(self, cell):
        self.saved = [(c, c.training) for _, c in cell.cells_and_names()]

    def restore(self):
        flags = {flag for _, flag in self.saved}
        if len(flags) == 1:
            self.saved[0][0].set_train(flags.pop())
            return
        for c, flag in self.saved:  # parents first, so each child ends with its own flag
            c.set_train(flag)


_NOT_GIVEN = object()


def _check_loss_scale_on_cpu(amp_level, manager):
    """MindSpore 2.10 on CPU (observed at ``Model(...)``): only no loss scaling, or a fixed scale that never skips a
    step, is supported. ``amp_level="O2"`` without a manager brings ``FixedLossScaleManager()``, which skips
    overflowed steps, so it is refused too; ``"O3"`` and ``"auto"`` without one are accepted."""
    if manager is _NOT_GIVEN:
        if amp_level != "O2":
            return
    elif manager is None or (type(manager).__name__ == "FixedLossScaleManager"
                             and not manager.get_drop_overflow_update()):
        return
    raise ValueError("Only `loss_scale_manager=None` or `loss_scale_manager=FixedLossScaleManager(drop_overflow_update="
                     "False)`are supported on device `CPU`. ")


class Model:
    """High-level train / eval / predict around a network (``mindspore.train.Model``).

    ``Model(network, loss_fn=None, optimizer=None, metrics=None, eval_network=None, eval_indexes=None,
    amp_level="O0", boost_level="O0", loss_scale_manager=None)``.

    * ``loss_fn`` and ``optimizer``: train with ``TrainOneStepCell(WithLossCell(network, loss_fn), optimizer)``;
      only ``optimizer``: the network already returns the loss; neither: ``network`` is the training step.
    * ``metrics``: a dict ``{'acc': Accuracy()}`` or a set of names ``{'acc', 'loss'}``
      (names: 'acc'/'accuracy', 'loss', 'mae', 'mse', 'top_1_accuracy', 'top_5_accuracy', ...).
    * ``eval_network``: defaults to ``WithEvalCell(network, loss_fn)`` with ``eval_indexes=[0, 1, 2]``
      (loss, outputs, label): the Loss metric gets the loss, the others get (outputs, label).
    """

    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None, eval_indexes=None,
                 amp_level="O0", boost_level="O0", **kwargs):
        if not isinstance(network, Cell):
            raise TypeError(f"Model: network must be a Cell, got {type(network).__name__}")
        if amp_level not in _AMP_LEVELS:
            raise ValueError(f"Model: amp_level must be one of {_AMP_LEVELS}, got {amp_level!r}")
        if amp_level != "O0":
            warnings.warn(f"Model(amp_level={amp_level!r}): mslab computes in the network's own dtypes "
                          "(float32); automatic mixed precision is not simulated.", stacklevel=2)
        known = {"loss_scale_manager", "keep_batchnorm_fp32"}
        unknown = set(kwargs) - known
        if unknown:
            raise ValueError(f"Model: unknown keyword arguments {sorted(unknown)}; known: {sorted(known)}")
        _check_loss_scale_on_cpu(amp_level, kwargs.get("loss_scale_manager", _NOT_GIVEN))
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._amp_level = amp_level
        self._boost_level = boost_level
        self._loss_scale_manager = kwargs.get("loss_scale_manager")
        if self._loss_scale_manager is not None and optimizer is None:
            raise ValueError("Model: loss_scale_manager needs an optimizer")
        self._metric_fns = get_metrics(metrics)
        self._train_network = _build_train_network(network, loss_fn, optimizer, self._loss_scale_manager)
        self._eval_network, self._eval_indexes = self._build_eval_network(eval_network, eval_indexes)
        self._predict_network = network
        self.transfer_counts = TransferCounts()  # host <-> device exchanges of the last train/eval call
        self._current_epoch_num = 0
        self._current_step_num = 0
        self._nan_warned = False

    def _build_eval_network(self, eval_network, eval_indexes):
        if eval_indexes is not None and (not isinstance(eval_indexes, (list, tuple)) or len(eval_indexes) != 3):
            raise ValueError(f"Model: eval_indexes must be a list of 3 positions (loss, outputs, label), "
                             f"got {eval_indexes!r}")
        if eval_network is not None:
            return eval_network, (list(eval_indexes) if eval_indexes is not None else None)
        if self._loss_fn is not None:
            return WithEvalCell(self._network, self._loss_fn, self._amp_level in ("O2", "O3", "auto")), [0, 1, 2]
        if self._metric_fns:
            raise ValueError("Model: with metrics, give a loss_fn or an eval_network (to compute what the "
                             "metrics compare)")
        return None, None

    # ---- what MindSpore's Model exposes ----------------------------------------------------------
    @property
    def train_network(self):
        """The Cell one training step calls (TrainOneStepCell(WithLossCell(...)) by default)."""
        return self._train_network

    @property
    def predict_network(self):
        return self._predict_network

    @property
    def eval_network(self):
        return self._eval_network

    # ---- training ----------------------------------------------------------------------------------
    def train(self, epoch, train_dataset, callbacks=None, dataset_sink_mode=False, sink_size=-1, initial_epoch=0):
        """Train for ``epoch`` epochs; see the class and module docstrings for sink mode."""
        self._run_training(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch)

    def fit(self, epoch, train_dataset, valid_dataset=None, valid_frequency=1, callbacks=None,
            dataset_sink_mode=False, valid_dataset_sink_mode=False, sink_size=-1, initial_epoch=0):
        """Train, and evaluate on ``valid_dataset`` after every epoch that ``valid_frequency`` divides (or
        that is in it, for a list).

        As in MindSpore, the evaluation runs your own callbacks' ``on_eval_*`` hooks (of the built-in
        callbacks only TimeMonitor's) with ``cb_params.mode == "eval"``; then ``cb_params.metrics`` holds
        the metrics and ``cb_params.eval_results`` the metrics plus ``eval_loss``, which MindSpore 2.10
        fills with the loss of the *last* validation batch (observed; mslab reports the same).
        """
        if valid_dataset is not None and not self._metric_fns:
            raise ValueError("For 'Model.fit', if valid_dataset is not None, the model argument 'metrics' can not "
                             "beNone or empty, you should set the argument 'metrics' for model.")
        valid = (valid_dataset, valid_frequency, valid_dataset_sink_mode) if valid_dataset is not None else None
        self._run_training(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch, valid)

    def _run_training(self, epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch,
                      valid=None):
        _positive_int("epoch", epoch)
        if isinstance(initial_epoch, bool) or not isinstance(initial_epoch, int) or not 0 <= initial_epoch < epoch:
            raise ValueError(f"Model.train: initial_epoch must be an int in [0, epoch), got {initial_epoch!r}")
        if sink_size != -1:
            _positive_int("sink_size (or -1)", sink_size)
        if not hasattr(train_dataset, "get_dataset_size"):
            raise TypeError(f"Model.train: train_dataset must be an mslab.dataset dataset, got "
                            f"{type(train_dataset).__name__}")
        self._check_reuse_dataset(train_dataset)
        reported_size = None
        if not device_can_sink():  # MindSpore on a CPU ignores sink mode (it logs this at INFO level only)
            # ... but reports sink_size as the epoch's batch_num, so LossMonitor's "step" runs on across epochs
            # while it is larger than the dataset (observed on 2.10 CPU: 5 batches, sink_size=1000, epoch 2 prints
            # steps 6..10; sink_size=3 prints 1 2 3 1 2 | 3 1 2 3 1)
            reported_size = sink_size if dataset_sink_mode and sink_size > 0 else None
            dataset_sink_mode, sink_size = False, -1
        sink = bool(dataset_sink_mode) and is_graph_mode()
        if dataset_sink_mode and not sink:
            warnings.warn("Model.train: dataset sink mode needs GRAPH mode (a compiled program to run on the "
                          "device); in PYNATIVE mode training runs without sink.", stacklevel=3)
        dataset_size = train_dataset.get_dataset_size()
        cb_params = CallbackParams()
        cb_params.train_network = self._train_network
        cb_params.network = self._network
        cb_params.epoch_num = epoch
        cb_params.batch_num = sink_size if (sink and sink_size > 0) else reported_size or dataset_size
        cb_params.mode = "train"
        cb_params.loss_fn = self._loss_fn
        cb_params.optimizer = self._optimizer
        cb_params.parallel_mode = "stand_alone"
        cb_params.device_number = 1
        cb_params.train_dataset = train_dataset
        cb_params.dataset_sink_mode = sink
        cb_params.initial_epoch = initial_epoch
        cb_params.cur_epoch_num = initial_epoch
        cb_params.cur_step_num = initial_epoch * cb_params.batch_num
        cb_params.net_outputs = None
        cb_params.train_dataset_element = None
        manager = CallbackManager(callbacks)
        cb_params.list_callback = manager
        self._nan_warned = any(isinstance(cb, LossMonitor) for cb in manager.callbacks)
        self._train_network.set_train(True)
        helper = DatasetHelper(train_dataset, dataset_sink_mode=sink, sink_size=sink_size,
                               epoch_num=epoch - initial_epoch)
        self.transfer_counts = helper.transfer_counts
        with manager:
            if sink:
                self._train_sink(epoch, helper, cb_params, manager, initial_epoch, valid)
            else:
                self._train_steps(epoch, helper, cb_params, manager, initial_epoch, valid)

    def _check_reuse_dataset(self, dataset):
        """A dataset object trains one Model (again and again); MindSpore refuses it to a second Model."""
        owner = getattr(dataset, "_trained_by_model", None)
        if owner is None:
            dataset._trained_by_model = hash(self)
        elif owner != hash(self):
            raise RuntimeError("The dataset object had been used in other model by model.train(...), "
                               "please create a new dataset.")

    def _train_steps(self, epoch, helper, cb_params, manager, initial_epoch, valid):
        """The loop without sink: every step goes host -> device -> host, and the callbacks see it."""
        run_context = RunContext(cb_params)
        manager.on_train_begin(run_context)
        network = self._train_network
        for i in range(initial_epoch, epoch):
            cb_params.cur_epoch_num = i + 1
            self._current_epoch_num = i + 1
            self._current_step_num = 0
            manager.on_train_epoch_begin(run_context)
            for inputs in helper:  # one host -> device transfer per batch
                self._check_inputs(inputs)
                cb_params.cur_step_num += 1
                self._current_step_num = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
                cb_params.train_dataset_element = inputs
                manager.on_train_step_begin(run_context)
                outputs = network(*inputs)
                helper.transfer_counts.device_to_host += 1  # the step's result comes back
                cb_params.net_outputs = outputs
                self._check_finite(cb_params)
                manager.on_train_step_end(run_context)
                if run_context.get_stop_requested():
                    break
            self._epoch_end(cb_params, manager, run_context, valid)
            if run_context.get_stop_requested():
                break
        manager.on_train_end(run_context)

    def _train_sink(self, epoch, helper, cb_params, manager, initial_epoch, valid):
        """The sink loop: per epoch one transfer of ``sink_size`` batches, one device call, one result."""
        run_context = RunContext(cb_params)
        sink_network = connect_network_with_dataset(self._train_network, helper)
        cb_params.train_network = sink_network
        cb_params.dataset_helper = helper
        manager.on_train_begin(run_context)
        for i in range(initial_epoch, epoch):
            cb_params.cur_epoch_num = i + 1
            self._current_epoch_num = i + 1
            manager.on_train_epoch_begin(run_context)
            for inputs in helper:  # one item per sink: the batches went to the device queue
                cb_params.cur_step_num += helper.sink_size()
                self._current_step_num = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
                cb_params.train_dataset_element = inputs
                manager.on_train_step_begin(run_context)
                outputs = sink_network(*inputs)  # sink_size steps back to back; the last output returns
                cb_params.net_outputs = outputs
                self._check_finite(cb_params)
                manager.on_train_step_end(run_context)
            self._epoch_end(cb_params, manager, run_context, valid)
            if run_context.get_stop_requested():
                break
        helper.release()
        manager.on_train_end(run_context)
        cb_params.train_network = self._train_network

    def _epoch_end(self, cb_params, manager, run_context, valid):
        if valid is not None:
            dataset, frequency, _ = valid  # validation never sinks on CPU (MindSpore falls back too)
            epoch = cb_params.cur_epoch_num
            if epoch % frequency == 0 if isinstance(frequency, int) else epoch in frequency:
                self._eval_in_fit(dataset, manager, cb_params)
        manager.on_train_epoch_end(run_context)
        cb_params.pop("metrics", None)  # MindSpore: the next epoch's callbacks no longer see them
        cb_params.pop("eval_results", None)

    def _eval_in_fit(self, dataset, manager, cb_params):
        """Evaluate inside fit with the training's cb_params, then put its training fields back."""
        saved = {k: cb_params.get(k) for k in ("mode", "cur_step_num", "batch_num", "dataset_sink_mode", "net_outputs")}
        counts = self.transfer_counts
        eval_callbacks = [cb for cb in manager.callbacks
                          if type(cb).__name__ not in _BUILTIN_CALLBACKS or isinstance(cb, TimeMonitor)]
        self._set_eval_params(cb_params, dataset, sink=False)
        with CallbackManager(eval_callbacks) as eval_manager:
            self._eval_process(dataset, eval_manager, cb_params, add_eval_loss=True)
        self.transfer_counts = counts
        self._train_network.set_train(True)
        cb_params.update(saved)

    def _check_inputs(self, inputs):
        if self._loss_fn is not None and len(inputs) != 2:
            raise ValueError(f"Model.train: with a loss_fn the dataset must give 2 columns (data, label) per "
                             f"batch, got {len(inputs)}")

    def _check_finite(self, cb_params):
        """Warn once when the loss is NaN/Inf and no LossMonitor is there to stop training (it raises)."""
        if self._nan_warned:
            return
        loss = handle_loss(cb_params.net_outputs)
        if loss is not None and not math.isfinite(loss):
            self._nan_warned = True
            step = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
            warnings.warn(f"Model.train: the loss is {loss} at epoch {cb_params.cur_epoch_num} step {step}; "
                          f"training goes on (add LossMonitor() to stop on it)", RuntimeWarning, stacklevel=4)

    # ---- evaluation and prediction ----------------------------------------------------------------
    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode=False):
        """Run the eval network over ``valid_dataset`` and return ``{metric name: value}``."""
        if not self._metric_fns:
            raise ValueError("Model.eval: no metrics: build the Model with metrics={'acc'} or "
                             "metrics={'acc': nn.Accuracy()}")
        if not hasattr(valid_dataset, "get_dataset_size"):
            raise TypeError(f"Model.eval: valid_dataset must be an mslab.dataset dataset, got "
                            f"{type(valid_dataset).__name__}")
        sink = bool(dataset_sink_mode) and is_graph_mode() and device_can_sink()
        cb_params = CallbackParams()
        self._set_eval_params(cb_params, valid_dataset, sink)
        cb_params.net_outputs = None
        manager = CallbackManager(callbacks)
        with manager:
            return self._eval_process(valid_dataset, manager, cb_params)

    def _set_eval_params(self, cb_params, dataset, sink):
        """The cb_params fields an evaluation sets (a fresh one, or fit's training params)."""
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = dataset
        cb_params.batch_num = dataset.get_dataset_size()
        cb_params.mode = "eval"
        cb_params.cur_step_num = 0
        cb_params.dataset_sink_mode = sink

    def _eval_process(self, valid_dataset, manager, cb_params, add_eval_loss=False):
        """The evaluation loop; ``add_eval_loss`` (inside fit) adds ``eval_results['eval_loss']``."""
        cb_params.list_callback = manager
        run_context = RunContext(cb_params)
        for metric in self._metric_fns.values():
            metric.clear()
        self._eval_network.set_train(False)
        # eval never loops on the device: each step's outputs feed the metrics on the host
        helper = DatasetHelper(valid_dataset, dataset_sink_mode=False)
        self.transfer_counts = helper.transfer_counts
        last_loss = None
        manager.on_eval_begin(run_context)
        manager.on_eval_epoch_begin(run_context)
        for inputs in helper:
            cb_params.cur_step_num += 1
            cb_params.eval_dataset_element = inputs
            manager.on_eval_step_begin(run_context)
            outputs = self._eval_network(*inputs)
            helper.transfer_counts.device_to_host += 1
            cb_params.net_outputs = outputs
            manager.on_eval_step_end(run_context)
            self._update_metrics(outputs)
            last_loss = handle_loss(outputs[self._eval_indexes[0]] if self._eval_indexes else outputs)
            if run_context.get_stop_requested():
                break
        manager.on_eval_epoch_end(run_context)
        metrics = {name: m.eval() for name, m in self._metric_fns.items()}
        cb_params.metrics = metrics
        cb_params.eval_results = dict(metrics)
        if add_eval_loss:
            # MindSpore 2.10 builds a fresh Loss metric for every batch, so eval_loss is the last batch's
            # loss (observed), not the mean over the validation set
            cb_params.eval_results["eval_loss"] = np.float64(last_loss)
        manager.on_eval_end(run_context)
        return metrics

    def _update_metrics(self, outputs):
        if not isinstance(outputs, (tuple, list)):
            outputs = (outputs,)
        if self._eval_indexes is not None and len(outputs) < 3:
            raise ValueError(f"Model.eval: eval_indexes needs the eval network to return 3 outputs "
                             f"(loss, outputs, label), got {len(outputs)}")
        for metric in self._metric_fns.values():
            if self._eval_indexes is None or metric.indexes is not None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[self._eval_indexes[0]])
            else:
                metric.update(outputs[self._eval_indexes[1]], outputs[self._eval_indexes[2]])

    def predict(self, *predict_data):
        """Run the bare network on ``predict_data`` with training off (Dropout off, BatchNorm uses its
        moving statistics); the training flags are put back afterwards."""
        flags = _TrainingFlags(self._predict_network)
        self._predict_network.set_train(False)
        try:
            return self._predict_network(*predict_data)
        finally:
            flags.restore()

    def __repr__(self):
        return (f"Model(network={type(self._network).__name__}, loss_fn={type(self._loss_fn).__name__}, "
                f"optimizer={type(self._optimizer).__name__}, metrics={sorted(self._metric_fns or {})})")
