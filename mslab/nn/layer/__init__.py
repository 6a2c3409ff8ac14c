"""Layers, as ``mindspore.nn.layer``: activations, Dense/Flatten/Dropout, convolutions, pooling, normalisation,
embedding, LSTM."""
from mslab.core import missing_names as _missing_names
from mslab.nn.container import CellList, SequentialCell
from mslab.nn.layer.activation import (
                                        ELU,
                                        GELU,
                                        HSigmoid,
                                        HSwish,
                                        LeakyReLU,
                                        LogSoftmax,
                                        PReLU,
                                        ReLU,
                                        ReLU6,
                                        Sigmoid,
                                        SiLU,
                                        Softmax,
                                        Softsign,
                                        Tanh,
                                        get_activation,
)
from mslab.nn.layer.basic import ClipByNorm, Dense, Dropout, Flatten, Identity, OneHot, Unfold
from mslab.nn.layer.combined import Conv2dBnAct
from mslab.nn.layer.conv import Conv1d, Conv2d
from mslab.nn.layer.conv3d import Conv3d, Conv3dTranspose
from mslab.nn.layer.conv_transpose import Conv1dTranspose, Conv2dTranspose
from mslab.nn.layer.embedding import Embedding
from mslab.nn.layer.layer_norm import GroupNorm, LayerNorm
from mslab.nn.layer.math import MatMul, Moments, Norm, Range, Tril
from mslab.nn.layer.normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d, InstanceNorm2d, SyncBatchNorm
from mslab.nn.layer.padding import ConstantPad1d, ConstantPad2d, ConstantPad3d, Pad, ZeroPad2d
from mslab.nn.layer.pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool1d, MaxPool2d
from mslab.nn.layer.rnn import GRU, LSTM, LSTMCell
from mslab.nn.layer.transformer import MultiheadAttention

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "Softsign", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "get_activation",
           "Dense",
           "Dropout", "Flatten", "ClipByNorm", "Conv2d", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "MaxPool2d",
           "AvgPool2d",
           "GELU", "ELU", "SiLU", "HSigmoid", "Conv1d", "LayerNorm", "Embedding", "LSTM", "Pad",
           "Conv2dTranspose", "Conv1dTranspose", "CellList", "SequentialCell", "Identity", "OneHot", "MatMul", "Range",
           "PReLU", "HSwish", "GroupNorm", "Norm", "InstanceNorm2d", "MaxPool1d",
           "LSTMCell", "Unfold", "GRU", "Conv3d", "Conv3dTranspose", "Tril", "Moments",
           "AdaptiveAvgPool2d", "SyncBatchNorm", "Conv2dBnAct",
           "MultiheadAttention", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad2d"]
