"""``mindspore.common.parameter``: Parameter and ParameterTuple (defined in ``mslab.core.tensor``)."""
from mslab.core.tensor import Parameter, ParameterTuple

__all__ = ["Parameter", "ParameterTuple"]
