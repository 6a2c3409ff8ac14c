"""``mindspore.mint`` (``from mslab import mint``): MindSpore 2.x's PyTorch-style functions, on mslab's ops.

The same computations as ``mslab.ops`` under PyTorch's names and argument conventions: ``dim`` and
``keepdim`` instead of ``axis`` and ``keep_dims``, ``flatten`` from axis 0, ``select`` / ``narrow`` as
views along one axis. Each is made of mslab's primitives, so it is differentiable and runs the same in
PYNATIVE and GRAPH mode. ``import mslab`` does not load this package; ``mslab.mint`` does, on first use.
"""
from mslab.core import missing_names as _missing_names
from mslab.mint import nn
from mslab.mint.functions import flatten, matmul, mean, narrow, select, sum

__all__ = ["nn", "flatten", "matmul", "mean", "narrow", "select", "sum"]

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
