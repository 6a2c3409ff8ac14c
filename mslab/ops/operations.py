"""``mindspore.ops.operations`` (imported as ``P``): the primitive classes, e.g. ``P.ReLU()``, ``P.MatMul()``."""
from mslab.core import missing_names as _missing_names
from mslab.ops.array_ops import *
from mslab.ops.assign_ops import *
from mslab.ops.block_ops import *
from mslab.ops.broadcast_ops import *
from mslab.ops.collective_ops import *
from mslab.ops.conv_ops import *
from mslab.ops.creation_ops import *
from mslab.ops.crop_resize_ops import CropAndResize
from mslab.ops.ctc_ops import *
from mslab.ops.cumulative_ops import *
from mslab.ops.custom_ops import *
from mslab.ops.detection_ops import *
from mslab.ops.device_only_ops import *
from mslab.ops.hook_ops import HookBackward
from mslab.ops.host_ops import Print
from mslab.ops.index_ops import *
from mslab.ops.linalg_ops import *
from mslab.ops.loss_ops import *
from mslab.ops.math_ops import *
from mslab.ops.matmul_ops import *
from mslab.ops.nms_ops import NMSWithMask
from mslab.ops.nn_ops import *
from mslab.ops.norm_layer_ops import *
from mslab.ops.normalize_ops import *
from mslab.ops.optim_ops import *
from mslab.ops.pad_ops import *
from mslab.ops.pool_ops import *
from mslab.ops.random_draw_ops import *
from mslab.ops.random_ops import *
from mslab.ops.reduce_ops import *
from mslab.ops.resize_ops import *
from mslab.ops.roi_align_ops import ROIAlign
from mslab.ops.scatter_ops import *
from mslab.ops.shape_ops import *
from mslab.ops.slice_ops import *
from mslab.ops.sort_ops import *
from mslab.ops.special_ops import *
from mslab.ops.status_ops import *
from mslab.ops.summary_ops import *
from mslab.ops.unary_ops import *

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
