"""What converted code calls (``__ms__``, written by ``mslab.ir.frontend``): control flow, Parameter writes, Fallback.

``__ms__.call(f, *args)`` converts the user's own functions the same way before calling them, so a
helper called from ``construct`` may branch on tensors too (as in MindSpore, which compiles what
construct calls).
"""
import sys

from mslab.autodiff import recursion
from mslab.autodiff.control_flow import UNDEFINED, and_, if_, ifexp, load, not_, or_, while_
from mslab.autodiff.fallback import host, print_, scalar
from mslab.autodiff.subgraphs import error
from mslab.core import state
from mslab.core.tensor import Parameter, Tensor
from mslab.ir import frontend
from mslab.ir.node import Value, ValueKind
from mslab.ops import array_ops, index_ops

__all__ = ["UNDEFINED", "and_", "augmented", "call", "condition", "host", "if_", "ifexp", "load", "not_",
           "operand", "or_", "print_", "scalar", "setattr_", "setitem", "while_"]


def call(f, *args, **kwargs):
    """``f(*args, **kwargs)``, with ``f`` converted first when it is the user's own Python function (and a
    function calling itself on tensors compiled as a graph of its own, ``mslab.autodiff.recursion``)."""
    if frontend.is_user_function(f):
        return recursion.call(frontend.convert(f, sys.modules[__name__]), f, args, kwargs)
    return f(*args, **kwargs)


def converted(fn):
    """``fn`` with its source converted for GRAPH mode (itself when it has nothing to convert)."""
    return frontend.convert(fn, sys.modules[__name__])


def setattr_(obj, name, value):
    """``obj.name = value``. While a graph is recorded, a Parameter held there is written in place (an Assign
    node, as MindSpore compiles ``self.w = v`` and ``self.w += v``): later reads of ``self.w``, in this graph
    and after it, see the new value, and the Cell keeps its Parameter."""
    current = getattr(obj, name, None)
    if state.tracer is not None and isinstance(current, Parameter) and not isinstance(value, Parameter):
        array_ops.assign(current, value if isinstance(value, Tensor) else Tensor(value, current.dtype))
        return
    setattr(obj, name, value)


def setitem(obj, index, value):
    """``obj[index] = value``, giving what the variable holds afterwards. While a graph is recorded, a tensor
    gets a new value (a SetItem node): MindSpore's graph leaves the caller's tensor unchanged. A list, a dict
    or a tensor outside a graph is changed in place, as in Python."""
    if state.tracer is not None and isinstance(obj, Tensor):
        if isinstance(obj, Parameter):
            raise error(f"x[...] = value on Parameter '{obj.name}' inside a graph: write the whole "
                                  f"Parameter (ops.assign, or self.w = new_value) instead")
        return index_ops.setitem(obj, index, value)
    obj[index] = value
    return obj


def operand(x):
    """The left side of ``x op= v`` as the operation reads it: a Parameter's value as it is now (an Identity
    node), so that the gradient of ``x * v`` sees the value from before the write that follows."""
    return array_ops.Identity()(x) if state.tracer is not None and isinstance(x, Parameter) else x


def augmented(target, result):
    """What ``x op= v`` leaves in ``x``: ``result``. When ``x`` held a Parameter, MindSpore's graph also writes
    the result into it (after ``a = self.w; a += 1``, ``self.w`` has grown by 1: an Assign node)."""
    if state.tracer is not None and isinstance(target, Parameter) and isinstance(result, Tensor):
        array_ops.assign(target, result)
    return result


def condition(c):
    """An ``if`` condition. One computed from constants alone (Tensor attributes, literals) is a
    constant condition: computed now, it picks its branch while compiling, as MindSpore folds such constants
    (the branches may then differ in shape). Any other tensor condition stays a variable condition."""
    if isinstance(c, Tensor) and c._data is None:
        known = _constant_array(c._sym, {})
        if known is not None:
            return Tensor(known)
    return c


def _constant_array(v, memo):
    """The array of graph value ``v`` if it depends on constants only (through deterministic ops), else None."""
    if v not in memo:
        memo[v] = None
        if v.kind == ValueKind.CONST:
            memo[v] = v.array
        elif v.kind == ValueKind.NODE:
            prim = v.node.prim
            if prim.deterministic and not (prim.side_effect or prim.runs_on_host or prim.subgraphs or prim.parts):
                args = [_constant_array(a, memo) if type(a) is Value else a for a in v.node.inputs]
                if all(a is not None for a, x in zip(args, v.node.inputs) if type(x) is Value):
                    memo[v] = prim.compute(*args)
    return memo[v]
