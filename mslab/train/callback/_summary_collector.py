"""``SummaryCollector``: a callback that records the loss and parameter histograms while ``Model.train`` runs.

MindSpore 2.10 (observed on CPU) writes, into ``summary_dir``: an event file ``..._MS`` with the scalar
``loss/auto`` and histograms ``<parameter>/auto`` of the optimizer's first five parameters, at step 1
and every ``collect_freq`` steps, plus the values of summary ops in the network; a ``..._lineage``
file (the model, loss, optimizer and dataset for MindInsight's lineage page); and ``ckpt_dir/`` with a
checkpoint per step and ``train_metadata.json`` for MindInsight's loss landscape.

mslab writes the first part only, through its :class:`~mslab.train.summary.SummaryRecord`: one JSON
line per recorded step (``{"step": 2, "scalar": {"loss/auto": 0.52}, "histogram": {"weight/auto": ...}}``),
readable with ``SummaryRecord.read``; MindInsight cannot read it. No lineage file, no graph, no
``ckpt_dir`` (use ``ModelCheckpoint`` for checkpoints).
"""
import os
import re

import numpy as np

from mslab.core.tensor import Tensor
from mslab.train.callback._callback import Callback
from mslab.train.summary import SummaryRecord

__all__ = ["SummaryCollector"]

# MindSpore's keys of collect_specified_data; mslab acts on collect_metric and histogram_regular
_SPECIFIED_KEYS = ("collect_metric", "collect_graph", "collect_train_lineage", "collect_eval_lineage",
                   "collect_input_data", "collect_dataset_graph", "histogram_regular", "collect_landscape")
_DEFAULT_HISTOGRAMS = 5  # MindSpore records the first five parameters when histogram_regular is None
_TENSOR_LIMIT = 20       # at most this many steps record TensorSummary values (MindSpore's default)


class SummaryCollector(Callback):
    """Record ``loss/auto`` and parameter histograms at step 1 and every ``collect_freq`` steps of training."""

    def __init__(self, summary_dir, collect_freq=10, num_process=32, collect_specified_data=None,
                 keep_default_action=True, custom_lineage_data=None, collect_tensor_freq=None,
                 max_file_size=None, export_options=None):
        if not isinstance(summary_dir, str) or not summary_dir.strip():
            raise ValueError(f"For 'SummaryCollector', the 'summary_dir' must be a non-empty str, "
                             f"but got {summary_dir!r}.")
        for name, value in (("collect_freq", collect_freq), ("collect_tensor_freq", collect_tensor_freq)):
            if value is None and name == "collect_tensor_freq":
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For `{name}` the type should be a valid type of ['int'], but got "
                                f"{type(value).__name__}.")
            if value <= 0:
                raise ValueError(f'For "SummaryCollector", the value of `{name}` should be greater than 0, '
                                 f'but got `{value}`.')
        specified = dict(collect_specified_data or {})
        unknown = set(specified) - set(_SPECIFIED_KEYS)
        if unknown:
            raise ValueError(f'For "SummaryCollector", the keys {unknown} of `collect_specified_data` are '
                             f'unsupported, expect the follow keys: {list(_SPECIFIED_KEYS)}')
        if keep_default_action or not specified:
            specified = {"collect_metric": True, "histogram_regular": None, **specified}
        self._specified = specified
        self._summary_dir = os.path.realpath(summary_dir)
        self._collect_freq, self._collect_tensor_freq = collect_freq, collect_tensor_freq
        self._max_file_size, self._export_options = max_file_size, export_options
        self._record = None
        self._tensor_range = None

    def __enter__(self):
        self._open()
        return self

    def __exit__(self, *err):
        self._close()

    def _open(self):
        if self._record is None:
            self._record = SummaryRecord(self._summary_dir, max_file_size=self._max_file_size,
                                         export_options=self._export_options)

    def _close(self):
        if self._record is not None:
            self._record.close()
            self._record = None

    def begin(self, run_context):
        self._open()
        self._tensor_range = None

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        if cb_params.mode != "train":
            return
        if self._tensor_range is None:  # the first step records everything (as MindSpore)
            self._tensor_range = self._tensor_steps(cb_params)
            self._collect(cb_params, None)
        else:
            self._collect_due(cb_params)

    def epoch_end(self, run_context):
        """MindSpore checks again at each epoch's end, so a step due then is recorded a second time (observed)."""
        self._collect_due(run_context.original_args())

    def _collect_due(self, cb_params):
        step = cb_params.cur_epoch_num if cb_params.dataset_sink_mode else cb_params.cur_step_num
        if step % self._collect_freq == 0 and step in self._tensor_range:
            self._collect(cb_params, None)
        elif step in self._tensor_range:
            self._collect(cb_params, lambda plugin: plugin == "tensor")
        elif step % self._collect_freq == 0:
            self._collect(cb_params, lambda plugin: plugin != "tensor")

    def end(self, run_context):
        self._close()

    def _tensor_steps(self, cb_params):
        """The steps whose TensorSummary values are kept (MindSpore's rule: at most about 20 of them)."""
        total = cb_params.epoch_num * (1 if cb_params.dataset_sink_mode else cb_params.batch_num)
        if self._collect_tensor_freq is not None:
            return range(0, total + 1, self._collect_tensor_freq)
        if len(range(0, total + 1, self._collect_freq)) > _TENSOR_LIMIT:
            freq = total // (_TENSOR_LIMIT - 1)
            return range(0, total + 1, freq)[:_TENSOR_LIMIT] if freq > 1 else range(0, total + 1)[:_TENSOR_LIMIT + 1]
        return range(0, total + 1, self._collect_freq)

    def _collect(self, cb_params, plugin_filter):
        if self._specified.get("collect_metric"):
            loss = _loss_of(cb_params.net_outputs)
            if loss is not None:
                self._record.add_value("scalar", "loss/auto", loss)
        if "histogram_regular" in self._specified and cb_params.optimizer is not None:
            regular = self._specified["histogram_regular"]
            params = list(cb_params.optimizer.parameters)
            chosen = params[:_DEFAULT_HISTOGRAMS] if regular is None else \
                [p for p in params if re.match(regular, p.name)]
            for p in chosen:
                self._record.add_value("histogram", p.name + "/auto", Tensor(p.asnumpy()))
        self._record.record(cb_params.cur_step_num, plugin_filter=plugin_filter)


def _loss_of(outputs):
    """The loss among a step's outputs: a one-element Tensor, or the first item of a tuple (MindSpore's rule)."""
    if isinstance(outputs, (tuple, list)) and outputs:
        outputs = outputs[0]
    if isinstance(outputs, Tensor) and np.asarray(outputs.asnumpy()).size == 1:
        return outputs
    return None
