"""Capture MindSpore's public names, once, into ``mslab/_data/mindspore_2_10_names.json``.

Run with the interpreter that has the real MindSpore (never a dependency of mslab)::

    /work/ms-venv/bin/python scripts/capture_mindspore_names.py

For each namespace below, a public name (no leading underscore) is one in the module's ``__all__``
that can be fetched, or one in ``dir()`` whose object MindSpore itself defines (a class,
function or value from a ``mindspore`` module, or a ``mindspore`` submodule) -- so ``np`` or ``os``
imported by a MindSpore module are left out. Each name is stored with its kind (class, function,
module or value); mslab reads the file to say "exists in MindSpore 2.10 but not in mslab yet" and
``scripts/make_api_coverage.py`` builds docs/api_coverage.md from it.
"""
import importlib
import inspect
import json
import sys
import types
from pathlib import Path

NAMESPACES = [
    "mindspore", "mindspore.ops", "mindspore.ops.operations", "mindspore.ops.functional",
    "mindspore.ops.composite", "mindspore.nn", "mindspore.nn.layer", "mindspore.nn.loss",
    "mindspore.nn.optim", "mindspore.nn.wrap", "mindspore.nn.metrics", "mindspore.nn.learning_rate_schedule",
    "mindspore.common", "mindspore.common.dtype", "mindspore.common.initializer", "mindspore.context",
    "mindspore.dataset", "mindspore.dataset.config", "mindspore.dataset.vision", "mindspore.dataset.transforms",
    "mindspore.train", "mindspore.train.callback", "mindspore.train.serialization", "mindspore.train.metrics",
    "mindspore.amp", "mindspore.communication", "mindspore.communication.management", "mindspore.numpy",
    "mindspore.mindrecord", "mindspore.mint", "mindspore.mint.nn", "mindspore.mint.nn.functional",
]
OUT = Path(__file__).resolve().parents[1] / "mslab" / "_data" / "mindspore_2_10_names.json"


def load(namespace):
    """The module a namespace names: imported, or an attribute of its parent (``mindspore.dataset.config``)."""
    try:
        return importlib.import_module(namespace)
    except ImportError:
        parent, _, attr = namespace.rpartition(".")
        return getattr(load(parent), attr)


def kind(obj):
    if isinstance(obj, types.ModuleType):
        return "module"
    if inspect.isclass(obj):
        return "class"
    if callable(obj):
        return "function"
    return "value"


def from_mindspore(obj):
    if isinstance(obj, types.ModuleType):
        return obj.__name__.startswith("mindspore")
    owner = getattr(obj, "__module__", None) if (inspect.isclass(obj) or callable(obj)) else type(obj).__module__
    return isinstance(owner, str) and owner.startswith("mindspore")


def public_names(module):
    names = {}
    for name in dict.fromkeys(getattr(module, "__all__", [])):
        if not name.startswith("_") and hasattr(module, name):
            names[name] = kind(getattr(module, name))
    for name in dir(module):
        if name.startswith("_") or name in names:
            continue
        obj = getattr(module, name)
        if from_mindspore(obj):
            names[name] = kind(obj)
    return dict(sorted(names.items()))


def main():
    import mindspore

    data = {"mindspore_version": mindspore.__version__,
            "made_by": "scripts/capture_mindspore_names.py",
            "namespaces": {ns: public_names(load(ns)) for ns in NAMESPACES}}
    OUT.parent.mkdir(exist_ok=True)
    tmp = OUT.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    tmp.replace(OUT)
    total = sum(len(v) for v in data["namespaces"].values())
    print(f"{total} names in {len(NAMESPACES)} namespaces -> {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
