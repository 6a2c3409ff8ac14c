"""Optimizers and learning-rate schedules, as ``mindspore.nn.optim``."""
from mslab.core import missing_names as _missing_names
from mslab.nn.optim.adam import Adam, AdamWeightDecay
from mslab.nn.optim.adaptive import Adadelta, Adagrad, AdaMax, RMSProp
from mslab.nn.optim.ftrl import FTRL
from mslab.nn.optim.lamb import Lamb
from mslab.nn.optim.learning_rate_schedule import *
from mslab.nn.optim.momentum import Momentum
from mslab.nn.optim.optimizer import Optimizer
from mslab.nn.optim.sgd import SGD

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
