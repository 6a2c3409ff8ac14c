"""What converted code calls (``__ms__`` in the code ``mslab.ir.frontend`` writes): control flow and JIT Fallback.

``__ms__.call(f, *args)`` converts the user's own functions the same way before calling them, so a
helper called from ``construct`` may branch on tensors too (as in MindSpore, which compiles what
construct calls).
"""
import sys

from mslab.autodiff.control_flow import UNDEFINED, and_, if_, ifexp, load, not_, or_, while_
from mslab.autodiff.fallback import host, print_, scalar
from mslab.ir import frontend

__all__ = ["UNDEFINED", "and_", "call", "host", "if_", "ifexp", "load", "not_", "or_", "print_", "scalar", "while_"]


def call(f, *args, **kwargs):
    """``f(*args, **kwargs)``, with ``f`` converted first when it is the user's own Python function."""
    if frontend.is_user_function(f):
        f = frontend.convert(f, sys.modules[__name__])
    return f(*args, **kwargs)


def converted(fn):
    """``fn`` with its source converted for GRAPH mode (itself when it has nothing to convert)."""
    return frontend.convert(fn, sys.modules[__name__])
