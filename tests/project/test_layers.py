"""The engine's layers import downward only, with no cycles, and at the top of each module.

Reading mslab should teach how a framework is built, so its import graph is part of the design:

    core -> ir -> ops -> autodiff -> runtime -> fast -> MindSpore's API (nn, dataset, train, ...) -> lab

A module may import its own layer or any layer to its left. This test reads every module's ``ast``
(nothing is imported) and fails on an import that points up a layer, on a cycle between modules,
on an mslab import inside a function (allowed only for modules that pull in an optional dependency),
and on a module-level import placed after code.
"""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "mslab"

# (layer, module prefixes); the first match wins, so more specific prefixes come first.
LAYERS = [
    ("core", ["mslab.core"]),
    ("ir", ["mslab.ir"]),
    # MindSpore's `mindspore.ops` namespace also offers GradOperation (autodiff, above the ops layer):
    # the package __init__, `ops.composite` and `ops.functional` are API modules; the op families are the ops layer.
    ("api", ["mslab.ops.__init__", "mslab.ops.composite", "mslab.ops.functional", "mslab.ops.function"]),
    ("ops", ["mslab.ops"]),
    ("autodiff", ["mslab.autodiff"]),
    ("runtime", ["mslab.runtime"]),
    # the speed layer: plugs into the engine's hooks (mslab.core.hooks); mslab/__init__ installs it
    ("fast", ["mslab.fast"]),
    ("api", ["mslab.nn", "mslab.dataset", "mslab.train", "mslab.amp", "mslab.communication", "mslab.common",
             "mslab.context", "mslab.errors", "mslab.numpy", "mslab.mindrecord", "mslab.parallel",
             "mslab.log", "mslab.profiler", "mslab.mint", "mslab._checkparam", "mslab.experimental",
             "mslab.module_tree", "mslab.boost"]),
    ("lab", ["mslab.lab", "mslab.viz", "mslab.widgets", "mslab.testing"]),
    # running MindSpore code unchanged (python -m mslab run, the "MindSpore (mslab)" kernel): above everything
    ("top", ["mslab.__init__", "mslab.__main__", "mslab.mindspore_alias"]),
]
ORDER = ["core", "ir", "ops", "autodiff", "runtime", "fast", "api", "lab", "top"]

# Inside a function an mslab import is allowed only to keep an optional dependency out of `import mslab`.
LAZY_FOR_OPTIONAL_DEPENDENCY = {
    "mslab.lab.viz.loss_curve": "imports matplotlib",
}


def module_files():
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        yield ".".join(parts), path


MODULES = dict(module_files())  # "mslab.ops.__init__" for packages


def layer_of(module):
    for layer, prefixes in LAYERS:
        for p in prefixes:
            if module == p or module.startswith(p + "."):
                return layer
    raise AssertionError(f"{module} belongs to no layer: add it to LAYERS in {__file__}")


def resolve(name):
    """The module file an import of ``name`` loads (``mslab.ops`` -> ``mslab.ops.__init__``), or None."""
    if name in MODULES:
        return name
    if name + ".__init__" in MODULES:
        return name + ".__init__"
    return None


def imports_of(module, path):
    """``(imported module, line, inside a function, placed after code)`` for every mslab import."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module.rsplit(".", 1)[0] if not module.endswith(".__init__") else module[: -len(".__init__")]
    seen_code = False
    found = []

    def visit(node, in_function):
        nonlocal seen_code
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not in_function:
                seen_code = True
            if isinstance(child, ast.Import):
                for a in child.names:
                    found.append((a.name, child.lineno, in_function, seen_code and not in_function))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join(up + ([base] if base else []))
                for a in child.names:
                    # `from mslab.ops import math_ops` imports a module; `from mslab.ops import relu`, a name
                    target = base + "." + a.name if resolve(base + "." + a.name) else base
                    found.append((target, child.lineno, in_function, seen_code and not in_function))
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            visit(child, inner)

    visit(tree, False)
    out = []
    for name, line, in_function, late in found:
        target = resolve(name) if name.startswith("mslab") else None
        if target is not None and target != module:
            out.append((target, line, in_function, late))
    return out


EDGES = {m: imports_of(m, p) for m, p in MODULES.items()}


def test_every_module_has_a_layer():
    for m in MODULES:
        layer_of(m)


def test_imports_point_down_the_layers():
    upward = []
    for m, edges in EDGES.items():
        here = ORDER.index(layer_of(m))
        for target, line, _, _ in edges:
            there = layer_of(target)
            if ORDER.index(there) > here:
                upward.append(f"{MODULES[m].relative_to(ROOT.parent)}:{line}: {m} ({layer_of(m)}) imports "
                              f"{target} ({there})")
    assert not upward, "imports that go up a layer:\n" + "\n".join(upward)


def test_no_import_cycles():
    graph = {m: sorted({t for t, *_ in edges}) for m, edges in EDGES.items()}
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def strongconnect(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in graph:
        if v not in index:
            strongconnect(v)
    assert not cycles, "modules that import each other in a circle:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_imports_inside_functions_only_for_optional_dependencies():
    lazy = [f"{MODULES[m].relative_to(ROOT.parent)}:{line}: imports {t} inside a function"
            for m, edges in EDGES.items() for t, line, in_function, _ in edges
            if in_function and t not in LAZY_FOR_OPTIONAL_DEPENDENCY]
    assert not lazy, "\n".join(lazy)


def test_module_imports_come_before_code():
    late = [f"{MODULES[m].relative_to(ROOT.parent)}:{line}: imports {t} after code"
            for m, edges in EDGES.items() for t, line, _, after_code in edges if after_code]
    assert not late, "\n".join(late)


@pytest.mark.parametrize("optional", sorted(LAZY_FOR_OPTIONAL_DEPENDENCY))
def test_lazy_modules_exist(optional):
    assert optional in MODULES, f"{optional} is listed as lazily imported but does not exist"
