"""Host ops: Python that runs while a graph runs (JIT Fallback's PyExecute) and ``print`` inside a graph.

In GRAPH mode with ``jit_syntax_level=LAX`` (MindSpore's default), code with no graph form (numpy on
a tensor, ``x.asnumpy()``) still runs: MindSpore records it as a PyExecute node that calls the
Python interpreter each time the graph runs, on the values flowing in. Gradients stop there
(MindSpore warns "The gradient will be stopped from propagating at the PyExecute node"). ``print``
becomes a Print node that prints when the graph runs, every run.
"""
import numpy as np

from mslab.core import state
from mslab.core.op_registry import op_table
from mslab.core.tensor import Tensor
from mslab.core.tensor_text import graph_print_text
from mslab.ops.primitive import Primitive

__all__ = ["PyExecute", "Print", "graph_print_text"]


class PyExecute(Primitive):
    """``source`` run by the Python interpreter when the graph runs; its tensor inputs arrive as Tensors.

    ``fn`` takes the call's arguments in order; ``args`` holds the non-tensor ones (None where a tensor
    input goes). The output's shape and dtype were found when the graph was compiled; a run that gives
    another shape is an error (a graph's values have one shape).
    """

    differentiable = False
    runs_on_host = True

    def __init__(self, source, fn, args, out_shape, out_dtype, side_effect=False):
        super().__init__(source=source)
        self.fn, self.args = fn, tuple(args)
        self.out_shape, self.out_dtype = tuple(out_shape), np.dtype(out_dtype)
        self.side_effect = side_effect

    def key(self):
        return (type(self), id(self))  # host code may read anything: never merged with another node

    def infer(self, *tensors):
        return self.out_shape, self.out_dtype

    def compute(self, *arrays):
        it = iter(arrays)
        values = [Tensor._wrap(next(it)) if a is None else a for a in self.args]
        out = host_array(self.fn(*values))
        if out.shape != self.out_shape:
            raise ValueError(f"host code `{self.source}` gave shape {out.shape} this time and {self.out_shape} "
                             f"when the graph was compiled; a graph value must keep its shape")
        return out.astype(self.out_dtype, copy=False)

    def bprop(self, *args):  # no gradient for any input
        *inputs, out, dout = args
        return (None,) * len(inputs)


def host_array(result):
    """A host call's result as a numpy array (a Tensor's numbers, a number, an array; None as an int32 0)."""
    if result is None:
        return np.zeros((), np.int32)
    if isinstance(result, Tensor):
        return result.asnumpy()
    arr = np.asarray(result)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"host code gave a {type(result).__name__}; only numbers and arrays can flow back into the "
                        f"graph")
    if arr.dtype == np.float64 and not isinstance(result, np.ndarray) and not isinstance(result, np.generic):
        arr = arr.astype(np.float32)  # a Python float, as Tensor(2.5) is Float32
    return arr


def print_items(items):
    """A graph's print shows a tuple or list item by item, each on its own line (MindSpore 2.10, observed)."""
    for item in items:
        if isinstance(item, (tuple, list)) and item:
            yield from print_items(item)
        else:
            yield item


class Print(Primitive):
    """``ops.Print()(*items)`` and ``print(...)`` in a graph: each item on its own line (MindSpore's Print).

    Strings and numbers are constant inputs, tensors are graph inputs; in a graph the printing happens
    when the graph runs, every run. Tensors print as ``Tensor(shape=[3], dtype=Float32, value=[ 1.00000000e+00
    ...])``, as MindSpore's graph print does. Called in PYNATIVE mode it prints at once, in MindSpore's
    PYNATIVE form (elements separated by commas, a 0-d tensor as ``Tensor(shape=[], dtype=Float32, value= 2)``),
    and returns None; it passes no gradient (a Print in construct does not change the Cell's gradient).
    """

    side_effect = True
    differentiable = False

    def __call__(self, *items):
        """Outside a graph MindSpore prints at once, tensors as their repr, and returns None (observed)."""
        if state.tracer is not None:
            return super().__call__(*print_items(items))
        for item in items:
            print(graph_print_text(item._data, pynative=True) if isinstance(item, Tensor) else item)
        return None

    def infer(self, *items):
        return (), np.dtype(np.int32)

    def compute(self, *items):
        for item in items:
            print(graph_print_text(item) if isinstance(item, np.ndarray) else item)
        return np.zeros((), np.int32)

    def bprop(self, *args):  # no gradient for any input
        *inputs, out, dout = args
        return (None,) * len(inputs)


op_table.register(globals(), __all__)
