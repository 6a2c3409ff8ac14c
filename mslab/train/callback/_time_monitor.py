"""TimeMonitor: print how long each epoch took and the time per step."""
import time

from mslab.train.callback._callback import Callback


class TimeMonitor(Callback):
    """Print ``Train epoch time: 12.345 ms, per step time: 2.057 ms`` after every epoch.

    The per-step time divides by ``data_size`` if given, else by ``batch_num`` (the steps of an epoch;
    ``sink_size`` in sink mode). Timings vary from run to run: notebooks mark such cells NBVAL_IGNORE_OUTPUT.
    """

    def __init__(self, data_size=None, data_time=False):
        super().__init__()
        if data_size is not None and (isinstance(data_size, bool) or not isinstance(data_size, int) or data_size <= 0):
            raise ValueError(f"TimeMonitor: data_size must be a positive int or None, got {data_size!r}")
        self.data_size = data_size
        self.data_time = data_time
        self.epoch_time = time.time()
        self.last_epoch_ms = None
        self.last_step_ms = None

    def on_train_epoch_begin(self, run_context):
        self.epoch_time = time.time()

    def on_train_epoch_end(self, run_context):
        epoch_ms = (time.time() - self.epoch_time) * 1000
        cb_params = run_context.original_args()
        step_size = self.data_size
        batch_num = cb_params.get("batch_num")
        if isinstance(batch_num, int) and batch_num > 0:
            step_size = batch_num
        if not step_size:
            raise ValueError("TimeMonitor: give data_size (the steps in an epoch): cb_params has no batch_num")
        self.last_epoch_ms, self.last_step_ms = epoch_ms, epoch_ms / step_size
        mode = cb_params.get("mode", "") or ""
        print(f"{mode.title()} epoch time: {epoch_ms:5.3f} ms, per step time: {self.last_step_ms:5.3f} ms", flush=True)
