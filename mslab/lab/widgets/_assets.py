"""Where the front-end files are: ``mslab/_frontend/`` in a wheel, ``<repo>/widgets/`` in a checkout.

Widgets that draw graphs share ``graph_core.js``: anywidget loads one ES module per widget from a
string, so relative imports cannot work; the module text is the core followed by the widget's file.
"""
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_CANDIDATES = (_HERE.parents[1] / "_frontend", _HERE.parents[2] / "widgets")  # mslab/lab/widgets/ -> mslab/, repo


def frontend_dir():
    """The folder holding the widgets' .js and .css files."""
    for d in _CANDIDATES:
        if (d / "graph_core.js").is_file():
            return d
    raise FileNotFoundError("mslab's widget front-end files were not found in "
                            + " or ".join(str(d) for d in _CANDIDATES)
                            + "; reinstall mslab (pip install -e . in the repository)")


def read(*names):
    """The text of one or more front-end files, joined in order."""
    d = frontend_dir()
    return "\n".join((d / n).read_text(encoding="utf-8") for n in names)


def esm(*names):
    return read(*names)


def css():
    return read("mslab.css")
