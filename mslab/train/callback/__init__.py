"""Callbacks, as ``mindspore.train.callback`` (1.x path) and ``mindspore.train`` (2.x).

``Callback`` (override ``on_train_step_end`` etc., or the 1.x ``step_end``), ``RunContext``,
``LossMonitor``, ``TimeMonitor``, ``ModelCheckpoint`` with ``CheckpointConfig``,
``LearningRateScheduler``, ``EarlyStopping``, ``History``, and mslab's ``ProgressBar``.
"""
from mslab.core import missing_names as _missing_names
from mslab.train.callback._callback import (
    Callback,
    CallbackManager,
    CallbackParams,
    RunContext,
    _CallbackManager,
    _InternalCallbackParam,
)
from mslab.train.callback._checkpoint import CheckpointConfig, ModelCheckpoint
from mslab.train.callback._early_stop import EarlyStopping
from mslab.train.callback._history import History
from mslab.train.callback._loss_monitor import LossMonitor
from mslab.train.callback._lr_scheduler_callback import LearningRateScheduler
from mslab.train.callback._on_request_exit import OnRequestExit
from mslab.train.callback._progress import ProgressBar
from mslab.train.callback._summary_collector import SummaryCollector
from mslab.train.callback._time_monitor import TimeMonitor

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

__all__ = [
    "Callback", "RunContext", "LossMonitor", "TimeMonitor", "ModelCheckpoint", "CheckpointConfig",
    "LearningRateScheduler", "EarlyStopping", "History", "ProgressBar", "CallbackParams",
    "SummaryCollector", "OnRequestExit",
]
