"""Tensors, Parameters, dtypes and initialisers (``mindspore.common``)."""
from mslab.common import dtype
from mslab.common.tensor import Parameter, ParameterTuple, Tensor

__all__ = ["dtype", "Tensor", "Parameter", "ParameterTuple"]
