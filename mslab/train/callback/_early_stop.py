"""EarlyStopping: stop training when a monitored value has stopped improving."""
import numpy as np

from mslab.train.callback._callback import Callback, handle_loss


class EarlyStopping(Callback):
    """Stop when ``monitor`` has not improved by ``min_delta`` for ``patience`` epochs.

    ``monitor``: ``'loss'`` (the training loss of the epoch's last step, ``net_outputs``) or the name of
    an evaluation result from ``Model.fit`` (``'eval_loss'`` or ``'loss'``-style metric names such as
    ``'acc'``; an ``eval_`` prefix may be used: ``'eval_acc'`` reads the metric ``'acc'``).
    ``mode``: ``'min'``, ``'max'`` or ``'auto'`` (max for names containing "acc", min otherwise).
    ``baseline``: do not count an epoch as improving unless the value also beats it.
    ``restore_best_weights``: load the best epoch's weights back when stopping.
    """

    def __init__(self, monitor="eval_loss", min_delta=0, patience=0, verbose=False, mode="auto", baseline=None,
                 restore_best_weights=False):
        super().__init__()
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"EarlyStopping: mode must be 'auto', 'min' or 'max', got {mode!r}")
        if isinstance(patience, bool) or not isinstance(patience, int) or patience < 0:
            raise ValueError(f"EarlyStopping: patience must be an int >= 0, got {patience!r}")
        if min_delta < 0:
            raise ValueError(f"EarlyStopping: min_delta must be >= 0, got {min_delta!r}")
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights
        maximize = mode == "max" or (mode == "auto" and "acc" in monitor)
        self.mode = "max" if maximize else "min"
        self.monitor_op = np.greater if maximize else np.less
        self.min_delta = abs(min_delta) if maximize else -abs(min_delta)
        self.wait = 0
        self.stopped_epoch = 0
        self.best = -np.inf if maximize else np.inf
        self.best_weights = None

    def on_train_begin(self, run_context):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = -np.inf if self.mode == "max" else np.inf
        self.best_weights = None

    def _value(self, cb_params):
        if self.monitor == "loss":
            return handle_loss(cb_params.get("net_outputs"))
        results = cb_params.get("eval_results") or {}
        if self.monitor in results:
            return float(results[self.monitor])
        if self.monitor.startswith("eval_") and self.monitor[5:] in results:
            return float(results[self.monitor[5:]])
        return None

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        current = self._value(cb_params)
        if current is None:
            results = cb_params.get("eval_results") or {}
            print(f"EarlyStopping is conditioned on {self.monitor!r}, which is not available. Available choices: "
                  f"{sorted({'loss', *results})}", flush=True)
            return
        self.wait += 1
        if self.monitor_op(current - self.min_delta, self.best):
            self.best = current
            if self.restore_best_weights:
                net = cb_params.train_network
                self.best_weights = {p.name: p.asnumpy().copy() for p in net.get_parameters()}
            if self.baseline is None or self.monitor_op(current, self.baseline):
                self.wait = 0
        if self.wait >= self.patience:
            self.stopped_epoch = cb_params.cur_epoch_num
            run_context.request_stop()
            if self.restore_best_weights and self.best_weights is not None:
                for p in cb_params.train_network.get_parameters():
                    if p.name in self.best_weights:
                        p.set_data(self.best_weights[p.name])

    def on_train_end(self, run_context):
        if self.stopped_epoch > 0 and self.verbose:
            print(f"Epoch {self.stopped_epoch:05d}: early stopping", flush=True)
