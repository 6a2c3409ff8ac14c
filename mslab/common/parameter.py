"""``mindspore.common.parameter``: Parameter and ParameterTuple (defined in ``mslab.common.tensor``)."""
from mslab.common.tensor import Parameter, ParameterTuple

__all__ = ["Parameter", "ParameterTuple"]
