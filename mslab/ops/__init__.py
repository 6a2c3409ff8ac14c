"""Operators, as ``mindspore.ops``: primitive classes (``ops.ReLU()``) and functional forms (``ops.relu``)."""
from mslab.common import tensor as _tensor
from mslab.ops import functional
from mslab.ops.array_ops import Assign, Cast, Depend, DType, Fill, OnesLike, Reshape, Select, Shape, ZerosLike
from mslab.ops.functional import *  # noqa: F401,F403
from mslab.ops.grad_operation import GradOperation, grad, value_and_grad
from mslab.ops.math_ops import (
                                Abs,
                                Add,
                                BatchMatMul,
                                Div,
                                Equal,
                                Exp,
                                Floor,
                                FloorDiv,
                                FloorMod,
                                Greater,
                                GreaterEqual,
                                Less,
                                LessEqual,
                                Log,
                                LogicalAnd,
                                LogicalNot,
                                LogicalOr,
                                MatMul,
                                Maximum,
                                Minimum,
                                Mul,
                                Neg,
                                NotEqual,
                                Pow,
                                RealDiv,
                                ReLU,
                                Sigmoid,
                                Sign,
                                Sqrt,
                                Square,
                                Sub,
                                Tanh,
)
from mslab.ops.primitive import Primitive
from mslab.ops.reduce_ops import ReduceMean, ReduceSum

_tensor.F = functional  # Tensor operators (x + y, x.sum()) call the functional ops
