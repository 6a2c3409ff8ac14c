"""Capture MindSpore's module tree, once, into ``mslab/_data/mindspore_2_10_modules.json`` (paths) and
``mslab/_data/mindspore_2_10_module_names.json`` (their names).

Run with the interpreter that has the real MindSpore (never a dependency of mslab), from outside the repo::

    cd /tmp && /work/ms-venv/bin/python /path/to/mslab/scripts/capture_mindspore_modules.py

Every module ``pkgutil.walk_packages`` finds under ``mindspore`` whose dotted path has no private part
(``mindspore.ops.function.array_func`` yes, ``mindspore._extends.parse`` no), plus the private modules
MindSpore's own tests import (``PRIVATE_MODULES``), is imported; a module that does not import on the CPU
build is left out. The first file records each path and whether it is a package (small: ``import mslab``
reads it), and the keys ``set_context`` accepts; the second, each module's names: ``__all__`` where
present, else the public names whose object MindSpore defines (the rule of
``scripts/capture_mindspore_names.py``), plus the private names MindSpore's tests import
(``PRIVATE_NAMES``). Each name carries its *homes*: the namespaces of ``mindspore_2_10_names.json`` that
offer the very same object under the same name (``array_func.concat`` is ``mindspore.ops.concat``), which
is where mslab looks the name up (``mslab/module_tree.py``).
"""
import importlib
import inspect
import json
import pkgutil
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAMES = ROOT / "mslab" / "_data" / "mindspore_2_10_names.json"
OUT = ROOT / "mslab" / "_data" / "mindspore_2_10_modules.json"
OUT_NAMES = ROOT / "mslab" / "_data" / "mindspore_2_10_module_names.json"

# Private modules that MindSpore's operator tests import (`from mindspore.ops.operations import _grad_ops as G`).
PRIVATE_MODULES = [
    "mindspore._checkparam", "mindspore.ops._primitive_cache",
    "mindspore.ops.operations._grad_ops", "mindspore.ops.operations._inner_ops",
    "mindspore.ops.operations._sequence_ops", "mindspore.ops.operations._scalar_ops",
    "mindspore.ops.operations._quant_ops", "mindspore.ops.operations._rl_inner_ops",
    "mindspore.ops.operations._embedding_cache_ops", "mindspore.ops.operations._ocr_ops",
    "mindspore.ops.operations._csr_ops", "mindspore.ops.operations._sparse_grad_ops",
    "mindspore.ops.operations._thor_ops", "mindspore.ops.operations._map_tensor_ops",
]
# Private names that MindSpore's tests import from public modules.
PRIVATE_NAMES = {
    "mindspore.common.api": ["_cell_graph_executor", "_pynative_executor", "_CellGraphExecutor", "_JitExecutor"],
    "mindspore.common.parameter": ["_Buffer"],
    "mindspore.common.tensor": ["_TensorMeta"],
    "mindspore.ops.primitive": ["_run_op"],
    "mindspore.ops.composite.base": ["_Grad"],
}


def kind(obj):
    if isinstance(obj, types.ModuleType):
        return "module"
    if inspect.isclass(obj):
        return "class"
    return "function" if callable(obj) else "value"


def from_mindspore(obj):
    if isinstance(obj, types.ModuleType):
        return obj.__name__.startswith("mindspore")
    owner = getattr(obj, "__module__", None) if (inspect.isclass(obj) or callable(obj)) else type(obj).__module__
    return isinstance(owner, str) and owner.startswith("mindspore")


def names_of(module):
    """The module's public names (``__all__`` first, else MindSpore's own objects in ``dir()``); dunders
    (``functional_overload.__add__``) are Python's protocol, not names to import."""
    listed = [n for n in dict.fromkeys(getattr(module, "__all__", []))
              if isinstance(n, str) and not n.startswith("__") and hasattr(module, n)]
    if listed:
        return listed
    return [n for n in dir(module) if not n.startswith("_") and from_mindspore(getattr(module, n))]


def module_paths(mindspore):
    found = {m.name: m.ispkg for m in pkgutil.walk_packages(mindspore.__path__, "mindspore.", onerror=lambda n: None)}
    public = [n for n in found if not any(p.startswith("_") for p in n.split("."))]
    return ["mindspore"] + sorted(public + [m for m in PRIVATE_MODULES if m in found])


def load(path):
    """The module at ``path``: imported, or an attribute of its parent (``mindspore.dataset.config``)."""
    try:
        return importlib.import_module(path)
    except ImportError:
        parent, _, attr = path.rpartition(".")
        if isinstance(getattr(sys.modules.get(parent), attr, None), types.ModuleType):
            return getattr(sys.modules[parent], attr)
        print(f"skipped {path}: not importable", file=sys.stderr)
        return None
    except Exception as e:  # noqa: BLE001 -- a module the CPU build cannot import is not part of its tree
        print(f"skipped {path}: {type(e).__name__}: {e}"[:200], file=sys.stderr)
        return None


def context_keys():
    """The keys ``set_context`` and ``get_context`` of MindSpore 2.10 accept (any other: ValueError), the latter
    with its value on a fresh CPU process.

    Read from its context object the way its ``set_context`` looks a key up: a setter, a public
    ``ms_ctx_param`` member or a data attribute; less the keys it sends to ``ascend_config`` (an error), plus
    the deprecated keys it skips with a warning. The keys it sends to ``ascend_config`` are listed apart.
    """
    from mindspore import context

    ctx = context._context()
    params = {k for k in context.ms_ctx_param.__members__ if not k.startswith("_")}
    attributes = {k for k in dir(ctx) if not k.startswith("_") and k != "setters" and not callable(getattr(ctx, k))}

    def refused(key):
        try:
            context._check_key(key)
        except ValueError:
            return True
        return False

    settable = {k for k in set(ctx.setters) | params | attributes if not refused(k)}
    settable |= {"enable_sparse", "auto_tune_mode", "enable_auto_mixed_precision"}
    defaults = {k: context.get_context(k) for k in sorted(params | attributes)}
    return {"set_context": sorted(settable), "get_context": {k: v for k, v in defaults.items() if is_json(v)},
            "through_ascend_config": sorted(k for k in params if refused(k))}


def is_json(value):
    try:
        json.dumps(value)
    except TypeError:
        return False
    return True


def main():
    import mindspore

    homes = {ns: load(ns) for ns in json.loads(NAMES.read_text(encoding="utf-8"))["namespaces"]}
    packages, modules = {}, {}
    for path in module_paths(mindspore):
        module = load(path)
        if module is None:
            continue
        entry = {}
        for name in names_of(module) + [n for n in PRIVATE_NAMES.get(path, []) if hasattr(module, n)]:
            obj = getattr(module, name)
            where = [ns for ns, m in homes.items() if ns != path and m is not None and getattr(m, name, None) is obj]
            if kind(obj) == "module":
                where = [obj.__name__]
            entry[name] = [kind(obj)] + where
        packages[path] = hasattr(module, "__path__")
        modules[path] = dict(sorted(entry.items()))
    about = {"mindspore_version": mindspore.__version__, "made_by": "scripts/capture_mindspore_modules.py"}
    index = {**about, "format": "module path -> whether it is a package", "context_keys": context_keys(),
             "packages": packages}
    OUT.write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    # one line per module: the file stays readable and its diffs small
    lines = [f" {json.dumps(path)}: {json.dumps(names, separators=(',', ':'))}" for path, names in modules.items()]
    head = json.dumps({**about, "format": "module path -> {name: [kind, home namespace, ...]}"})[:-1]
    OUT_NAMES.write_text(head + ', "modules": {\n' + ",\n".join(lines) + "\n}}\n", encoding="utf-8")
    total = sum(len(m) for m in modules.values())
    print(f"{len(modules)} modules, {total} names -> {OUT_NAMES.name}", file=sys.stderr)


if __name__ == "__main__":
    main()
