"""Losses, as ``mindspore.nn.loss``."""
from mslab.nn.loss.loss import *
from mslab.nn.loss.loss import __all__
