"""Run the same function in PYNATIVE and GRAPH mode and demand identical results (``jit(f) == f``)."""
import numpy as np

from mslab.core import context
from mslab.core.context import in_mode
from mslab.core.pytree import flatten
from mslab.core.tensor import Tensor
from mslab.runtime.compiled import jit


def run_in_mode(fn, args, mode):
    """``fn(*args)`` eagerly (PYNATIVE) or compiled as a graph (GRAPH); returns numpy leaves."""
    with in_mode(mode):
        out = fn(*args) if mode == context.PYNATIVE_MODE else jit(fn)(*args)
    leaves, _ = flatten(out)
    return [t.asnumpy() for t in leaves]


def check_modes(fn, *args):
    """Assert GRAPH mode gives bit-identical outputs (values, shapes, dtypes) to PYNATIVE mode."""
    eager = run_in_mode(fn, args, context.PYNATIVE_MODE)
    graph = run_in_mode(fn, args, context.GRAPH_MODE)
    assert len(eager) == len(graph), f"{len(eager)} outputs in PYNATIVE, {len(graph)} in GRAPH"
    for i, (e, g) in enumerate(zip(eager, graph)):
        assert e.dtype == g.dtype, f"output {i}: dtype {e.dtype} (PYNATIVE) vs {g.dtype} (GRAPH)"
        assert e.shape == g.shape, f"output {i}: shape {e.shape} (PYNATIVE) vs {g.shape} (GRAPH)"
        np.testing.assert_array_equal(e, g, err_msg=f"output {i} differs between PYNATIVE and GRAPH")
    return eager


def as_tensors(*arrays):
    return [Tensor(a) if isinstance(a, np.ndarray) else a for a in arrays]
