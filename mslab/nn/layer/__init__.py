"""Layers, as ``mindspore.nn.layer``: activations, Dense/Flatten/Dropout, Conv2d, pooling, batch norm."""
from mslab.core import missing_names as _missing_names
from mslab.nn.layer.activation import LeakyReLU, LogSoftmax, ReLU, ReLU6, Sigmoid, Softmax, Tanh, get_activation
from mslab.nn.layer.basic import ClipByNorm, Dense, Dropout, Flatten
from mslab.nn.layer.conv import Conv2d
from mslab.nn.layer.normalization import BatchNorm1d, BatchNorm2d
from mslab.nn.layer.pooling import AvgPool2d, MaxPool2d

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "get_activation", "Dense",
           "Dropout", "Flatten", "ClipByNorm", "Conv2d", "BatchNorm1d", "BatchNorm2d", "MaxPool2d", "AvgPool2d"]
