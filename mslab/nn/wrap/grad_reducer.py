"""DistributedGradReducer: average gradients across data-parallel devices (``mindspore.nn.DistributedGradReducer``).

In data-parallel training every device computes gradients on its own slice of the batch; the reducer
all-reduces them (a sum over devices) and, with ``mean=True``, multiplies by ``1 / degree`` (the
number of devices) so every device applies the same averaged update. mslab runs on one process, so
the all-reduce is a sum over one device: the gradients themselves.
"""
from mslab.core.context import get_auto_parallel_context
from mslab.nn.cell import Cell
from mslab.ops import functional as F


def _device_num():
    return int(get_auto_parallel_context("device_num") or 1)


class DistributedGradReducer(Cell):
    """``DistributedGradReducer(parameters, mean=True, degree=None)``: ``construct(grads)`` -> reduced grads."""

    def __init__(self, parameters, mean=True, degree=None, fusion_type=1, group=None):
        super().__init__(auto_prefix=False)
        if degree is None:
            degree = _device_num()
        if isinstance(degree, bool) or not isinstance(degree, int) or degree < 1:
            raise ValueError(f"DistributedGradReducer: degree must be a positive int, got {degree!r}")
        self.mean = bool(mean)
        self.degree = degree
        self.n_params = len(tuple(parameters))

    def _all_reduce(self, grad):
        return grad  # the sum over the devices of this process: just one

    def construct(self, grads):
        out = []
        for g in grads:
            g = self._all_reduce(g)
            if self.mean:
                g = F.mul(g, 1.0 / self.degree)
            out.append(g)
        return tuple(out)
