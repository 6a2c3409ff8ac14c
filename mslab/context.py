"""``mindspore.context`` (the 1.x path): set_context, get_context, the modes (defined in ``mslab.core.context``)."""
from mslab.core import missing_names as _missing_names
from mslab.core.context import *
from mslab.parallel.ps_context import get_ps_context, reset_ps_context, set_ps_context

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
