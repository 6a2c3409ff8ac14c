"""Where the front-end files are: ``mslab/_frontend/`` in a wheel, ``<repo>/widgets/`` in a checkout.

Each widget's ``_esm`` is one self-contained ES module there, given to anywidget as a ``pathlib.Path``
(``FRONTEND / "graph_view.js"``): anywidget reads the file, and with ``ANYWIDGET_HMR=1`` it watches it and
sends every saved change to the open views (hot reload). Every widget shares the stylesheet ``mslab.css``.
"""
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_CANDIDATES = (_HERE.parents[1] / "_frontend", _HERE.parents[2] / "widgets")  # mslab/lab/widgets/ -> mslab/, repo


def frontend_dir():
    """The folder holding the widgets' .js and .css files."""
    for d in _CANDIDATES:
        if (d / "graph_view.js").is_file():
            return d
    raise FileNotFoundError("mslab's widget front-end files were not found in "
                            + " or ".join(str(d) for d in _CANDIDATES)
                            + "; reinstall mslab (pip install -e . in the repository)")


FRONTEND = frontend_dir()
CSS = FRONTEND / "mslab.css"
