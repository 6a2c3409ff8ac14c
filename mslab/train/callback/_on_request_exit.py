"""``OnRequestExit``: on a signal (SIGTERM by default), save the training network when training ends.

What MindSpore 2.10 does on CPU (observed): building the callback creates ``<directory>/rank_0``; at
training begin it installs a handler for ``sig`` and, if ``<directory>/rank_0/<file_name>_train.ckpt``
exists, loads it into the training network (resuming). The handler only sets ``exit = True``: training
runs on to its end (stopping at the next step needs ``MS_ENABLE_GRACEFUL_EXIT=1`` and a ``graceful_exit``
parameter in the network, which MindSpore's parallel training adds; mslab has neither, so it never stops
early). At the end, if the signal came, it saves ``<file_name>_train.ckpt`` (the whole training
network: weights and optimizer state) and, with ``save_mindir``, exports ``<file_name>_train.mindir``
(in mslab the text graph ``export`` writes). Evaluation does the same with ``<file_name>_eval``.
"""
import os
import signal

from mslab.train.callback._callback import Callback
from mslab.train.serialization import export, load_checkpoint, save_checkpoint

__all__ = ["OnRequestExit"]


def _check_isinstance(name, value, kind):
    if not isinstance(value, kind):
        raise ValueError(f"The parameter '{name}' must be isinstance of {kind}, but got {value}.")
    return value


class OnRequestExit(Callback):
    """Save the training (or evaluation) network at the end if ``sig`` arrived during it."""

    def __init__(self, save_ckpt=True, save_mindir=True, file_name="Net", directory="./", config_file=None,
                 sig=signal.SIGTERM):
        super().__init__()
        self.save_ckpt = _check_isinstance("save_ckpt", save_ckpt, bool)
        self.save_mindir = _check_isinstance("save_mindir", save_mindir, bool)
        self.sig = _check_isinstance("sig", sig, int)
        if hasattr(signal, "SIGKILL") and self.sig == signal.SIGKILL:
            raise ValueError("Not support send exit request by signal SIGKILL.")
        self.exit = False
        self.save_path, self.remote_config_file = directory, config_file
        self.key = "GracefulExit"
        if self.save_ckpt or self.save_mindir:
            path = os.path.join(os.getcwd() if directory is None else directory, "rank_0")  # one process: rank 0
            os.makedirs(path, exist_ok=True)
            self.train_name = os.path.join(path, f"{file_name}_train")
            self.eval_name = os.path.join(path, f"{file_name}_eval")

    def _handle_signal(self, signum, frame):
        self.exit = True

    def on_train_begin(self, run_context):
        signal.signal(self.sig, self._handle_signal)
        if self.save_ckpt and os.path.isfile(f"{self.train_name}.ckpt"):
            load_checkpoint(f"{self.train_name}.ckpt", net=run_context.original_args().train_network)

    def on_train_end(self, run_context):
        if self.exit:
            cb_params = run_context.original_args()
            self._save(cb_params.train_network, self.train_name, cb_params.train_dataset_element)

    def on_eval_begin(self, run_context):
        signal.signal(self.sig, self._handle_signal)
        if not self.save_ckpt:
            return
        eval_net = run_context.original_args().eval_network
        for name in (self.eval_name, self.train_name):
            if os.path.isfile(f"{name}.ckpt"):
                load_checkpoint(f"{name}.ckpt", net=eval_net)
                return

    def on_eval_step_end(self, run_context):
        if self.exit:
            run_context.request_stop()

    def on_eval_end(self, run_context):
        if self.exit:
            cb_params = run_context.original_args()
            self._save(cb_params.eval_network, self.eval_name, getattr(cb_params, "eval_dataset_element", None))

    def _save(self, net, name, inputs):
        if self.save_ckpt:
            save_checkpoint(net, name)
        if self.save_mindir:
            export(net, *inputs, file_name=name, file_format="MINDIR")
