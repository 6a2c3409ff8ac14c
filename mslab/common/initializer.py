"""``mindspore.common.initializer``: initializer() and the Initializer classes (from ``mslab.core``)."""
from mslab.core.initializer import *
from mslab.core.tensor import initializer
