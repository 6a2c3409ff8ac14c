"""A lesson's MindSpore part: its code cells without the lines marked ``# mslab only``; what in it is not MindSpore.

Lessons promise (lesson 00): drop the lines that end with ``# mslab only`` and the rest runs on MindSpore. A cell
whose first comment lines include ``# mslab only (the whole cell)`` is dropped whole. What remains must not use
anything only mslab has:

* a module only mslab has (``mslab.viz``, ``mslab.widgets``, ``mslab.lab``, the engine's insides);
* a name MindSpore 2.10 does not have in the same namespace (``ms.trace``, ``ms.record``, ``ds.digits_path``),
  read from the names captured from MindSpore 2.10 (``mslab/_data/mindspore_2_10_names.json``);
* a variable made only on dropped lines (``graph = ms.trace(...)  # mslab only``, then ``graph.nodes``);
* an attribute only mslab's objects have (the transfer counters, a traced graph's ``meta``), or a
  ``-graph.meta`` file, which mslab writes as text and MindSpore as binary protobuf.

``python tests/project/lesson_mindspore_part.py 00`` prints lesson 00's MindSpore part with ``mslab`` spelled
``mindspore``: a script to run where MindSpore is installed.
"""
from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "lessons").glob("[0-9][0-9]_*.py"))
NAMES = json.loads((ROOT / "mslab" / "_data" / "mindspore_2_10_names.json").read_text())["namespaces"]

LINE_MARK = re.compile(r"#\s*mslab only\b")
CELL_MARK = re.compile(r"^#\s*mslab only \(the whole cell\)")
MSLAB_ONLY_MODULES = {"viz", "widgets", "lab", "ir", "runtime", "autodiff", "core", "fast", "_data"}
MSLAB_ONLY_ATTRIBUTES = {"transfer_counts", "meta", "as_dict"}


def code_cells(path: Path) -> list[tuple[int, list[str]]]:
    """The code cells of a jupytext percent file: (line number of the cell's first line, its lines)."""
    cells: list[tuple[int, list[str]]] = []
    kind, start, lines = None, 0, []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.startswith("# %%"):
            if kind == "code":
                cells.append((start, lines))
            kind, start, lines = ("markdown" if "[markdown]" in line else "code"), number + 1, []
        else:
            lines.append(line)
    if kind == "code":
        cells.append((start, lines))
    return cells


def _whole_cell_dropped(lines: list[str]) -> bool:
    for line in lines:
        if not line.startswith("#"):
            return False
        if CELL_MARK.match(line):
            return True
    return False


def split(path: Path) -> tuple[list[tuple[int, str]], list[str]]:
    """(kept cells as (first line, source), dropped lines): the lesson with its mslab-only lines taken out."""
    kept, dropped = [], []
    for start, lines in code_cells(path):
        if _whole_cell_dropped(lines):
            dropped.extend(lines)
            continue
        out = []
        for line in lines:
            if LINE_MARK.search(line) and not line.lstrip().startswith("#"):
                dropped.append(line)
                out.append("")  # keep the line numbers
            else:
                out.append(line)
        kept.append((start, "\n".join(out)))
    return kept, dropped


_BOUND = [re.compile(p) for p in (
    r"^\s*import\s+[\w.]+\s+as\s+(\w+)", r"^\s*import\s+(\w+)", r"\bas\s+(\w+)", r"^\s*(?:def|class)\s+(\w+)",
    r"^\s*(\w+)\s*(?::[^=]*)?=(?!=)", r"^\s*for\s+(\w+)")]


def names_bound_by_lines(lines: list[str]) -> set[str]:
    """Names a dropped line makes (assignments, imports, ``as`` targets, defs); whole cells are parsed."""
    source = "\n".join(lines)
    try:
        return _bound(ast.parse(source))
    except SyntaxError:
        pass
    names = set()
    for line in lines:
        m = re.match(r"^\s*from\s+\S+\s+import\s+(.+)", line)
        if m:
            names |= {part.split(" as ")[-1].strip(" ()") for part in m.group(1).split("#")[0].split(",")}
        for pattern in _BOUND:
            names |= set(pattern.findall(line))
    return names - {""}


def _bound(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Global):
            names |= set(node.names)
    return names


def _mindspore_module(module: str) -> str:
    return "mindspore" + module[len("mslab"):]


def _only_mslab_import(module: str, name: str | None) -> bool:
    """Whether ``from module import name`` (or ``import module``) reaches something only mslab has."""
    parts = module.split(".")
    if parts[0] != "mslab":
        return False
    if len(parts) > 1 and parts[1] in MSLAB_ONLY_MODULES:
        return True
    space = NAMES.get(_mindspore_module(module))
    return space is not None and name is not None and name not in space


def findings(path: Path) -> list[str]:
    """What the lesson's MindSpore part uses that MindSpore 2.10 does not have, one sentence each."""
    kept, dropped = split(path)
    trees = []
    problems = []
    for start, source in kept:
        try:
            trees.append((start, ast.parse(source)))
        except SyntaxError as e:
            problems.append(f"{path.name}:{start + (e.lineno or 1) - 1}: the cell does not parse once its mslab-only "
                            f"lines are dropped ({e.msg})")
    kept_bound = set().union(*(_bound(tree) for _, tree in trees)) if trees else set()
    tainted = names_bound_by_lines(dropped) - kept_bound
    modules: dict[str, str] = {}  # alias -> mslab module it names
    for start, tree in trees:
        for node in ast.walk(tree):
            line = f"{path.name}:{start + getattr(node, 'lineno', 1) - 1}"
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.split(".")[0] == "mslab":
                        if _only_mslab_import(a.name, None):
                            problems.append(f"{line}: imports {a.name}, which only mslab has")
                        modules[a.asname or a.name.split(".")[0]] = a.name if a.asname else "mslab"
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "mslab":
                for a in node.names:
                    if _only_mslab_import(node.module, a.name):
                        problems.append(f"{line}: imports {a.name} from {node.module}, which MindSpore 2.10 lacks")
                    elif NAMES.get(_mindspore_module(node.module), {}).get(a.name) == "module":
                        modules[a.asname or a.name] = f"{node.module}.{a.name}"
    for start, tree in trees:
        for node in ast.walk(tree):
            line = f"{path.name}:{start + getattr(node, 'lineno', 1) - 1}"
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.endswith("graph.meta"):
                problems.append(f"{line}: reads {node.value}, which MindSpore writes as binary protobuf, not text")
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in tainted:
                problems.append(f"{line}: uses {node.id}, made only on lines marked # mslab only")
            elif isinstance(node, ast.Attribute):
                if node.attr in MSLAB_ONLY_ATTRIBUTES:
                    problems.append(f"{line}: reads .{node.attr}, which only mslab's objects have")
                elif isinstance(node.value, ast.Name) and node.value.id in modules and not node.attr.startswith("__"):
                    space = NAMES.get(_mindspore_module(modules[node.value.id]))
                    if node.attr in MSLAB_ONLY_MODULES or (space is not None and node.attr not in space):
                        problems.append(f"{line}: uses {node.value.id}.{node.attr}, which MindSpore 2.10 lacks")
    return sorted(dict.fromkeys(problems), key=lambda p: int(p.split(":")[1]))  # by line, each once


def mindspore_script(path: Path) -> str:
    """The lesson's MindSpore part as one script, ``mslab`` spelled ``mindspore``."""
    kept, _ = split(path)
    body = "\n\n".join(source for _, source in kept)
    return re.sub(r"\bmslab\b", "mindspore", body)


if __name__ == "__main__":
    for lesson in LESSONS:
        if lesson.name.startswith(tuple(sys.argv[1:])):
            print(mindspore_script(lesson))
