"""``mindspore.profiler``'s newer interface: ``profile``, ``schedule``, ``tensorboard_trace_handler``, the
option enums and ``mstx`` markers. As ``mslab.Profiler``: accepted, and nothing is collected or written.

``schedule`` is real arithmetic (which steps a profiler would wait, warm up, record), MindSpore 2.10's:
``schedule(wait=1, warmup=1, active=2, repeat=1)`` gives NONE, WARM_UP, RECORD, RECORD_AND_SAVE, then
NONE for steps 0..5 (observed on CPU).
"""
import enum

__all__ = ["ProfilerAction", "ProfilerActivity", "ProfilerLevel", "AicoreMetrics", "schedule",
           "tensorboard_trace_handler", "mstx", "_ExperimentalConfig"]


class ProfilerAction(enum.Enum):
    NONE = 0
    WARM_UP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


class ProfilerActivity(enum.Enum):
    NPU = "NPU"
    GPU = "GPU"
    CPU = "CPU"


class ProfilerLevel(enum.Enum):
    LevelNone = "LevelNone"
    Level0 = "Level0"
    Level1 = "Level1"
    Level2 = "Level2"


class AicoreMetrics(enum.Enum):
    PipeUtilization = "PipeUtilization"
    ArithmeticUtilization = "ArithmeticUtilization"
    Memory = "Memory"
    MemoryL0 = "MemoryL0"
    MemoryUB = "MemoryUB"
    ResourceConflictRatio = "ResourceConflictRatio"
    L2Cache = "L2Cache"
    MemoryAccess = "MemoryAccess"
    AiCoreNone = "None"


class schedule:  # noqa: N801 -- MindSpore's name
    """Which profiling action step ``n`` gets: skip ``skip_first``, then cycles of wait, warmup, active."""

    def __init__(self, *, wait, active, warmup=0, repeat=0, skip_first=0):
        self.wait, self.active, self.warmup, self.repeat, self.skip_first = wait, active, warmup, repeat, skip_first

    def __call__(self, step):
        if step < 0:
            raise ValueError("Invalid parameter step, which must be not less than 0.")
        if step < self.skip_first:
            return ProfilerAction.NONE
        step -= self.skip_first
        num_steps = self.wait + self.warmup + self.active
        if 0 < self.repeat <= step / num_steps:
            return ProfilerAction.NONE
        mod_step = step % num_steps
        if mod_step < self.wait:
            return ProfilerAction.NONE
        if mod_step < self.wait + self.warmup:
            return ProfilerAction.WARM_UP
        return ProfilerAction.RECORD if mod_step < num_steps - 1 else ProfilerAction.RECORD_AND_SAVE

    def __repr__(self):
        return (f"Schedule(wait={self.wait!r}, active={self.active!r}, warmup={self.warmup!r}, "
                f"repeat={self.repeat!r}, skip_first={self.skip_first!r})")


def tensorboard_trace_handler(dir_name=None, worker_name=None, analyse_flag=True, async_mode=False):
    """The callback that would write a finished trace to ``dir_name``; mslab has no trace, so it does nothing."""
    def handler(prof=None):
        return None

    return handler


class mstx:  # noqa: N801 -- MindSpore's name
    """Named markers and ranges in a device trace; mslab has no trace (range_start returns 0, as on CPU)."""

    @staticmethod
    def mark(message, stream=None, domain="default"):
        return None

    @staticmethod
    def range_start(message, stream=None, domain="default"):
        return 0

    @staticmethod
    def range_end(range_id, domain="default"):
        return None


class _ExperimentalConfig:
    """Extra profiler options (level, AI Core metrics, ...): kept, unused."""

    def __init__(self, profiler_level=ProfilerLevel.Level0, aic_metrics=AicoreMetrics.AiCoreNone, **kwargs):
        self.profiler_level, self.aic_metrics, self.options = profiler_level, aic_metrics, kwargs
