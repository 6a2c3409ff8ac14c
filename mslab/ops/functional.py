"""``mindspore.ops.functional`` (imported as ``F``): every op's functional form, e.g. ``F.reshape(x, shape)``.

Each op family defines its functional forms beside its primitives; this module gathers them under
MindSpore's import path (``from mindspore.ops import functional as F``). Like MindSpore's, it also offers
``grad``, ``value_and_grad`` and ``get_grad`` (from the autodiff layer above: this module is API, not an op family).
"""
from mslab.autodiff.grad_operation import get_grad, grad, value_and_grad
from mslab.core import missing_names as _missing_names
from mslab.ops.array_ops import *
from mslab.ops.assign_ops import *
from mslab.ops.block_ops import *
from mslab.ops.broadcast_ops import *
from mslab.ops.collective_ops import *
from mslab.ops.composite_ops import partial
from mslab.ops.conv_ops import *
from mslab.ops.creation_ops import *
from mslab.ops.ctc_ops import *
from mslab.ops.cumulative_ops import *
from mslab.ops.detection_ops import *
from mslab.ops.device_only_ops import *
from mslab.ops.grid_sample_ops import *
from mslab.ops.host_ops import Print
from mslab.ops.index_ops import *
from mslab.ops.interpolate_ops import *
from mslab.ops.linalg_ops import *
from mslab.ops.loss_ops import *
from mslab.ops.math_ops import *
from mslab.ops.matmul_ops import *
from mslab.ops.nn_ops import *
from mslab.ops.norm_ops import *
from mslab.ops.normalize_ops import *
from mslab.ops.pad_ops import *
from mslab.ops.pool_ops import *
from mslab.ops.random_draw_ops import *
from mslab.ops.random_ops import *
from mslab.ops.reduce_ops import *
from mslab.ops.resize_ops import *
from mslab.ops.scatter_ops import *
from mslab.ops.shape_ops import *
from mslab.ops.slice_ops import *
from mslab.ops.sort_ops import *
from mslab.ops.special_ops import *
from mslab.ops.unary_ops import *

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
