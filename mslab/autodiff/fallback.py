"""JIT Fallback: Python with no graph form, run on the host when the graph runs (``jit_syntax_level=LAX``).

In MindSpore 2.10 ``jit_syntax_level`` is ``LAX`` by default for GRAPH_MODE Cells, and ``@jit``
functions are LAX unless ``fullgraph=True`` (observed). Under LAX, numpy on a tensor or
``x.asnumpy()`` inside ``construct`` works: the expression becomes a PyExecute node, run by the Python
interpreter each time the graph runs, on the values flowing in; gradients stop there. Under STRICT
such code is refused. ``print`` and ``float(t)`` work at both levels: print becomes a graph Print node,
``float(t)`` a cast (whose gradient is cut, as MindSpore's is).
"""
import contextlib

import numpy as np

from mslab.core import dtype as mstype
from mslab.core import state
from mslab.core.context import STRICT
from mslab.core.errors import JitSyntaxAttributeError, JitSyntaxValueError
from mslab.core.tensor import Tensor
from mslab.ir.provenance import source_line
from mslab.ops import array_ops, shape_ops
from mslab.ops.host_ops import Print, PyExecute, host_array, print_items


def _symbolic(x):
    return isinstance(x, Tensor) and x._data is None


@contextlib.contextmanager
def _untraced():
    """Run Python eagerly, unrecorded, inside a trace (to see what host code gives)."""
    saved_tracer, saved_tapes = state.tracer, list(state.tapes)
    state.tracer = None
    state.tapes[:] = []
    try:
        yield
    finally:
        state.tracer = saved_tracer
        state.tapes[:] = saved_tapes


def host(kind, source, fn, args):
    """``fn(*args)`` now when no argument is a traced tensor; otherwise a PyExecute node that calls it each run.

    ``kind`` says why the expression needs the host: ``"asnumpy"`` (a tensor's numbers are read) or
    ``"numpy"`` (numpy is called on values); it picks STRICT's error, as MindSpore's differ.
    """
    if not any(_symbolic(a) for a in args):
        return fn(*args)
    tracer = state.tracer
    if tracer.syntax_level == STRICT:
        where = source_line()
        where = f"\n  at {where}" if where else ""
        if kind == "asnumpy":
            raise JitSyntaxAttributeError(
                f"`{source}` reads a tensor's numbers on the host, which jit_syntax_level=STRICT does not allow in a "
                f"graph (MindSpore: \"In JIT strict mode, cannot get attributes asnumpy\"). Set jit_syntax_level to "
                f"LAX (the default) to run it as JIT Fallback, or write it with mslab ops.{where}")
        raise JitSyntaxValueError(
            f"`{source}` calls numpy on a tensor that only exists when the graph runs; under "
            f"jit_syntax_level=STRICT the inputs of such Python code must be constants (MindSpore: \"the inputs "
            f"should be constant ... Try to set jit_syntax_level to LAX\"). LAX (the default) runs it on the host."
            f"{where}")
    probe = [Tensor(np.ones(a.shape, a._np_dtype)) if _symbolic(a) else a for a in args]
    with _untraced(), np.errstate(all="ignore"):
        result = fn(*probe)
    arr = host_array(result)
    node = PyExecute(source, fn, [None if _symbolic(a) else a for a in args], arr.shape, arr.dtype,
                     side_effect=result is None)
    out = node(*[a for a in args if _symbolic(a)])
    return None if result is None else out


def print_(*args, sep=" ", end="\n", **kwargs):
    """``print(...)``: Python's print outside a trace; a Print node (printing every run) inside one."""
    if state.tracer is None:
        return print(*args, sep=sep, end=end, **kwargs)
    Print()(*[a if isinstance(a, Tensor) else str(a) for a in print_items(args)])
    return None


_SCALAR_DTYPES = {float: mstype.float32, int: mstype.int64, bool: mstype.bool_}


def scalar(kind, x):
    """``float(t)`` / ``int(t)`` / ``bool(t)``: a Python number, or for a traced tensor a 0-d cast whose
    gradient is cut (MindSpore's ``float(x.max())`` in construct gives d/dx of ``x * m`` as m alone)."""
    if not _symbolic(x):
        return kind(x)
    if x.size != 1:
        raise TypeError(f"{kind.__name__}() of a tensor of shape {tuple(x.shape)}: only a single value can become a "
                        f"Python {kind.__name__}")
    t = array_ops.stop_gradient(array_ops.cast(x, _SCALAR_DTYPES[kind]))
    return shape_ops.reshape(t, ()) if t.shape != () else t
