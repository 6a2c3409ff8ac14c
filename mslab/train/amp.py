"""``mindspore.amp.auto_mixed_precision``: run a network in float16 at amp level O0, O1, O2 or O3.

Which Cells compute in float16, as in MindSpore 2.10 (mindspore/train/amp.py, observed on CPU):

* ``O0``: none; the network comes back unchanged.
* ``O1``: the white-list Cells (Dense, the convolutions, the RNN cells, and ReLU/PReLU, whose single
  primitive is on MindSpore's white list): float16 inside, each output cast back to float32.
* ``O2``: every Cell except the black list (BatchNorm1d/2d/3d, LayerNorm), which stay float32 and
  hand float16 on; the network's outputs are cast back to float32.
* ``O3``: every Cell, outputs cast back to float32.

"float16 inside" is ``Cell.to_float``: each primitive casts its floating-point inputs, parameters
included, to float16; parameters themselves stay float32. MindSpore's O1 also casts white-list
primitives (MatMul, Conv2D, ReLU, ...) that a ``construct`` calls directly; mslab casts only the
white-list Cells (a documented difference). Cells the user set with ``to_float`` are left as set.
MindSpore's experimental level ``"auto"`` (per-primitive white and black lists) raises NotImplementedError.
"""
from mslab.core import dtype as mstype
from mslab.nn import layer as _layer
from mslab.nn.cell import Cell
from mslab.ops import functional as F

__all__ = ["auto_mixed_precision", "AMP_WHITE_LIST", "AMP_BLACK_LIST"]

_WHITE_NAMES = ["Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose", "Dense",
                "LSTMCell", "RNNCell", "GRUCell", "ReLU", "PReLU"]
# The classes mslab has (another helper may add the rest; a name mslab lacks cannot be in a network).
AMP_WHITE_LIST = tuple(c for c in (vars(_layer).get(n) for n in _WHITE_NAMES) if c is not None)  # no missing-name hook
AMP_BLACK_LIST = tuple(vars(_layer)[n] for n in ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm"]
                       if n in vars(_layer))


class _OutputTo16(Cell):
    """``backbone`` with its output cast to float16 (a float32 Cell inside a float16 network)."""

    def __init__(self, backbone, dtype=mstype.float16):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self.dtype = dtype

    def construct(self, *args, **kwargs):
        return F.cast(self._backbone(*args, **kwargs), self.dtype)


class _OutputTo32(Cell):
    """``backbone`` with its floating-point outputs cast to float32."""

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def construct(self, *args, **kwargs):
        return F.mixed_precision_cast(mstype.float32, self._backbone(*args, **kwargs))


def _set_by_user(cell):
    return cell._mixed_precision_type is not None


def _replace_children(network, pick, wrap, keep_user_set=False):
    """Replace each sub-Cell ``pick`` chooses by ``wrap(sub)``; search below the others."""
    for name, sub in list(network._cells.items()):
        if sub is None or (keep_user_set and _set_by_user(sub)):
            continue
        if pick(sub):
            # Both places a child lives (the registry and the attribute), without Cell.__setattr__,
            # which would prefix the parameter names again.
            network._cells[name] = network.__dict__[name] = wrap(sub)
        else:
            _replace_children(sub, pick, wrap, keep_user_set)  # containers (SequentialCell, CellList) run their _cells


def auto_mixed_precision(network, amp_level="O0", dtype=mstype.float16):
    """``network`` set to compute in ``dtype`` (float16) at ``amp_level`` "O0", "O1", "O2" or "O3"."""
    if amp_level == "auto":
        raise NotImplementedError("amp_level 'auto' (MindSpore 2.10's experimental per-primitive lists) is not "
                                  "implemented in mslab; use 'O1', 'O2' or 'O3'")
    if not isinstance(network, Cell):
        raise TypeError(f"For amp_level '{amp_level}', the network type should be Cell.")
    if dtype != mstype.float16:
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but got {dtype} "
                         "(mslab has no bfloat16).")
    if amp_level == "O0":
        return network
    if amp_level == "O1" and isinstance(network, AMP_WHITE_LIST) and not _set_by_user(network):
        network = _OutputTo32(network.to_float(dtype))  # a white-list Cell on its own (observed: Dense at O1)
    elif amp_level == "O1":
        _replace_children(network, lambda c: isinstance(c, AMP_WHITE_LIST), lambda c: _OutputTo32(c.to_float(dtype)),
                          keep_user_set=True)
    elif amp_level == "O2":
        network.to_float(dtype)
        _replace_children(network, lambda c: isinstance(c, AMP_BLACK_LIST),
                          lambda c: _OutputTo16(c.to_float(mstype.float32), dtype))
        network = _OutputTo32(network)
    elif amp_level == "O3":
        network = _OutputTo32(network.to_float(dtype))
    else:
        raise ValueError(f"The amp level {amp_level} is not supported")
    return network
