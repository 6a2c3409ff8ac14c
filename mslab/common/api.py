"""``mindspore.common.api``: ``jit``, and the graph executor that MindSpore's own tests drive by hand.

``_cell_graph_executor.compile(net, *inputs)`` compiles ``net``'s ``construct`` for these inputs as a GRAPH-mode
call ``net(*inputs)`` does (``mslab.runtime.cell_call.compile_call``), whatever the current mode, and returns
``(phase, newly_compiled)`` as MindSpore 2.10 does (the phase name is opaque there too);
``_cell_graph_executor(net, *inputs, phase="predict")`` runs the graph compiled under that phase.
``_pynative_executor.sync()`` waits for the device's pending work: mslab computes synchronously, so there
is none. The executors' other members raise NotInMslabYet.
"""
import contextlib
import weakref

from mslab.core import missing_names as _missing_names
from mslab.runtime import cell_call
from mslab.runtime.compiled import jit, jit_class, signature

__all__ = ["jit", "jit_class"]


class _CellGraphExecutor:
    """MindSpore's ``_CellGraphExecutor``: compiles a Cell's graph for given inputs, and runs it."""

    def __init__(self):
        # Cell -> {phase given: {input signature: full phase name}}; a Cell that goes takes its phases along
        self._phases = weakref.WeakKeyDictionary()

    def compile(self, obj, *args, phase="predict", **kwargs):
        """``(full phase name, whether a graph was compiled now)`` for ``obj(*args)`` in GRAPH mode."""
        if kwargs:
            raise TypeError(f"_cell_graph_executor.compile: mslab compiles a Cell's positional inputs only, got "
                            f"keyword arguments {sorted(kwargs)}")
        cache, construct = cell_call.graphs_of(obj)
        before = len(cache)
        with _guarded(obj, args):
            cache.get(construct, args)
        named = self._phases.setdefault(obj, {}).setdefault(phase, {})
        full = named.setdefault(signature(args), f"{phase}.{id(obj)}.{len(named)}")
        return full, len(cache) > before

    def has_compiled(self, phase="predict"):
        """Whether a graph was compiled under this full phase name."""
        return any(phase in named.values() for phases in self._phases.values() for named in phases.values())

    def __call__(self, obj, *args, phase="predict"):
        """Run the graph ``compile(obj, *args, phase=phase)`` made; a KeyError if there is none, as in MindSpore."""
        if phase not in self._phases.get(obj, {}):
            raise KeyError(f"{phase}.{id(obj)} graph is not exist.")
        with _guarded(obj, args):
            return cell_call.compile_call(obj, args).run(args)

    def __getattr__(self, name):
        raise _not_offered("_cell_graph_executor", name)


class _PyNativeExecutor:
    """MindSpore's ``_PyNativeExecutor``: only ``sync`` has a meaning in mslab."""

    def sync(self):
        """Wait for the device's pending operators: mslab runs each one before returning, so nothing waits."""

    def __getattr__(self, name):
        raise _not_offered("_pynative_executor", name)


def _not_offered(executor, name):
    return _missing_names.NotInMslabYet(f"mslab's `mindspore.common.api.{executor}` does not offer `{name}`: of "
                                        "MindSpore's executor internals, mslab has only the members this "
                                        "module's docstring lists", name=name)


def _guarded(cell, args):
    """The outermost call's context of a Cell call (numpy warnings off, input errors in words), if outermost."""
    guard = cell_call.guard(cell, args, True)
    return contextlib.nullcontext() if guard is None else guard


_cell_graph_executor = _CellGraphExecutor()
_pynative_executor = _PyNativeExecutor()

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
