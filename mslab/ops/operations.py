"""``mindspore.ops.operations`` (imported as ``P``): the primitive classes, e.g. ``P.ReLU()``, ``P.MatMul()``."""
from mslab.ops import array_ops, math_ops, nn_ops, reduce_ops
from mslab.ops.array_ops import *  # noqa: F403
from mslab.ops.math_ops import *  # noqa: F403
from mslab.ops.nn_ops import *  # noqa: F403
from mslab.ops.primitive import Primitive
from mslab.ops.reduce_ops import *  # noqa: F403

__all__ = ["Primitive", *array_ops.__all__, *math_ops.__all__, *reduce_ops.__all__, *nn_ops.__all__]
