"""``mindspore.Profiler`` (``mindspore.profiler.Profiler``, ``profile``): in mslab it collects nothing.

MindSpore 2.10's Profiler on CPU (observed) times every operator between ``start()`` and ``stop()``
and ``analyse()`` writes the timings under ``output_path`` (a ``*_ascend_ms`` folder with
``trace_view.json`` and CSV files); it also logs that ``mindspore.Profiler`` will be deprecated in
favour of ``mindspore.profiler.profile``. mslab does not profile: it accepts the same arguments and
calls so training scripts run, writes no files, and warns once when one is made. To see what a step
runs use ``mslab.record()`` (PYNATIVE) or ``mslab.trace(net, x)`` (GRAPH); to time it, ``time.perf_counter``.
"""
import warnings

from mslab.core import missing_names as _missing_names
from mslab.profiler.dynamic import DynamicProfilerMonitor
from mslab.profiler.schedule import (
    AicoreMetrics,
    ProfilerAction,
    ProfilerActivity,
    ProfilerLevel,
    _ExperimentalConfig,
    mstx,
    schedule,
    tensorboard_trace_handler,
)

__all__ = ["Profiler", "profile", "DynamicProfilerMonitor", "schedule", "tensorboard_trace_handler", "mstx",
           "ProfilerAction", "ProfilerActivity", "ProfilerLevel", "AicoreMetrics"]


class Profiler:
    """MindSpore's profiler interface; every method does nothing in mslab (no timings, no files)."""

    def __init__(self, **kwargs):
        self.output_path = kwargs.get("output_path", "./data")
        self.step_num = 0
        warnings.warn("mslab's Profiler collects nothing and writes no files (MindSpore's writes operator timings); "
                      "use mslab.record() or mslab.trace(net, x) to see the operators a step runs", stacklevel=2)

    def start(self):
        """Start collecting (nothing in mslab)."""

    def stop(self):
        """Stop collecting (nothing in mslab)."""

    def step(self):
        """Mark the end of a training step (counted, nothing else)."""
        self.step_num += 1

    def analyse(self, offline_path=None, pretty=False, step_list=None, mode="sync"):
        """Write the collected timings (mslab collected none, so it writes nothing)."""

    def op_analyse(self, op_name, device_id=None):
        """Per-operator details (mslab has none: an empty dict)."""
        return {}

    def add_metadata(self, key, value):
        """Metadata for the trace (dropped: mslab writes no trace)."""

    def add_metadata_json(self, key, value):
        """Metadata for the trace (dropped: mslab writes no trace)."""

    @classmethod
    def offline_analyse(cls, path, pretty=False, step_list=None, data_simplification=True):
        """Analyse a folder written earlier (mslab never writes one: nothing to do)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.stop()


class profile(Profiler):  # noqa: N801 -- MindSpore's name
    """``mindspore.profiler.profile(activities=..., schedule=..., on_trace_ready=...)``: as Profiler."""

    def __init__(self, activities=None, schedule=None, on_trace_ready=None, **kwargs):
        super().__init__(**kwargs)
        self.activities, self.schedule, self.on_trace_ready = activities, schedule, on_trace_ready


__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
