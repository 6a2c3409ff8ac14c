"""``mindspore.common.dtype`` (``mstype``): the dtypes (defined in ``mslab.core.dtype``)."""
from mslab.core import missing_names as _missing_names
from mslab.core.dtype import *

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
