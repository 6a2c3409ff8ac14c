"""``mindspore.log``: MindSpore's logger, ``mslab.log.warning("...")`` (defined in ``mslab.core.log``)."""
from mslab.core import missing_names as _missing_names
from mslab.core.log import *

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
