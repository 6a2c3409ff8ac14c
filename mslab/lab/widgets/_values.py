"""Numpy values as small JSON-ready summaries for the front-end (numbers rounded, so text is stable)."""
import numpy as np

MAX_NUMBERS = 512  # numbers sent for the histogram and the printed preview
MAX_HEAT = 32  # a 2-D value up to 32 x 32 is also sent as a matrix for a heat-map


def num(x, digits=8):
    """A float rounded to ``digits`` significant digits (enough for float32); NaN and inf become text."""
    x = float(x)
    if not np.isfinite(x):
        return str(x)
    return float(f"{x:.{digits}g}")


def summary(a):
    """``{shape, dtype, size, min, max, mean, std, numbers, truncated, matrix?}`` for one array."""
    if a is None:
        return None
    a = np.asarray(a)
    out = {"shape": list(a.shape), "dtype": str(a.dtype), "size": int(a.size)}
    if a.size == 0:
        out.update(numbers=[], truncated=False)
        return out
    if a.dtype.kind == "b":
        a = a.astype(np.int8)
    if a.dtype.kind not in "biuf":
        out.update(numbers=[], truncated=False)
        return out
    f = a.astype(np.float64)
    flat = f.ravel()
    out.update(min=num(flat.min()), max=num(flat.max()), mean=num(flat.mean()), std=num(flat.std()),
               numbers=[num(x) for x in flat[:MAX_NUMBERS]], truncated=bool(flat.size > MAX_NUMBERS))
    if f.ndim == 2 and f.shape[0] <= MAX_HEAT and f.shape[1] <= MAX_HEAT:
        out["matrix"] = [[num(x) for x in row] for row in f]
    elif f.ndim == 1 and 1 < f.size <= MAX_HEAT:
        out["matrix"] = [[num(x) for x in flat]]
    return out


def text(a, limit=4, bare_one=False):
    """The one-line text of a value: the number of a scalar, or dtype, shape and the first ``limit`` numbers,
    such as ``float32[5, 1] [1.003, -0.9905, -3.98, -4.977, ...]``.

    ``bare_one``: print any value holding one number (a ``[1, 1]`` weight) as that number alone, as a table of
    small weights wants; otherwise only a scalar loses its shape. None (nothing computed) says so. The
    front-end's twin, for the summaries it receives, is ``short`` in widgets/graph_view.js (copied in
    step_through.js).
    """
    if a is None:
        return "(not computed yet)"
    a = np.asarray(a)
    if a.ndim == 0 or (bare_one and a.size == 1):
        return f"{num(a.item()):g}"
    flat = a.ravel()
    nums = ", ".join(f"{num(x, 4):g}" for x in flat[:limit])
    more = ", ..." if flat.size > limit else ""
    return f"{a.dtype}{list(a.shape)} [{nums}{more}]"
