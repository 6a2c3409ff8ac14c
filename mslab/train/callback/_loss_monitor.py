"""LossMonitor: print the loss (``epoch: 1 step: 2, loss is 1.84494149684906``) and stop on NaN/Inf."""
import math

from mslab.train.callback._callback import Callback, handle_loss


def step_in_epoch(cb_params):
    """The step number within the current epoch, 1-based: ``(cur_step_num - 1) % batch_num + 1``.

    In sink mode ``batch_num`` is ``sink_size`` (or the dataset size), so the one call per sink shows
    the last step of the sink, e.g. ``step: 1000``.
    """
    batch_num = cb_params.get("batch_num") or 1
    return (cb_params.cur_step_num - 1) % batch_num + 1


class LossMonitor(Callback):
    """Print the loss every ``per_print_times`` steps (0: never); raise ValueError on a NaN or Inf loss.

    The loss printed is ``float(mean(net_outputs))`` (the first output when the network returns a tuple),
    after the step within the epoch: ``epoch: 1 step: 2, loss is 1.84494149684906``. In dataset sink mode
    it is called once per sink, with the loss of the sink's last step.
    """

    def __init__(self, per_print_times=1):
        super().__init__()
        if isinstance(per_print_times, bool) or not isinstance(per_print_times, int) or per_print_times < 0:
            raise ValueError(f"LossMonitor: per_print_times must be an int >= 0, got {per_print_times!r}")
        self._per_print_times = per_print_times
        self._last_print_time = 0

    def on_train_step_end(self, run_context):
        cb_params = run_context.original_args()
        loss = handle_loss(cb_params.net_outputs)
        cur_step_in_epoch = step_in_epoch(cb_params)
        if loss is not None and (math.isnan(loss) or math.isinf(loss)):
            raise ValueError(f"epoch: {cb_params.cur_epoch_num} step: {cur_step_in_epoch}. Invalid loss {loss}, "
                             f"terminating training.")
        # A second train() restarts cur_step_num at 1: move the last print back so printing resumes.
        if self._per_print_times != 0 and cb_params.cur_step_num <= self._last_print_time:
            back = max(self._per_print_times, cb_params.batch_num if cb_params.get("dataset_sink_mode") else 1)
            while cb_params.cur_step_num <= self._last_print_time:
                self._last_print_time -= back
        if self._per_print_times != 0 and cb_params.cur_step_num - self._last_print_time >= self._per_print_times:
            self._last_print_time = cb_params.cur_step_num
            print(f"epoch: {cb_params.cur_epoch_num} step: {cur_step_in_epoch}, loss is {loss}", flush=True)

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        metrics = cb_params.get("metrics")
        if metrics:
            print(f"Eval result: epoch {cb_params.cur_epoch_num}, metrics: {metrics}", flush=True)
