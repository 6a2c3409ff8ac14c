"""Where a node came from: the Cell scope path and the source line that created it."""
import linecache
import os
import sys

from mslab.runtime import state

_MSLAB = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Engine internals are never "where a node came from"; layer code in mslab/nn is (its construct line).
_INTERNAL = tuple(os.path.join(_MSLAB, d) + os.sep for d in ("ops", "ir", "runtime", "common", "viz", "widgets"))


def child_name(parent, child):
    """The attribute path under which ``parent`` holds ``child`` (class name if it is held elsewhere)."""
    for attr, c in getattr(parent, "_cells", {}).items():
        if c is child:
            return attr
    return type(child).__name__


def scope_path(cells=None):
    """``network/_backbone/fc1`` for the Cells now running (the outermost Cell is left out)."""
    cells = state.cells if cells is None else cells
    return "/".join(child_name(cells[i - 1], cells[i]) for i in range(1, len(cells)))


def cell_description():
    """``Cell 'LinearNet' at scope 'fc'`` for error messages, or '' outside any Cell."""
    if not state.cells:
        return ""
    inner = state.cells[-1]
    path = scope_path()
    return f" in Cell {type(inner).__name__}" + (f" (scope '{path}')" if path else "")


def source_line():
    """``file.py:12  x = self.fc(x)``: the innermost line outside the engine internals."""
    f = sys._getframe(2)
    while f is not None and f.f_code.co_filename.startswith(_INTERNAL):
        f = f.f_back
    if f is None:
        return ""
    fn = f.f_code.co_filename
    code = linecache.getline(fn, f.f_lineno).strip()
    return f"{_short_file(fn)}:{f.f_lineno}  {code}"


def _short_file(path):
    """``model.py`` for files; ``cell`` for notebook cells, whose temporary file names change every run."""
    if "ipykernel_" in path or path.startswith("<ipython-input") or path.startswith("<"):
        return "cell"
    return os.path.basename(path)
