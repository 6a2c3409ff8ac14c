"""Summary ops: record a value from inside ``construct`` for the next ``SummaryRecord.record(step)``.

``ops.ScalarSummary()("loss", loss)`` (and TensorSummary, ImageSummary, HistogramSummary) keeps the value
when it runs, in PYNATIVE at once and in GRAPH mode each time the graph runs, as MindSpore 2.10 does
on CPU (observed: both modes write the values into the summary file). The op returns None in PYNATIVE;
in a graph its output is a placeholder int32 ``[0]`` (MindSpore raises RuntimeError when a graph
returns it). Names and values are checked when ``record`` collects them, with MindSpore's messages.
The ops pass no gradient: a summary in ``construct`` leaves the Cell's gradient as it is (observed).
"""
import numpy as np

from mslab.core import state, summary_pool
from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor
from mslab.ops.primitive import Primitive

__all__ = ["ScalarSummary", "TensorSummary", "ImageSummary", "HistogramSummary"]


class _Summary(Primitive):
    """Keep ``(name, value)`` in the summary pool when the op runs."""

    side_effect = True
    differentiable = False

    def __call__(self, name, value):
        if state.tracer is not None:
            return super().__call__(name, value)
        summary_pool.put(type(self).__name__, name, value)
        return None

    def infer(self, name, value):
        return (1,), np.dtype(np.int32)

    def compute(self, name, value):
        summary_pool.put(type(self).__name__, name, Tensor._wrap(np.array(value)))
        return np.zeros((1,), np.int32)

    def bprop(self, *args):  # no gradient for any input
        *inputs, out, dout = args
        return (None,) * len(inputs)


class ScalarSummary(_Summary):
    """``ScalarSummary()(name, x)``: a one-element tensor, e.g. the loss (the "scalar" plugin)."""


class TensorSummary(_Summary):
    """``TensorSummary()(name, x)``: a whole tensor (the "tensor" plugin)."""


class ImageSummary(_Summary):
    """``ImageSummary()(name, x)``: an NCHW batch of images (the "image" plugin)."""


class HistogramSummary(_Summary):
    """``HistogramSummary()(name, x)``: a tensor's values, to be binned (the "histogram" plugin)."""


op_table.register(globals(), __all__)
