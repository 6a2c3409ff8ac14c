"""CheckpointConfig and ModelCheckpoint: save ``prefix-<epoch>_<step_in_epoch>.ckpt`` during training.

``ModelCheckpoint(prefix="CKP", directory=None, config=CheckpointConfig(save_checkpoint_steps=1,
keep_checkpoint_max=5))`` saves the training network (weights and optimizer state) with
``mslab.train.serialization.save_checkpoint`` every ``save_checkpoint_steps`` steps (or every
``save_checkpoint_seconds``), once more at the end of training, and deletes the oldest files beyond
``keep_checkpoint_max``, only once the new file is safely in place (MindSpore deletes first, so a
failed save or a killed process can leave no checkpoint at all). If the directory already holds
files with the same prefix, the prefix becomes ``prefix_1`` (then ``prefix_2`` ...), as MindSpore does,
so earlier runs are not overwritten.

At the first training step it also writes ``<prefix>-graph.meta`` beside the checkpoints, once per callback, as
MindSpore does: in GRAPH mode the compiled training graph, as mslab's IR text (MindSpore writes a binary
GraphProto; see ``mslab.train.serialization._save_graph``), readable with ``print(open(path).read())``.
In PYNATIVE mode there is no graph and no such file, as in MindSpore.
"""
import os
import time

from mslab.train.callback._callback import Callback
from mslab.train.callback._loss_monitor import step_in_epoch
from mslab.train.serialization import _save_graph, save_checkpoint


def _non_negative_int(owner, name, value, allow_none=True):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{owner}: {name} must be an int >= 0, got {value!r}")
    return value


class CheckpointConfig:
    """When to save and how many files to keep (``mindspore.train.CheckpointConfig``).

    ``save_checkpoint_steps`` wins over ``save_checkpoint_seconds``; ``keep_checkpoint_max`` wins over
    ``keep_checkpoint_per_n_minutes``. ``saved_network`` saves that Cell instead of the training network;
    ``append_info`` adds ``'epoch_num'``/``'step_num'`` or a dict of extra values to every file.
    """

    def __init__(self, save_checkpoint_steps=1, save_checkpoint_seconds=0, keep_checkpoint_max=5,
                 keep_checkpoint_per_n_minutes=0, integrated_save=True, async_save=False, saved_network=None,
                 append_info=None, enc_key=None, enc_mode="AES-GCM", exception_save=False, **kwargs):
        owner = "CheckpointConfig"
        steps = _non_negative_int(owner, "save_checkpoint_steps", save_checkpoint_steps)
        seconds = _non_negative_int(owner, "save_checkpoint_seconds", save_checkpoint_seconds)
        keep_max = _non_negative_int(owner, "keep_checkpoint_max", keep_checkpoint_max)
        per_n = _non_negative_int(owner, "keep_checkpoint_per_n_minutes", keep_checkpoint_per_n_minutes)
        if not steps and not seconds and not keep_max and not per_n:
            raise ValueError("CheckpointConfig: save_checkpoint_steps, save_checkpoint_seconds, keep_checkpoint_max "
                             "and keep_checkpoint_per_n_minutes cannot all be 0 or None")
        if steps:
            seconds = None
        if keep_max:
            per_n = None
        elif not per_n:
            keep_max = 1
        if enc_key is not None:
            raise NotImplementedError("CheckpointConfig: encrypted checkpoints (enc_key) are not supported by mslab")
        self._save_checkpoint_steps = steps
        self._save_checkpoint_seconds = seconds
        self._keep_checkpoint_max = keep_max
        self._keep_checkpoint_per_n_minutes = per_n
        self._integrated_save = integrated_save
        self._async_save = async_save
        self._saved_network = saved_network
        self._append_info = append_info
        self._exception_save = exception_save

    save_checkpoint_steps = property(lambda self: self._save_checkpoint_steps)
    save_checkpoint_seconds = property(lambda self: self._save_checkpoint_seconds)
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max)
    keep_checkpoint_per_n_minutes = property(lambda self: self._keep_checkpoint_per_n_minutes)
    integrated_save = property(lambda self: self._integrated_save)
    async_save = property(lambda self: self._async_save)
    saved_network = property(lambda self: self._saved_network)
    append_info = property(lambda self: self._append_info)

    def get_checkpoint_policy(self):
        """The save/keep settings as a dict."""
        return {"save_checkpoint_steps": self._save_checkpoint_steps,
                "save_checkpoint_seconds": self._save_checkpoint_seconds,
                "keep_checkpoint_max": self._keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes": self._keep_checkpoint_per_n_minutes}

    def __repr__(self):
        inner = ", ".join(f"{k}={v}" for k, v in self.get_checkpoint_policy().items())
        return f"CheckpointConfig({inner})"


def _prefix_free_of_clashes(directory, prefix):
    """``prefix``, or ``prefix_<n>`` when ``directory`` already holds checkpoints named ``prefix-...`` or
    ``prefix_<k>-...`` (n = the largest such k + 1), as MindSpore's ModelCheckpoint does."""
    if not os.path.isdir(directory):
        return prefix
    suffix = 0
    n = len(prefix)
    for filename in os.listdir(directory):
        if not filename.endswith(".ckpt") or not filename.startswith(prefix) or len(filename) <= n:
            continue
        if filename[n].isalpha():
            continue
        index = filename[n:].find("-")
        if index == 0:
            suffix = max(suffix, 1)
        elif index > 0:
            num = filename[n + 1:n + index]
            if num.isdigit():
                suffix = max(suffix, int(num) + 1)
    return prefix if suffix == 0 else f"{prefix}_{suffix}"


class ModelCheckpoint(Callback):
    """Save checkpoints while training: ``<directory>/<prefix>-<epoch>_<step_in_epoch>.ckpt``."""

    def __init__(self, prefix="CKP", directory=None, config=None):
        super().__init__()
        if not isinstance(prefix, str) or not prefix or "/" in prefix or os.sep in prefix:
            raise ValueError(f"ModelCheckpoint: prefix must be a non-empty file-name prefix, got {prefix!r}")
        if config is None:
            config = CheckpointConfig()
        if not isinstance(config, CheckpointConfig):
            raise TypeError(f"ModelCheckpoint: config must be a CheckpointConfig, got {type(config).__name__}")
        self._directory = os.path.abspath(directory) if directory is not None else os.path.abspath(".")
        if directory is not None:  # MindSpore creates the directory here, before any training
            try:
                os.makedirs(self._directory, exist_ok=True)
            except OSError as e:
                raise ValueError(f"ModelCheckpoint: cannot create the directory {self._directory!r}: "
                                 f"{e.strerror or e}") from None
        self._base_prefix = prefix
        self._prefix = prefix
        self._config = config
        self._last_triggered_step = 0
        self._last_time = time.time()
        self._last_time_for_keep = time.time()
        self._files = []  # checkpoints written by this callback, oldest first
        self._latest_ckpt_file_name = ""
        self._prefix_checked = False
        self._graph_saved = False

    @property
    def latest_ckpt_file_name(self):
        """The path of the last checkpoint written."""
        return self._latest_ckpt_file_name

    @property
    def directory(self):
        return self._directory

    @property
    def prefix(self):
        """The prefix in use (``CKP_1`` when ``CKP`` files were already there)."""
        return self._prefix

    def on_train_begin(self, run_context):
        self._last_triggered_step = 0
        self._last_time = time.time()
        self._check_prefix()

    def _check_prefix(self):
        if not self._prefix_checked:
            self._prefix = _prefix_free_of_clashes(self._directory, self._base_prefix)
            self._prefix_checked = True

    def on_train_step_end(self, run_context):
        cb_params = run_context.original_args()
        if not self._graph_saved:  # once, at the first step, whether or not a checkpoint is due (as MindSpore)
            self._check_prefix()
            _save_graph(cb_params.train_network, os.path.join(self._directory, f"{self._prefix}-graph.meta"))
            self._graph_saved = True
        self._save_ckpt(cb_params, force=False)

    def on_train_end(self, run_context):
        self._save_ckpt(run_context.original_args(), force=True)

    def _due(self, cb_params, force):
        steps, seconds = self._config.save_checkpoint_steps, self._config.save_checkpoint_seconds
        if steps:
            return force or cb_params.cur_step_num >= self._last_triggered_step + steps
        if seconds:
            now = time.time()
            if force or now - self._last_time > seconds:
                self._last_time = now
                return True
        return force

    def _save_ckpt(self, cb_params, force):
        if cb_params.cur_step_num == self._last_triggered_step or not self._due(cb_params, force):
            return
        self._check_prefix()
        name = f"{self._prefix}-{cb_params.cur_epoch_num}_{step_in_epoch(cb_params)}.ckpt"
        network = self._config.saved_network if self._config.saved_network is not None else cb_params.train_network
        path = os.path.join(self._directory, name)
        save_checkpoint(network, path, append_dict=self._append(cb_params))
        self._last_triggered_step = cb_params.cur_step_num
        if path in self._files:
            self._files.remove(path)
        self._files.append(path)
        self._latest_ckpt_file_name = path
        self._prune_after_save()

    def _prune_after_save(self):
        """Delete old files beyond the policy; runs after the new file is in place, so one always remains."""
        self._files = [f for f in self._files if os.path.exists(f)]
        keep_max = self._config.keep_checkpoint_max
        doomed = []
        if keep_max:
            while len(self._files) > keep_max:
                doomed.append(self._files.pop(0))
        elif self._config.keep_checkpoint_per_n_minutes and len(self._files) > 1:
            # keep one file per n minutes: drop the previous file if it was written since the last kept one
            now = time.time()
            if now - self._last_time_for_keep < self._config.keep_checkpoint_per_n_minutes * 60:
                doomed.append(self._files.pop(-2))
            else:
                self._last_time_for_keep = now
        for path in doomed:
            try:
                os.remove(path)
            except FileNotFoundError:
                pass

    def _append(self, cb_params):
        info = self._config.append_info
        if not info:
            return None
        out = {}
        for item in info:
            if item == "epoch_num":
                out["epoch_num"] = cb_params.cur_epoch_num
            elif item == "step_num":
                out["step_num"] = cb_params.cur_step_num
            elif isinstance(item, dict):
                out.update(item)
            else:
                raise ValueError(f"CheckpointConfig.append_info: items must be 'epoch_num', 'step_num' or a dict, "
                                 f"got {item!r}")
        return out
