"""A Cell's own backward: ``def bprop(self, *inputs, out, dout)`` replaces autodiff inside the Cell.

MindSpore lets a Cell define ``bprop`` next to ``construct``, for gradients the framework should not derive.
While a gradient is being recorded, calling such a Cell records ONE node: its forward is the Cell's
``construct`` (in GRAPH mode a subgraph the node runs; in PYNATIVE mode computed at once, off the tape), and
its bprop rule is the Cell's ``bprop``, written in mslab ops like every primitive's, so it runs eagerly or is
traced into backward nodes like any other rule.
"""
import numpy as np

from mslab.autodiff.subgraphs import error, trace_subgraph
from mslab.core import state
from mslab.core.tensor import Tensor
from mslab.ir.evaluate import run_graph
from mslab.ops.primitive import Primitive


class CellBprop(Primitive):
    """A call of a Cell that defines ``bprop``: the forward runs ``construct`` (``graph`` in GRAPH mode),
    the backward is the Cell's ``bprop(*inputs, out, dout)``. Inputs: the call's tensors, then the values
    ``construct`` read from outside (their gradients are not asked of the Cell's bprop)."""

    bprop_replayable = False  # the Cell's bprop is the user's Python: it runs on every backward

    def __init__(self, cell, graph=None, n_args=0, out_type=None):
        super().__init__()
        self.cell, self.graph, self.n_args = cell, graph, n_args
        self.out_shape, self.out_dtype = out_type if out_type else ((), np.dtype(np.float32))
        self.subgraphs = (("construct", graph),) if graph is not None else ()
        self.side_effect = graph is not None and any(n.prim.side_effect for n in graph.nodes)

    @property
    def name(self):
        return f"{type(self.cell).__name__}.bprop"

    def key(self):
        return (type(self), id(self))

    def infer(self, *ins):
        return self.out_shape, self.out_dtype

    def compute(self, *arrays):
        return run_graph(self.graph, arrays)[0]

    def kernel_with(self, compile_graph):
        run = compile_graph(self.graph)
        return lambda *arrays: run(list(arrays))[0]

    def bprop(self, *args):
        inputs, out, dout = args[:-2], args[-2], args[-1]
        grads = self.cell.bprop(*inputs[:self.n_args], out, dout)
        grads = tuple(grads) if isinstance(grads, (tuple, list)) else (grads,)
        if len(grads) != self.n_args:
            raise error(f"{type(self.cell).__name__}.bprop returned {len(grads)} gradients for {self.n_args} inputs")
        return grads + (None,) * (len(inputs) - self.n_args)


def call(cell, args, run_construct):
    """``cell(*args)`` recorded as one CellBprop node (a gradient is being recorded: a tracer or a tape)."""
    if not all(isinstance(a, Tensor) for a in args):
        raise error(f"{type(cell).__name__} defines bprop: mslab passes only Tensor inputs to such a Cell")
    tracer = state.tracer
    if tracer is not None:
        graph, sub, out = trace_subgraph(f"{type(cell).__name__}.construct", lambda *a: run_construct(a), args)
        if not isinstance(out, Tensor):
            raise error(f"{type(cell).__name__}.construct returns a {type(out).__name__}; mslab supports a Cell "
                        f"bprop for a construct that returns one Tensor")
        graph.outputs = [sub.value_of(out)]
        extra = [outer for outer, _ in sub.captured.values()]
        v = graph.outputs[0]
        node = CellBprop(cell, graph, len(args), (v.shape, v.dtype))
        return node(*args, *[e.handle for e in extra])
    tapes = list(state.tapes)
    state.tapes[:] = []  # the forward runs off the tape: the Cell's own bprop stands for what it did
    try:
        out = run_construct(args)
    finally:
        state.tapes[:] = tapes
    if not isinstance(out, Tensor):
        raise error(f"{type(cell).__name__}.construct returns a {type(out).__name__}; mslab supports a Cell bprop "
                    f"for a construct that returns one Tensor")
    node = CellBprop(cell, None, len(args), (out.shape, out._np_dtype))
    for tape in tapes:
        tape.record(node, list(args), out)
    return out
