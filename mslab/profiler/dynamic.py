"""``DynamicProfilerMonitor``: profile a window of training steps chosen by editing a JSON file while training runs.

MindSpore 2.10 on CPU (observed): ``cfg_path`` is required (TypeError otherwise); the monitor writes
``<cfg_path>/profiler_config.json`` with ``start_step`` and ``stop_step`` -1 (no profiling) unless the
file exists, polls it every ``poll_interval`` seconds, and when a user sets, say, ``start_step: 2,
stop_step: 3``, times the operators of steps 2-3 into ``<output_path>/rank0_start2_stop3``. ``step()``
(or the callback hooks, when passed to ``Model.train``) marks the step boundaries.

mslab keeps the interface and the config file, so scripts and the file a learner edits behave the
same, but like mslab's :class:`~mslab.profiler.Profiler` it collects nothing and writes no timings
(it warns once). It does not poll: the file is read when ``step()`` reaches a new step.
"""
import json
import os
import warnings

from mslab.train.callback._callback import Callback

__all__ = ["DynamicProfilerMonitor"]

# MindSpore 2.10's default profiler_config.json (observed, in this key order)
DEFAULT_CONFIG = {
    "start_step": -1, "stop_step": -1, "aic_metrics": "AiCoreNone", "profiler_level": "Level0", "analyse_mode": -1,
    "activities": ["CPU", "NPU"], "export_type": ["text"], "profile_memory": False, "mstx": False,
    "parallel_strategy": False, "with_stack": False, "data_simplification": True, "l2_cache": False,
    "analyse": False, "record_shapes": False, "prof_path": "./", "mstx_domain_include": [],
    "mstx_domain_exclude": [], "host_sys": [], "sys_io": False, "sys_interconnection": False}


class DynamicProfilerMonitor(Callback):
    """Count steps and keep ``<cfg_path>/profiler_config.json``; no timings in mslab."""

    def __init__(self, cfg_path=None, output_path="./dyn_profile_data", poll_interval=2, **kwargs):
        if not isinstance(cfg_path, str):
            raise TypeError("If you set 'MSMONITOR_USE_DAEMON' to not 1, The cfg_path must be a string.")
        self.cfg_path, self.output_path, self.poll_interval = cfg_path, output_path, poll_interval
        self.config_file = os.path.join(cfg_path, "profiler_config.json")
        os.makedirs(cfg_path, exist_ok=True)
        if not os.path.exists(self.config_file):
            with open(self.config_file, "w", encoding="utf-8") as f:
                json.dump(DEFAULT_CONFIG, f, indent=4)
        print(f"[Dynamic Profiler] Init config json file: {os.path.realpath(self.config_file)}")
        self.step_num = 0
        warnings.warn("mslab's DynamicProfilerMonitor collects nothing and writes no timings (MindSpore's times the "
                      "steps profiler_config.json names); use mslab.record() or mslab.trace(net, x) to see what a "
                      "step runs", stacklevel=2)

    def config(self):
        """The current contents of ``profiler_config.json`` (a dict)."""
        with open(self.config_file, encoding="utf-8") as f:
            return json.load(f)

    def step(self):
        """Mark the end of a step (MindSpore would start or stop timing here); returns None."""
        self.step_num += 1

    def on_train_step_end(self, run_context):
        self.step()
