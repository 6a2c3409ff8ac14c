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

MindSpore's module tree (``scripts/capture_mindspore_modules.py``: every module path of MindSpore 2.10 and
its names) adds two things, for the module paths ``mslab/module_tree.py`` serves:

- a name MindSpore's module offers as the very object of a namespace mslab mirrors
  (``mindspore.ops.function.array_func.concat`` is ``mindspore.ops.concat``) is mslab's object of that name;
- ``from mslab.ops.operations import Invert`` (an import, not a use) gives a :class:`MissingName` that raises
  the NotInMslabYet error when it is used, so a file importing many names still runs the parts mslab has.
"""
import dis
import functools
import importlib
import json
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "_data" / "mindspore_2_10_names.json"
TREE = DATA.with_name("mindspore_2_10_modules.json")  # module path -> is a package (small: read at import)
TREE_NAMES = DATA.with_name("mindspore_2_10_module_names.json")  # module path -> {name: [kind, home, ...]}
COVERAGE_PAGE = "docs/api_coverage.md"
# The instructions of `from m import name` and `from m import *` (Python 3.12 runs the latter as an intrinsic call)
_IMPORTS = {dis.opmap[op] for op in ("IMPORT_FROM", "IMPORT_STAR", "CALL_INTRINSIC_1") if op in dis.opmap}


class NotInMslabYet(AttributeError):
    """A public MindSpore 2.10 name that mslab does not offer yet (an AttributeError, so hasattr works)."""


@functools.cache
def mindspore_names():
    """``{"mindspore.nn": {"Dense": "class", ...}, ...}``: MindSpore 2.10's public names per namespace."""
    return json.loads(DATA.read_text(encoding="utf-8"))["namespaces"]


@functools.cache
def _tree_index():
    return json.loads(TREE.read_text(encoding="utf-8"))


def module_tree():
    """``{"mindspore.ops.function": True, "mindspore.common.api": False, ...}``: MindSpore 2.10's module
    paths, each with whether it is a package."""
    return _tree_index()["packages"]


def context_keys():
    """``{"set_context": [key, ...], "get_context": {key: value on a fresh CPU process},
    "through_ascend_config": [key, ...]}``: the context keys MindSpore 2.10 accepts, and those it refuses."""
    return _tree_index()["context_keys"]


@functools.cache
def module_names():
    """``{"mindspore.common.api": {"jit": ["function", "mindspore", ...], ...}, ...}``: each module's names,
    with their kind and the namespaces that offer the same object under the same name."""
    return json.loads(TREE_NAMES.read_text(encoding="utf-8"))["modules"]


def mindspore_namespace(module_name):
    """``mslab.nn.layer`` -> ``mindspore.nn.layer``: the MindSpore import path an mslab module mirrors."""
    return "mindspore" + module_name[len("mslab"):]


def suggestions(name, candidates):
    """Close spellings of ``name`` among ``candidates``: a case-insensitive match first, then difflib's."""
    import difflib  # only on a miss: importing it costs more than the rest of this module

    same_case = [c for c in candidates if c.lower() == name.lower()]
    return same_case or difflib.get_close_matches(name, candidates, n=3, cutoff=0.6)


def not_in_mslab(owner, name):
    """The NotInMslabYet error for MindSpore's ``owner.name``."""
    return NotInMslabYet(f"`{owner}.{name}` exists in MindSpore 2.10 but mslab does not implement it yet; "
                         f"see {COVERAGE_PAGE}", name=name)


def missing(module_globals, name):
    """The AttributeError for ``name`` missing from the module whose globals are ``module_globals``."""
    namespace = mindspore_namespace(module_globals["__name__"])
    theirs = {**module_names().get(namespace, {}), **mindspore_names().get(namespace, {})}
    if name in theirs:
        return not_in_mslab(namespace, name)
    ours = [n for n in module_globals if not n.startswith("_")]
    close = suggestions(name, sorted(set(ours) | set(theirs)))
    hint = f"; did you mean {' or '.join(f'`{c}`' for c in close)}?" if close else ""
    return AttributeError(f"`{namespace}` has no attribute `{name}` (neither in MindSpore 2.10 nor in "
                          f"mslab){hint}", name=name)


class MissingName:
    """What ``from mslab.x import Name`` gives for a MindSpore name mslab lacks: the import works, a use
    (a call, an attribute, a subclass's instance) raises the NotInMslabYet error it carries."""

    def __init__(self, error: NotInMslabYet) -> None:
        object.__setattr__(self, "error", error)

    def __repr__(self) -> str:
        return f"<{self.error.args[0].split('`')[1]}: not in mslab yet>"

    def __call__(self, *args, **kwargs):
        raise self.error

    def __getattr__(self, name):
        if name.startswith("__"):  # Python's own probes (copy, pickle, inspect) get the usual answer
            raise AttributeError(name)
        raise self.error

    def __mro_entries__(self, bases):
        """``class Net(P.Invert)`` still defines the class; making an instance raises."""
        error = self.error

        def __new__(cls, *args, **kwargs):
            raise error

        return (type(self.error.name, (), {"__new__": __new__, "__doc__": str(error)}),)


def resolve(namespace, name):
    """mslab's object for MindSpore's ``namespace.name`` when MindSpore's object is one mslab offers
    elsewhere under the same name (a module, or a name of a namespace mslab mirrors); else None."""
    entry = module_names().get(namespace, {}).get(name)
    if entry is None:
        return None
    kind, *homes = entry
    for home in homes:
        try:
            module = importlib.import_module("mslab" + home[len("mindspore"):])
        except ImportError:
            continue
        if kind == "module":
            return module
        if name in vars(module):  # its own names only: a hook of its own would look the name up here again
            return vars(module)[name]
    return None


def imported_by_name(frame):
    """Whether ``frame`` is running ``from module import name`` (or ``import *``) right now."""
    return frame is not None and frame.f_code.co_code[frame.f_lasti] in _IMPORTS


def is_submodule_file(module_globals, name):
    """Whether ``name`` is a submodule of this package that is not imported yet."""
    return any((Path(p) / f"{name}.py").exists() or (Path(p) / name / "__init__.py").exists()
               for p in module_globals.get("__path__", ()))


def hook(module_globals):
    """A module-level ``__getattr__`` for the module with these globals (PEP 562)."""
    module_name = module_globals["__name__"]

    namespace = mindspore_namespace(module_name)

    def __getattr__(name):
        if name.startswith("__") or (name.startswith("_") and (name.endswith("_") or name not in
                                                               module_names().get(namespace, {}))):
            # dunders and private names probed by Python, IPython, pickle: the usual quick answer
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}", name=name)
        if is_submodule_file(module_globals, name):
            return importlib.import_module(f"{module_name}.{name}")
        found = resolve(namespace, name)
        if found is None and f"{namespace}.{name}" in module_tree():  # a submodule mslab has no file for
            found = importlib.import_module(f"{module_name}.{name}")
        if found is not None:
            module_globals[name] = found  # found once: later lookups are plain ones
            return found
        error = missing(module_globals, name)
        if isinstance(error, NotInMslabYet) and imported_by_name(sys._getframe(1)):
            return MissingName(error)
        raise error

    return __getattr__
