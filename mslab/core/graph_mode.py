"""GRAPH mode's entry point for gradient functions, which sit below the layer that compiles.

In GRAPH mode a Cell, a ``jit`` function or a gradient function called at top level is traced into a
graph, compiled once per input signature, and run. Compiling is ``mslab.runtime``'s job, and the
runtime sits above autodiff (it runs what autodiff derives). So ``GradOperation``'s gradient functions
call :func:`run_compiled` here, and ``mslab.runtime`` installs its compiler when it loads, as ``mslab.ops``
fills the op table.
"""

_compiler = None


def install(compiler):
    """Make ``compiler(owner, fn, args)`` the way a top-level GRAPH-mode call runs (``mslab.runtime`` calls this)."""
    global _compiler
    _compiler = compiler


def run_compiled(owner, fn, args):
    """``fn(*args)`` traced, compiled and run as a graph; the compiled graphs are kept on ``owner``."""
    if _compiler is None:
        raise RuntimeError("GRAPH mode needs mslab.runtime, which installs the compiler: import mslab first")
    return _compiler(owner, fn, args)
