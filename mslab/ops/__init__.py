"""Operators, as ``mindspore.ops``: primitive classes (``ops.ReLU()``) and functional forms (``ops.relu``).

The engine's ops layer is one module per op family (math_ops, unary_ops, matmul_ops, array_ops, assign_ops,
shape_ops, index_ops, scatter_ops, reduce_ops, cumulative_ops, sort_ops, special_ops, linalg_ops, nn_ops, conv_ops,
pool_ops, batch_norm_ops, optim_ops, resize_ops, normalize_ops, random_ops, random_draw_ops, ctc_ops, custom_ops,
detection_ops, nms_ops, roi_align_ops, crop_resize_ops, grid_sample_ops, device_only_ops, hook_ops), each holding
its primitives (compute, infer and bprop side by side) and their functional forms; creation_ops, norm_ops,
loss_ops, slice_ops, pad_ops, broadcast_ops, block_ops and norm_layer_ops hold functional forms composed of those
primitives (``ops.function`` mirrors MindSpore's import path for the functional forms).
This package's namespace is MindSpore's public API on top: it also offers ``GradOperation``, ``grad`` and
``value_and_grad`` from the autodiff layer above, and ``constexpr`` (from ``mslab.ops.primitive``, as
MindSpore's).
"""
from mslab.autodiff.grad_operation import GradOperation, grad, value_and_grad
from mslab.core import missing_names as _missing_names
from mslab.ops import function, functional, operations
from mslab.ops.composite_ops import HyperMap, Map, MultitypeFuncGraph, partial
from mslab.ops.functional import *
from mslab.ops.op_info_register import CustomRegOp, DataType, custom_info_register
from mslab.ops.operations import *
from mslab.ops.primitive import constexpr

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
