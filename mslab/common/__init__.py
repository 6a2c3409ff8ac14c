"""Tensors, Parameters, dtypes and initialisers (``mindspore.common``; defined in ``mslab.core``)."""
from mslab.common import dtype, initializer, seed
from mslab.common.tensor import Parameter, ParameterTuple, Tensor

__all__ = ["dtype", "Tensor", "Parameter", "ParameterTuple"]
