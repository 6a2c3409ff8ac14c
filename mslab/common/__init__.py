"""Tensors, Parameters, dtypes and initialisers (``mindspore.common``; defined in ``mslab.core``)."""
from mslab.common import dtype, initializer, seed
from mslab.common.device import set_device
from mslab.common.seed import get_seed, set_seed
from mslab.common.sparse_tensor import COOTensor, RowTensor
from mslab.common.tensor import Parameter, ParameterTuple, Tensor
from mslab.core import missing_names as _missing_names

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

__all__ = ["dtype", "Tensor", "Parameter", "ParameterTuple", "set_seed", "get_seed", "set_device",
           "RowTensor", "COOTensor"]
