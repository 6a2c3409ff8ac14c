"""``mindspore.context`` (the 1.x path): set_context, get_context, the modes (defined in ``mslab.core.context``)."""
from mslab.core.context import *
