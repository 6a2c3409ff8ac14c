"""Micro-batches: run a network on ``n`` equal slices of the batch and add the outputs.

``PipelineCell(net, micro_size)`` (``mindspore.parallel.nn.Pipeline``), ``GradAccumulation(net, micro_size)``
and ``MicroBatchInterleaved(net, interleave_num)`` all cut every input along axis 0 into equal slices
(an error if the batch does not divide), call ``net`` on each slice in turn and return the sum of the
outputs. In a pipeline- or data-parallel job MindSpore uses the slices to overlap stages or to
accumulate gradients across devices; on one CPU process that is all that happens, so a mean loss
becomes the sum of ``n`` slice means and its gradient ``n`` times the whole batch's (observed on
MindSpore 2.10 CPU: 1.9130185 for a loss of 0.95650923 with n = 2).
"""
from mslab.nn.cell import Cell

__all__ = ["PipelineCell", "MicroBatchInterleaved", "GradAccumulation"]


def _check(owner, arg, value):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{owner}', the argument '{arg}' must be integer, but got the type : {type(value)}.")
    if value <= 0:
        raise ValueError(f"For '{owner}', the argument '{arg}' must be large than 0, but got {value}.")


def _slices(inputs, n, i):
    """Slice ``i`` of ``n`` along axis 0 of every input."""
    out = []
    for x in inputs:
        if x.shape[0] % n != 0:
            raise ValueError(f"For micro batch initialization, the 0th dimension shape of input({x.shape[0]}) must be "
                             f"divided by micro size({n})")
        size = x.shape[0] // n
        out.append(x[size * i:size * (i + 1)])
    return out


class _MicroBatches(Cell):
    """``net`` on each of ``n`` slices of the batch, outputs added."""

    def __init__(self, owner, arg, network, n):
        super().__init__(auto_prefix=False)
        if owner != "MicroBatchInterleaved" and not isinstance(network, Cell):
            raise TypeError(f"For '{owner}', the argument 'network' must cell type, but got the type : "
                            f"{type(network)}.")
        _check(owner, arg, n)
        self.network, self._n = network, n

    def construct(self, *inputs):
        total = None
        for i in range(self._n):
            out = self.network(*_slices(inputs, self._n, i))
            total = out if total is None else total + out
        return total


class PipelineCell(_MicroBatches):
    """``PipelineCell(network, micro_size, stage_config=None, segment_config=None)``: micro-batches for a pipeline.

    ``stage_config``/``segment_config`` map sub-Cell names to a stage or segment number; mslab sets
    ``pipeline_stage``/``pipeline_segment`` on those Cells, as MindSpore does, and a name the network
    lacks is a KeyError. One process runs every stage, so the numbers do not change.
    """

    def __init__(self, network, micro_size, stage_config=None, segment_config=None):
        super().__init__("PipelineCell", "micro_size", network, micro_size)
        self.micro_size = micro_size
        for config, attr in ((stage_config, "pipeline_stage"), (segment_config, "pipeline_segment")):
            unknown = dict(config or {})
            for name, cell in network.cells_and_names():
                if name and name in unknown:
                    setattr(cell, attr, unknown.pop(name))
            if unknown:
                raise KeyError(f"For 'PipelineCell', the argument '{attr.replace('pipeline_', '')}_config' : "
                               f"{unknown} is not found in 'network' : {network}")

    def shard(self, *args, **kwargs):
        raise ValueError("For 'PipelineCell', no 'shard' on 'PipelineCell' is allowed.")


class GradAccumulation(_MicroBatches):
    """``GradAccumulation(network, micro_size)``: the batch as ``micro_size`` micro-batches, outputs added."""

    def __init__(self, network, micro_size):
        super().__init__("GradAccumulation", "micro_size", network, micro_size)
        self.micro_size = micro_size


class MicroBatchInterleaved(_MicroBatches):
    """``MicroBatchInterleaved(network, interleave_num=2)``: the batch as ``interleave_num`` slices, outputs added."""

    def __init__(self, network, interleave_num=2):
        super().__init__("MicroBatchInterleaved", "interleave_num", network, interleave_num)
        self.interleave_num = interleave_num
