"""Operators, as ``mindspore.ops``: primitive classes (``ops.ReLU()``) and functional forms (``ops.relu``).

Each family module (math_ops, array_ops, reduce_ops, nn_ops) lists its primitive classes in
``__all__``; functional forms live in ``functional`` (and ``nn_functional``).
"""
from mslab.autodiff.grad_operation import GradOperation, grad, value_and_grad
from mslab.core import tensor as _tensor
from mslab.ops import functional
from mslab.ops.array_ops import *
from mslab.ops.composite_ops import HyperMap, Map, MultitypeFuncGraph, partial
from mslab.ops.functional import *
from mslab.ops.math_ops import *
from mslab.ops.nn_ops import *
from mslab.ops.primitive import Primitive
from mslab.ops.reduce_ops import *

_tensor.F = functional  # Tensor operators (x + y, x.sum()) call the functional ops
