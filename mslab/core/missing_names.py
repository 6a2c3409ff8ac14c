"""What ``mslab.nn.LSTM`` says when mslab lacks it: a clear error instead of a bare AttributeError.

Each public package of mslab sets ``__getattr__ = _missing_names.hook(globals())`` after its imports. Python calls a
module's ``__getattr__`` only when normal lookup fails (PEP 562), so names mslab has cost nothing. On a
miss the hook compares the name with MindSpore 2.10's public names (captured once from the real
package by ``scripts/capture_mindspore_names.py`` into ``mslab/_data/mindspore_2_10_names.json``,
read on the first miss so ``import mslab`` stays fast):

- MindSpore has it, mslab not yet -> :class:`NotInMslabYet`: "`mindspore.nn.LSTM` exists in
  MindSpore 2.10 but mslab does not implement it yet; see docs/api_coverage.md";
- MindSpore has not either -> AttributeError with a did-you-mean from :mod:`difflib`.

Both are AttributeErrors, so ``hasattr`` and ``getattr(m, name, default)`` behave as usual. A package's
submodules that ``import mslab`` does not load (``mslab.numpy``, ``mslab.context``) load on first
use: ``import mindspore as ms; ms.numpy.arange(3)`` works in MindSpore, which imports them eagerly.
"""
import functools
import importlib
import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "_data" / "mindspore_2_10_names.json"
COVERAGE_PAGE = "docs/api_coverage.md"


class NotInMslabYet(AttributeError):
    """A public MindSpore 2.10 name that mslab does not offer yet (an AttributeError, so hasattr works)."""


@functools.cache
def mindspore_names():
    """``{"mindspore.nn": {"Dense": "class", ...}, ...}``: MindSpore 2.10's public names per namespace."""
    return json.loads(DATA.read_text(encoding="utf-8"))["namespaces"]


def mindspore_namespace(module_name):
    """``mslab.nn.layer`` -> ``mindspore.nn.layer``: the MindSpore import path an mslab module mirrors."""
    return "mindspore" + module_name[len("mslab"):]


def suggestions(name, candidates):
    """Close spellings of ``name`` among ``candidates``: a case-insensitive match first, then difflib's."""
    import difflib  # only on a miss: importing it costs more than the rest of this module

    same_case = [c for c in candidates if c.lower() == name.lower()]
    return same_case or difflib.get_close_matches(name, candidates, n=3, cutoff=0.6)


def missing(module_globals, name):
    """The AttributeError for ``name`` missing from the module whose globals are ``module_globals``."""
    namespace = mindspore_namespace(module_globals["__name__"])
    theirs = mindspore_names().get(namespace, {})
    if name in theirs:
        return NotInMslabYet(f"`{namespace}.{name}` exists in MindSpore 2.10 but mslab does not implement it "
                             f"yet; see {COVERAGE_PAGE}", name=name)
    ours = [n for n in module_globals if not n.startswith("_")]
    close = suggestions(name, sorted(set(ours) | set(theirs)))
    hint = f"; did you mean {' or '.join(f'`{c}`' for c in close)}?" if close else ""
    return AttributeError(f"`{namespace}` has no attribute `{name}` (neither in MindSpore 2.10 nor in "
                          f"mslab){hint}", name=name)


def is_submodule_file(module_globals, name):
    """Whether ``name`` is a submodule of this package that is not imported yet."""
    return any((Path(p) / f"{name}.py").exists() or (Path(p) / name / "__init__.py").exists()
               for p in module_globals.get("__path__", ()))


def hook(module_globals):
    """A module-level ``__getattr__`` for the module with these globals (PEP 562)."""
    module_name = module_globals["__name__"]

    def __getattr__(name):
        if name.startswith("_"):  # dunders probed by Python, IPython, pickle: the usual quick answer
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}", name=name)
        if is_submodule_file(module_globals, name):
            return importlib.import_module(f"{module_name}.{name}")
        raise missing(module_globals, name)

    return __getattr__
