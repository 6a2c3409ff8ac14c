#!/usr/bin/env python
"""Turn the lessons in lessons/ (jupytext percent files) into executed notebooks in notebooks/.

Each lesson is an ordinary Python file: code cells start with ``# %%``, markdown cells with
``# %% [markdown]``; ruff checks them like the rest of the code. This script reads each one with
jupytext, runs it with nbclient in a fresh kernel (so every stored output is real and nbval can
check it later) and writes ``notebooks/<same name>.ipynb``. Run it through the Makefile::

    make lessons                                         # rebuild and execute every lesson
    .venv/bin/python scripts/build_notebooks.py 03 04    # only lessons whose names start with 03 or 04
    .venv/bin/python scripts/build_notebooks.py --no-execute

Conventions:
- every lesson seeds with ``ms.set_seed`` first and imports only mslab's public API;
- a code cell whose output legitimately varies (pictures drawn by Graphviz, training losses after
  many float32 steps, widgets' live state) starts with ``# NBVAL_IGNORE_OUTPUT``;
- a line that uses something only mslab has ends with the comment ``# mslab only``, and a cell made only of such
  things starts with ``# mslab only (the whole cell)``: without them a lesson runs on MindSpore 2.10
  (tests/project/test_lessons_mindspore_part.py checks it);
- file names and line numbers of mslab's own sources in the IR text are masked for nbval by
  tests/nbval_sanitize.cfg, so editing the library does not invalidate the lessons.
"""
import argparse
import os
import time
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ROOT / "lessons"
NOTEBOOKS = ROOT / "notebooks"
KERNEL = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


def build(path):
    """The notebook of one lesson file, with stable cell ids (so rebuilds diff cleanly)."""
    nb = jupytext.read(path, fmt="py:percent")
    nb.metadata = {"kernelspec": dict(KERNEL), "language_info": {"name": "python"}}
    stem = path.name.split("_", 1)[0]
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"l{stem}-{i:02d}"
        cell.metadata = {}
    nbformat.validate(nb)
    return nb


def execute(nb):
    """Run the notebook in a fresh kernel started in notebooks/, importing this checkout's mslab."""
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    # No saved widget state: a notebook viewed without a kernel (nbconvert HTML, a notebook viewer)
    # then falls back to each widget's static text/html picture or table, which works offline,
    # instead of an empty placeholder waiting for widget code from the network.
    client = NotebookClient(nb, timeout=300, kernel_name=KERNEL["name"], record_timing=False,
                            store_widget_state=False, resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()
    for cell in nb.cells:
        cell.metadata.pop("execution", None)  # timing metadata changes on every run and means nothing


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("only", nargs="*", help="build only lessons whose file names start with these prefixes")
    parser.add_argument("--no-execute", action="store_true", help="write the notebooks without running them")
    args = parser.parse_args(argv)
    NOTEBOOKS.mkdir(exist_ok=True)
    for source in sorted(LESSONS.glob("[0-9][0-9]_*.py")):
        if args.only and not any(source.name.startswith(p) for p in args.only):
            continue
        target = NOTEBOOKS / source.with_suffix(".ipynb").name
        t0 = time.perf_counter()
        nb = build(source)
        if not args.no_execute:
            execute(nb)
        nbformat.write(nb, target)
        print(f"built {target.relative_to(ROOT)} in {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
