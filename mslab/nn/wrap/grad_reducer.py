"""DistributedGradReducer: average gradients across data-parallel ranks (``mindspore.nn.DistributedGradReducer``).

In data-parallel training every rank computes gradients on its own shard of the data; the reducer
all-reduces them (an AllReduce node per gradient: a sum over ranks) and, with ``mean=True``,
multiplies by ``1 / degree`` (the number of ranks), so every rank applies the same averaged update:

    g = (1 / N) * sum_r g_r

That is exactly the gradient of the mean loss over the whole batch when the N shards are equal in
size, which is why N ranks train the same weights as one process on the N shards together, provided
they also *start* equal. The reducer does not see to that, as in MindSpore 2.10: every rank sets the same
seed before building the network, or sets ``set_auto_parallel_context(parameter_broadcast=True)`` so that
the training step copies rank 0's parameters to every rank before its first step (``TrainOneStepCell``;
MindSpore does it when it compiles the network). With one process the AllReduce is the identity.
"""
from mslab.core.context import get_auto_parallel_context
from mslab.nn.cell import Cell
from mslab.ops import functional as F


def broadcast_parameters(parameters, root=0):
    """Overwrite every parameter with rank ``root``'s value (all ranks must call this together).

    Used by ``TrainOneStepCell`` under ``parameter_broadcast=True``; the reducer itself broadcasts nothing.
    """
    for p in parameters:
        p.set_data(F.broadcast(p, root))


class DistributedGradReducer(Cell):
    """``DistributedGradReducer(parameters, mean=None, degree=None)``: ``construct(grads)`` -> reduced grads.

    ``mean=None`` reads ``gradients_mean`` from the auto-parallel context, as MindSpore 2.10 does.
    """

    def __init__(self, parameters, mean=None, degree=None, fusion_type=1, group=None):
        super().__init__(auto_prefix=False)
        if mean is None:
            mean = get_auto_parallel_context("gradients_mean")
        if degree is None:
            degree = int(get_auto_parallel_context("device_num"))
        if isinstance(degree, bool) or not isinstance(degree, int) or degree < 1:
            raise ValueError(f"DistributedGradReducer: degree must be a positive int, got {degree!r}")
        self.mean = bool(mean)
        self.degree = degree
        self.n_params = len(tuple(parameters))

    def construct(self, grads):
        out = []
        for g in grads:
            g = F.all_reduce(g)
            if self.mean:
                g = F.mul(g, 1.0 / self.degree)
            out.append(g)
        return tuple(out)
