"""The 1.x import path ``mindspore.nn.metrics``: the metrics live in ``mslab.train.metrics``."""
from mslab.core import missing_names as _missing_names
from mslab.train.metrics import *  # noqa: F403
from mslab.train.metrics import __all__, get_metric_fn, get_metrics, names  # noqa: F401

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
