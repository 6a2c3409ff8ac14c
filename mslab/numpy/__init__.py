"""``mindspore.numpy`` (``import mslab.numpy as mnp``): numpy's interface on Tensors, built on mslab's ops.

Every function takes Tensors (or Python numbers, lists and tuples) and returns Tensors, is
differentiable, and runs the same in PYNATIVE and GRAPH mode. ``import mslab`` does not load this
package; ``mslab.numpy`` or ``import mslab.numpy`` does, on first use.
"""
from mslab.core import missing_names as _missing_names
from mslab.core.dtype import bool_, float16, float32, float64, int8, int16, int32, int64, uint8
from mslab.numpy.array_creations import *
from mslab.numpy.array_ops import *
from mslab.numpy.math_ops import *

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
