"""The plain engine stays small: a budget of code lines per engine layer, as tinygrad keeps one for its core.

A code line is a line holding code: blank lines, comments and docstrings do not count (they are what a
reader is meant to read; the budget is on what they have to read *through*). The budgets are stated in the
README (section "How big the engine is"); this test keeps the two in agreement.
"""
import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# layer -> (folder under mslab/, budget in code lines). The plain path is core .. runtime; mslab/fast is the
# speed layer, kept on its own budget so speed-ups cannot creep back into the plain path unnoticed.
BUDGETS = {
    # round 4: MindSpore's context keys, tensor hooks, the in-place methods, Tensor.strides; MindSpore's repr rules
    "core": ("core", 1800),
    "ir": ("ir", 1100),  # round 4: liveness on the AST, returns inside loops
    "ops": ("ops", 6200),
    "autodiff": ("autodiff", 1400),  # round 4: backward hooks, recursive graphs, Parameters through control flow
    "runtime": ("runtime", 800),
    "fast (speed layer)": ("fast", 750),
}


def _docstring_lines(tree):
    """Line numbers of every module, class and function docstring in ``tree``."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                lines.update(range(first.lineno, first.end_lineno + 1))
    return lines


def code_lines(path):
    """The number of lines of ``path`` that hold code (not blank, not only a comment, not a docstring)."""
    source = path.read_text(encoding="utf-8")
    skip = _docstring_lines(ast.parse(source))
    lines = set()
    ignored = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
               tokenize.ENCODING, tokenize.ENDMARKER)
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in ignored:
            lines.update(n for n in range(tok.start[0], tok.end[0] + 1) if n not in skip)
    return len(lines)


def layer_size(folder):
    return sum(code_lines(p) for p in sorted((ROOT / "mslab" / folder).rglob("*.py")))


def test_code_lines_counts_code_only(tmp_path):
    f = tmp_path / "m.py"
    f.write_text('"""Doc.\n\nMore doc."""\n# a comment\n\nx = 1  # trailing\n\n\ndef f():\n    """Doc."""\n'
                 '    return (x +\n            1)\n')
    assert code_lines(f) == 4  # x = 1; def f(); the two lines of the return


@pytest.mark.parametrize("layer", list(BUDGETS))
def test_layer_within_budget(layer):
    folder, budget = BUDGETS[layer]
    size = layer_size(folder)
    assert size <= budget, (f"mslab/{folder} has {size} code lines, over its budget of {budget}: make the plain path "
                            f"smaller (or, if it must grow, raise the budget here and in the README, and say why)")


def test_readme_states_the_budgets():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    stated = dict(re.findall(r"^\| `mslab/(\w+)/` \| [^|]* \| (\d+) \|", readme, flags=re.M))
    assert stated == {folder: str(budget) for folder, budget in BUDGETS.values()}
