"""``mindspore.common.tensor``: Tensor, Parameter and ParameterTuple (defined in ``mslab.core.tensor``)."""
from mslab.core.tensor import Parameter, ParameterTuple, Tensor

__all__ = ["Tensor", "Parameter", "ParameterTuple"]
