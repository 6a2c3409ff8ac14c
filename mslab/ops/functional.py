"""``mindspore.ops.functional`` (imported as ``F``): every op's functional form, e.g. ``F.reshape(x, shape)``.

Each op family defines its functional forms beside its primitives; this module gathers them under
MindSpore's import path (``from mindspore.ops import functional as F``).
"""
from mslab.ops.array_ops import *
from mslab.ops.collective_ops import *
from mslab.ops.conv_ops import *
from mslab.ops.index_ops import *
from mslab.ops.math_ops import *
from mslab.ops.matmul_ops import *
from mslab.ops.nn_ops import *
from mslab.ops.pool_ops import *
from mslab.ops.reduce_ops import *
from mslab.ops.shape_ops import *
