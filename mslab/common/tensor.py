"""``mindspore.common.tensor``: Tensor, Parameter and ParameterTuple and tensor (defined in ``mslab.core.tensor``)."""
from mslab.core.tensor import Parameter, ParameterTuple, Tensor, tensor

__all__ = ["Tensor", "Parameter", "ParameterTuple", "tensor"]
