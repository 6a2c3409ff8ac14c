"""MindSpore's module paths in mslab: ``import mslab.ops.function.array_func`` works as in MindSpore 2.10.

MindSpore's module layout is part of its API: its own tests and advanced user code import from
``mindspore.common.api``, ``mindspore.ops.operations.math_ops``, ``mindspore.ops.function.array_func``...
mslab's files are laid out for reading, not after MindSpore's tree, so instead of hundreds of files that
re-export, one import hook (a PEP 451 meta path finder) serves every module path of MindSpore 2.10, as
captured from the real package into ``mslab/_data/mindspore_2_10_modules.json``
(``scripts/capture_mindspore_modules.py``):

- a path mslab has a file for is imported from that file, as always; the module also gets the missing-name
  hook (``mslab.core.missing_names.hook``) if it has none, and a ``__path__`` when MindSpore's module is a
  package (``mslab.ops.function`` is one file, MindSpore's a package), so that its submodules import;
- a path mslab has no file for becomes an *alias module*: an empty module whose names are looked up on first
  use. A name whose MindSpore object is the same as one of a namespace mslab mirrors (``array_func.concat``
  is ``mindspore.ops.concat``) is mslab's object of that name; another raises NotInMslabYet when used.

Importing this module installs the finder; ``import mslab`` does so first, before it imports the engine.
"""
import importlib.abc
import importlib.machinery
import sys
import types

from mslab.core import missing_names


class _KeepsItsNames(types.ModuleType):
    """A package whose name for a function is also the name of a submodule (``mslab.run_check`` is the function;
    ``mslab.run_check.run_check`` a module path): importing the submodule later keeps the function bound, as
    in MindSpore, where the package binds the function after importing the submodule."""

    def __setattr__(self, name, value):
        bound = vars(self).get(name)
        if isinstance(value, types.ModuleType) and bound is not None and not isinstance(bound, types.ModuleType):
            return
        super().__setattr__(name, value)


def _keep_parents_name(module, look_up=False):
    """Before Python binds ``module`` on its package: keep the package's own object of that name, if any.

    ``look_up``: also a name the package would find on first use (``mslab.common.lazy_inline`` is
    ``mslab.lazy_inline``, as MindSpore's is), which costs reading the name list (an alias module reads it anyway).
    """
    parent, _, child = module.__name__.rpartition(".")
    package = sys.modules.get(parent)
    if package is None:
        return
    bound = vars(package).get(child)
    if bound is None and look_up:
        entry = missing_names.module_names().get(missing_names.mindspore_namespace(parent), {}).get(child)
        bound = missing_names.resolve(missing_names.mindspore_namespace(parent), child) if entry and \
            entry[0] != "module" else None
        if bound is not None:
            vars(package)[child] = bound
    if bound is not None and not isinstance(bound, types.ModuleType) and type(package) is types.ModuleType:
        package.__class__ = _KeepsItsNames


class _MirrorLoader(importlib.abc.Loader):
    """Runs mslab's own file for a MindSpore module path, then gives the module what MindSpore's has."""

    def __init__(self, loader):
        self.loader = loader

    def __getattr__(self, name):  # get_source, get_filename, ...: inspect and linecache ask the loader
        return getattr(self.loader, name)

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        _keep_parents_name(module)
        self.loader.exec_module(module)
        if "__getattr__" not in vars(module):
            module.__getattr__ = missing_names.hook(vars(module))
        if missing_names.module_tree()[missing_names.mindspore_namespace(module.__name__)]:
            module.__dict__.setdefault("__path__", [])  # a package in MindSpore: its submodules are aliases


class _AliasLoader(importlib.abc.Loader):
    """Makes the alias module of a MindSpore path mslab has no file for."""

    def create_module(self, spec):
        return None  # Python's default: an empty module

    def exec_module(self, module):
        _keep_parents_name(module, look_up=True)
        path = missing_names.mindspore_namespace(module.__name__)
        module.__doc__ = (f"MindSpore's `{path}`: each name is mslab's object where mslab offers it, else "
                          f"NotInMslabYet on use ({__name__}).")
        module.__all__ = [n for n in missing_names.module_names().get(path, {}) if not n.startswith("_")]
        module.__getattr__ = missing_names.hook(vars(module))


class MindSporeModulePaths(importlib.abc.MetaPathFinder):
    """Finds ``mslab.<path>`` for every ``mindspore.<path>`` of MindSpore 2.10's module tree."""

    def find_spec(self, fullname, path, target=None):
        if not fullname.startswith("mslab."):
            return None
        tree = missing_names.module_tree()
        mindspore_path = missing_names.mindspore_namespace(fullname)
        if mindspore_path not in tree:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None:
            spec = importlib.machinery.ModuleSpec(fullname, _AliasLoader(), origin=f"alias of {mindspore_path}",
                                                  is_package=tree[mindspore_path])
            return spec
        if spec.loader is not None:
            spec.loader = _MirrorLoader(spec.loader)
        return spec


def is_alias(obj):
    """Whether ``obj`` is an alias module (a MindSpore path mslab has no file for)."""
    return isinstance(getattr(getattr(obj, "__spec__", None), "loader", None), _AliasLoader)


def install():
    """Put the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, MindSporeModulePaths) for f in sys.meta_path):
        sys.meta_path.insert(0, MindSporeModulePaths())


install()
