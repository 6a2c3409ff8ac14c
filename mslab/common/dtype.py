"""``mindspore.common.dtype`` (``mstype``): the dtypes (defined in ``mslab.core.dtype``)."""
from mslab.core.dtype import *
