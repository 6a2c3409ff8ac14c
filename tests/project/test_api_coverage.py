"""docs/api_coverage.md is regenerated in memory and must equal the file (run `make api-coverage` if not)."""
import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "make_api_coverage.py"


def load_script():
    spec = importlib.util.spec_from_file_location("make_api_coverage", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_api_coverage_page_is_up_to_date():
    script = load_script()
    fresh = script.render()
    assert script.PAGE.read_text(encoding="utf-8") == fresh, (
        "docs/api_coverage.md is stale: run `make api-coverage` (python scripts/make_api_coverage.py)")


def test_page_marks_what_mslab_has():
    page = load_script().render()
    assert "| `Dense` | class | yes |" in page
    assert "| `LSTM` | class | no |" in page
