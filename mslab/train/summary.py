"""``mindspore.SummaryRecord``: collect scalars, images, histograms and tensors per training step.

MindSpore 2.10 (on CPU too, observed) writes them into ``log_dir`` as an event file named
``events.out.events.summary.<seconds>.<host>_MS`` in MindInsight's protobuf format, for MindInsight
to plot. mslab keeps MindSpore's interface and checks (``add_value`` then ``record(step)``, used as a
context manager) and writes the same file name, but as JSON lines: one object per ``record`` call,
``{"step": 3, "scalar": {"loss": 0.25}, "histogram": {...}}`` with values as nested lists, which a
learner can read back with ``json`` (``SummaryRecord.read(path)``). MindInsight cannot read it.
Values come from ``add_value`` and from the summary ops run since the last ``record``
(``ops.ScalarSummary()("loss", loss)`` inside ``construct``, both modes; mslab.ops.summary_ops).
"""
import json
import os
import time

import numpy as np

from mslab.core import log, summary_pool
from mslab.core.tensor import Tensor
from mslab.nn.cell import Cell

__all__ = ["SummaryRecord"]

_TENSOR_PLUGINS = ("tensor", "scalar", "image", "histogram")
_PLUGINS = "[tensor, scalar, image, histogram, train_lineage, eval_lineage, dataset_graph, custom_lineage_data, " \
           "graph, landscape]"


class SummaryRecord:
    """Write the values added with ``add_value`` to ``log_dir`` at each ``record(step)``."""

    def __init__(self, log_dir, file_prefix="events", file_suffix="_MS", num_process=32, network=None,
                 max_file_size=None, raise_exception=False, export_options=None):
        if not isinstance(log_dir, str) or not log_dir.strip():
            raise ValueError(f"For 'SummaryRecord', the 'log_dir' must be a non-empty str, but got {log_dir!r}.")
        self.log_dir = os.path.realpath(log_dir)
        os.makedirs(self.log_dir, exist_ok=True)
        self.file_prefix, self.file_suffix, self.network = file_prefix, file_suffix, network
        import platform  # only here: importing it costs more than the rest of this module

        name = f"{file_prefix}.out.events.summary.{int(time.time())}.{platform.node()}{file_suffix}"
        self.file_info = {"file_name": name, "file_path": os.path.join(self.log_dir, name)}
        self._pool = {p: {} for p in _TENSOR_PLUGINS}
        self._closed = False
        open(self.file_info["file_path"], "a", encoding="utf-8").close()  # the file exists from the start

    def __enter__(self):
        if self._closed:
            raise ValueError("For \"SummaryRecord\", SummaryRecord has been closed, please check if close() method "
                             "is called.")
        return self

    def __exit__(self, *exc_info):
        self.close()

    def set_mode(self, mode):
        if mode not in ("train", "eval"):
            raise ValueError(f"For 'set_mode', the argument 'mode' should be 'train' or 'eval', but got {mode}.")

    def add_value(self, plugin, name, value):
        """Keep ``value`` (a Tensor) under ``name`` for the next ``record``; plugin: tensor/scalar/image/histogram."""
        if plugin not in _TENSOR_PLUGINS:
            raise ValueError(f"For \"SummaryRecord.add_value\", no such \"plugin\" of {plugin!r} , expect value is one "
                             f"of {_PLUGINS} (mslab records the first four)")
        if not name or not isinstance(name, str):
            raise ValueError(f"For \"SummaryRecord\", the parameter \"name\" type should be str, but got {type(name)}.")
        if not isinstance(value, Tensor):
            raise TypeError(f"For \"SummaryRecord\", the parameter \"value\" expect to be Tensor, but got "
                            f"{type(value).__name__}")
        array = value.asnumpy()
        if plugin == "scalar" and array.size != 1:
            raise ValueError(f"For \"SummaryRecord.add_value\", the scalar {name!r} must hold one value, got shape "
                             f"{array.shape}.")
        self._pool[plugin][name] = array.item() if plugin == "scalar" else np.asarray(array).tolist()

    def record(self, step, train_network=None, plugin_filter=None):
        """Append the values added since the last record, as one JSON line for ``step``; True when written."""
        if isinstance(step, bool) or not isinstance(step, int):
            raise TypeError(f"The type of 'step' should be 'int', but got type '{type(step).__name__}'.")
        if train_network is not None and not isinstance(train_network, Cell):
            raise TypeError("The type of 'train_network' should be 'Cell' or 'None', but got type "
                            f"'{type(train_network).__name__}'.")
        if self._closed:
            log.error("For 'SummaryRecord', The record writer is closed, please check if close() method is called")
            return False
        for op_name, tag, value in summary_pool.take():
            self._add_from_op(op_name, tag, value)
        entry = {"step": step}
        for plugin, values in self._pool.items():
            if values and (plugin_filter is None or plugin_filter(plugin)):
                entry[plugin] = values
        self._pool = {p: {} for p in _TENSOR_PLUGINS}
        with open(self.file_info["file_path"], "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")
        return True

    def _add_from_op(self, op_name, tag, value):
        """A value a summary op kept, checked as MindSpore 2.10 checks it at ``record`` (messages observed)."""
        plugin = op_name.split("Summary")[0].lower()
        if not isinstance(tag, str) or not tag:
            raise TypeError(f'For "{op_name}", the name must be valid string, but got "{tag}".')
        if not isinstance(value, Tensor):
            raise TypeError(f'For "{op_name}", the parameter "value" expect to be Tensor, '
                            f'but got {type(value).__name__}')
        array = value.asnumpy()
        if plugin == "scalar" and array.size != 1:
            raise ValueError(f'For "{op_name}", the v rank must be less than or equal to 1, but got {len(array)}.')
        if plugin == "image" and array.ndim != 4:
            raise ValueError(f'For "{op_name}", the tensor seems not to hold a valid image.')
        if plugin in ("tensor", "histogram") and array.ndim == 0:
            raise ValueError(f'For "{op_name}", the value should not be empty.')
        self._pool[plugin][tag] = array.item() if plugin == "scalar" else array.tolist()

    def flush(self):
        """Nothing buffered: each ``record`` is written when called."""

    def close(self):
        """Stop recording; later ``record`` calls return False."""
        self._closed = True

    @staticmethod
    def read(path):
        """The records of an mslab summary file, a list of dicts (mslab only)."""
        with open(path, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]
