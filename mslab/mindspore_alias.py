"""``import mindspore`` loading mslab: the import alias of ``python -m mslab run`` and the "MindSpore (mslab)" kernel.

MindSpore's tutorials and a learner's own scripts say ``import mindspore``, ``from mindspore import nn``. Run
through ``python -m mslab run script.py`` (or in the Jupyter kernel "MindSpore (mslab)", which ``make lab``
installs), every import of ``mindspore`` or ``mindspore.<path>`` gives the module ``mslab`` or ``mslab.<path>``
itself, so the code runs unchanged on mslab. It is an import hook (a PEP 451 meta path finder) installed in that
process only: no package named ``mindspore`` is put on the path, so a real MindSpore installed beside mslab is
never shadowed in any other process.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Any, Sequence

ALIAS, TARGET = "mindspore", "mslab"


class MindSporeAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Resolves ``mindspore`` and ``mindspore.<path>`` to the modules ``mslab`` and ``mslab.<path>``."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname == ALIAS or fullname.startswith(ALIAS + "."):
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(TARGET + spec.name[len(ALIAS):])  # the very module: one mslab, two names

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module was imported under its own name already."""


def install() -> None:
    """Make ``import mindspore`` load mslab in this process, from now on (once; a second call does nothing)."""
    imported: Any = sys.modules.get(ALIAS)
    if imported is not None and getattr(imported, "__name__", None) != TARGET:
        raise ImportError("a real MindSpore is already imported in this process: aliasing `mindspore` to mslab now "
                          "would mix the two; start a fresh process (python -m mslab run, or the kernel "
                          "'MindSpore (mslab)')")
    if not any(isinstance(f, MindSporeAlias) for f in sys.meta_path):
        sys.meta_path.insert(0, MindSporeAlias())


def installed() -> bool:
    """Whether ``import mindspore`` loads mslab in this process."""
    return any(isinstance(f, MindSporeAlias) for f in sys.meta_path)
