"""Neural-network building blocks, as ``mindspore.nn``: Cell, layers, losses, optimizers, wrappers."""
from mslab.core import missing_names as _missing_names
from mslab.nn import dynamic_lr, learning_rate_schedule, utils
from mslab.nn.cell import Cell
from mslab.nn.container import CellList, SequentialCell
from mslab.nn.graph_cell import GraphCell
from mslab.nn.layer import (
                             ELU,
                             GELU,
                             GRU,
                             LSTM,
                             AdaptiveAvgPool2d,
                             AvgPool2d,
                             BatchNorm1d,
                             BatchNorm2d,
                             BatchNorm3d,
                             ClipByNorm,
                             ConstantPad1d,
                             ConstantPad2d,
                             ConstantPad3d,
                             Conv1d,
                             Conv1dTranspose,
                             Conv2d,
                             Conv2dBnAct,
                             Conv2dTranspose,
                             Conv3d,
                             Conv3dTranspose,
                             Dense,
                             Dropout,
                             Embedding,
                             Flatten,
                             GroupNorm,
                             HSigmoid,
                             HSwish,
                             Identity,
                             InstanceNorm2d,
                             LayerNorm,
                             LeakyReLU,
                             LogSoftmax,
                             LSTMCell,
                             MatMul,
                             MaxPool1d,
                             MaxPool2d,
                             Moments,
                             MultiheadAttention,
                             Norm,
                             OneHot,
                             Pad,
                             PReLU,
                             Range,
                             ReLU,
                             ReLU6,
                             Sigmoid,
                             SiLU,
                             Softmax,
                             Softsign,
                             SyncBatchNorm,
                             Tanh,
                             Tril,
                             Unfold,
                             ZeroPad2d,
                             get_activation,
)
from mslab.nn.loss import *
from mslab.nn.metrics import *
from mslab.nn.optim import *
from mslab.nn.wrap import *

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
