"""Where a node came from: the Cell scope path and the source line that created it."""
import linecache
import os
import sys
from types import CodeType

from mslab.core import state

# "Where a node came from" is the learner's line: the innermost frame outside the mslab package.
# A Dense inside the learner's LeNet points at ``x = self.fc1(x)`` in LeNet.construct, not at
# Dense's own matmul line; nodes made wholly inside library Cells (a loss, an optimizer) point at
# the learner's call that ran them. Which library Cell made a node is what its scope says.
_INTERNAL = (os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep,)


# (id(parent), id(child)) -> attribute name; checked on every use, so stale ids are harmless
_names: dict[tuple[int, int], str] = {}


def child_name(parent, child):
    """The attribute path under which ``parent`` holds ``child`` (class name if it is held elsewhere)."""
    cells = getattr(parent, "_cells", {})
    key = (id(parent), id(child))
    attr = _names.get(key)
    if attr is not None and cells.get(attr) is child:  # PYNATIVE asks once per op: no scan of a 400-Cell list
        return attr
    for attr, c in cells.items():
        if c is child:
            if len(_names) > 100_000:
                _names.clear()
            _names[key] = attr
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


_internal_code: dict[CodeType, bool] = {}  # code object -> whether it is engine-internal (asked once per function)
# (file, line number) -> the formatted source line (PYNATIVE records one per op it runs)
_lines: dict[tuple[str, int], str] = {}


def source_line():
    """``file.py:12  x = self.fc(x)``: the innermost line outside mslab, i.e. the learner's own code."""
    f = sys._getframe(2)
    internal = _internal_code
    while f is not None:
        code = f.f_code
        inside = internal.get(code)
        if inside is None:
            if len(internal) > 100_000:  # code made on the fly (exec, notebooks) must not pile up
                internal.clear()
            inside = internal[code] = code.co_filename.startswith(_INTERNAL)
        if not inside:
            break
        f = f.f_back
    if f is None:
        return ""
    key = (f.f_code.co_filename, f.f_lineno)
    text = _lines.get(key)
    if text is None:
        fn, line = key
        text = f"{short_file(fn)}:{line}  {linecache.getline(fn, line).strip()}"
        if not fn.startswith("<") and len(_lines) < 100_000:  # notebook cells change: never cache them
            _lines[key] = text
    return text


def short_file(path):
    """``model.py`` for files; ``cell`` for notebook cells, whose temporary file names change every run."""
    if "ipykernel_" in path or path.startswith("<ipython-input") or path.startswith("<"):
        return "cell"
    return os.path.basename(path)
