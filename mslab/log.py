"""``mindspore.log``: MindSpore's logger, ``mslab.log.warning("...")`` (defined in ``mslab.core.log``)."""
from mslab.core import missing_names as _missing_names
from mslab.core.log import *
from mslab.core.log import logging  # MindSpore's mindspore.log exposes Python's logging module too

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
