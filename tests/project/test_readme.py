"""The README's "A first taste" example runs as printed."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def first_taste_code() -> str:
    """Return the first ```python block after the "A first taste" heading of README.md."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    heading = re.search(r"^#+\s*A first taste\s*$", text, re.MULTILINE)
    assert heading, 'README.md has no "A first taste" section'
    block = re.search(r"^```python\n(.*?)^```", text[heading.end():], re.MULTILINE | re.DOTALL)
    assert block, 'no ```python block under "A first taste" in README.md'
    return block.group(1)


def test_readme_first_taste_runs(tmp_path):
    code = first_taste_code()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    env.setdefault("MPLBACKEND", "Agg")
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"README example failed (exit {proc.returncode}):\n{output}"
    assert "loss after 200 steps" in proc.stdout, proc.stdout
    assert any("backward" in line for line in proc.stdout.splitlines()), (
        f"the printed graph names no backward node:\n{proc.stdout}"
    )
