"""The 1.x import path ``mindspore.nn.metrics``: the metrics live in ``mslab.train.metrics``."""
from mslab.train.metrics import *  # noqa: F403
from mslab.train.metrics import __all__, get_metric_fn, get_metrics, names  # noqa: F401
