"""``mindspore.common.initializer``: initializer() and the Initializer classes (from ``mslab.core``)."""
from mslab.core import missing_names as _missing_names
from mslab.core.initializer import *
from mslab.core.tensor import initializer

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
