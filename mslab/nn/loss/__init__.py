"""Losses, as ``mindspore.nn.loss``."""
from mslab.core import missing_names as _missing_names
from mslab.nn.loss.loss import *
from mslab.nn.loss.loss import __all__

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
