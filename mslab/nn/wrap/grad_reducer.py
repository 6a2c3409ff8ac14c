"""DistributedGradReducer: average gradients across data-parallel ranks (``mindspore.nn.DistributedGradReducer``).

In data-parallel training every rank computes gradients on its own shard of the data; the reducer
all-reduces them (an AllReduce node per gradient: a sum over ranks) and, with ``mean=True``,
multiplies by ``1 / degree`` (the number of ranks), so every rank applies the same averaged update:

    g = (1 / N) * sum_r g_r

That is exactly the gradient of the mean loss over the whole batch when the N shards are equal in
size, which is why N ranks train the same weights as one process on the N shards together. So that
all ranks also *start* equal, building the reducer broadcasts the parameters from rank 0. With one
process the AllReduce is the identity.
"""
from mslab.core import comm
from mslab.core.context import get_auto_parallel_context
from mslab.nn.cell import Cell
from mslab.ops import functional as F


def broadcast_parameters(parameters, root=0):
    """Overwrite every parameter with rank ``root``'s value (all ranks must call this together)."""
    for p in parameters:
        p.set_data(F.broadcast(p, root))


class DistributedGradReducer(Cell):
    """``DistributedGradReducer(parameters, mean=True, degree=None)``: ``construct(grads)`` -> reduced grads."""

    def __init__(self, parameters, mean=True, degree=None, fusion_type=1, group=None):
        super().__init__(auto_prefix=False)
        if degree is None:
            degree = int(get_auto_parallel_context("device_num"))
        if isinstance(degree, bool) or not isinstance(degree, int) or degree < 1:
            raise ValueError(f"DistributedGradReducer: degree must be a positive int, got {degree!r}")
        self.mean = bool(mean)
        self.degree = degree
        parameters = tuple(parameters)
        self.n_params = len(parameters)
        if comm.size() > 1:
            broadcast_parameters(parameters)

    def construct(self, grads):
        out = []
        for g in grads:
            g = F.all_reduce(g)
            if self.mean:
                g = F.mul(g, 1.0 / self.degree)
            out.append(g)
        return tuple(out)
