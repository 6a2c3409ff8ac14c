"""``mindspore.parallel.nn``: wrappers that cut a batch into micro-batches (``Pipeline``, ``GradAccumulation``,
``MicroBatchInterleaved``; defined in mslab.nn.wrap.micro_batch). On one process they run the slices
one after another and add the outputs, as MindSpore 2.10 does on CPU.
"""
from mslab.core import missing_names as _missing_names
from mslab.nn.wrap.micro_batch import GradAccumulation, MicroBatchInterleaved, PipelineCell

__all__ = ["Pipeline", "GradAccumulation", "MicroBatchInterleaved"]

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error


class Pipeline(PipelineCell):
    """``Pipeline(network, micro_size, stage_config=None, segment_config=None)``: MindSpore 2.10's name for
    ``nn.PipelineCell`` in ``mindspore.parallel.nn`` (a subclass with nothing added)."""
