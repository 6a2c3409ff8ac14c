"""How MindSpore shows a tensor's numbers: ``repr(t)`` and the ``print`` of a graph (``ops.Print``).

Everything here is what MindSpore 2.10 prints on CPU (observed over many cases); ``str(t)`` and
``print(t)`` in PYNATIVE mode are numpy's own ``str`` of ``t.asnumpy()`` and do not come through here.

``repr(t)`` is ``Tensor(shape=[2, 3], dtype=Float32, value=`` + a line break for 2-d and higher, a space
otherwise + the numbers + ``)``. The numbers follow these rules:

- **Floats** print in scientific notation, each right-aligned in a fixed width: Float32 and Float64 as
  ``%15.8e`` (``1.00000000e+00`` with a leading space), Float16 as ``%11.4e`` (``1.0000e+00``). A Float32
  number is shown at double precision, so ``1e-5`` prints as ``9.99999975e-06``; ``-0.`` prints
  ``-0.00000000e+00``; inf and nan take the same width (``            inf``), and a nan whose sign bit is
  set prints ``-nan``. A wider number (``1.00000000e+100``) simply takes more room.
- **Integers** are right-aligned to the widest number shown (``[  1,  -2, 300]``); **bools** are
  ``True``/``False`` right-aligned in 5 characters (``[ True, False]``, ``[ True,  True]``).
- Elements are separated by ``, `` (``repr``) or by a space (graph ``print``); nested rows go on their own
  lines, indented by their depth, with no blank line between the blocks of a 3-d tensor.
- A **0-d tensor** shows one number in C's ``%g`` form (6 significant digits): ``3.0`` prints ``3``,
  ``0.123456789`` prints ``0.123457``, ``1e10`` prints ``1e+10``, ``-0.`` prints ``-0``; ints and bools as
  Python shows them (``5``, ``True``).
- **Summaries**: in a tensor of 2 or more dimensions, every axis longer than 6 shows its first 3 and last 3
  entries around `` ... `` (a row ``[ 0,  1,  2 ... 22, 23, 24]``, a run of rows `` ...`` on its own line).
  A 1-d tensor is shown whole up to 1000 elements, with a line break (``\\n`` and a space) after every 12th
  float or bool and every 24th integer, even after the last one; above 1000 elements it too is summarised.
  The integer width counts only the numbers shown.
- An **empty** tensor shows no numbers at all: ``value= )``, or ``value=\\n)`` from 2-d up.

The graph ``print`` (``print(x)`` in a GRAPH-mode ``construct``, ``ops.Print``) uses the same numbers without
commas and without the space after ``value=`` for a 1-d tensor; a 0-d tensor prints its number alone (a
bool as ``1``/``0``, an Int8/UInt8 as the character with that code).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mslab.core import dtype as mstype

EDGE_ITEMS = 3            # entries kept at each end of a summarised axis
SUMMARISE_AXIS_OVER = 6   # an axis longer than this is summarised (2-d and up, or any summarised tensor)
WHOLE_1D_UP_TO = 1000     # a 1-d tensor this size or smaller is shown whole
ITEMS_PER_LINE_FLOAT_BOOL = 12
ITEMS_PER_LINE_INT = 24


def scalar_text(value: Any) -> str:
    """A 0-d tensor's number as MindSpore shows it: C's ``%g`` for floats, else Python's text."""
    if isinstance(value, np.bool_):
        return str(bool(value))
    if isinstance(value, np.floating):
        if np.isnan(value):
            return "-nan" if np.signbit(value) else "nan"
        return "%g" % float(value)
    return str(int(value))


def _float_texts(values: np.ndarray) -> list[str]:
    width, digits = (11, 4) if values.dtype == np.float16 else (15, 8)
    out = []
    for v in values.astype(np.float64):
        if np.isnan(v):
            out.append(("-nan" if np.signbit(v) else "nan").rjust(width))
        else:
            out.append("%*.*e" % (width, digits, v))
    return out


def _element_texts(shown: np.ndarray) -> list[str]:
    """Each shown element as its text, padded as MindSpore pads it (see the module docstring)."""
    if shown.dtype == np.bool_:
        return [("True" if v else "False").rjust(5) for v in shown]
    if shown.dtype.kind == "f":
        return _float_texts(shown)
    texts = [str(int(v)) for v in shown]
    width = max(len(t) for t in texts)
    return [t.rjust(width) for t in texts]


def _kept(length: int, summarise: bool) -> tuple[list[int], list[int]]:
    """Indices shown before and after the `` ... `` of an axis of this length."""
    if summarise and length > SUMMARISE_AXIS_OVER:
        return list(range(EDGE_ITEMS)), list(range(length - EDGE_ITEMS, length))
    return list(range(length)), []


def _shown_elements(arr: np.ndarray, summarise: bool) -> np.ndarray:
    """The elements a summary keeps, in order (so the integer width counts only those)."""
    for axis, length in enumerate(arr.shape):
        head, tail = _kept(length, summarise)
        arr = np.take(arr, head + tail, axis=axis)
    return arr


def array_text(arr: np.ndarray, comma: bool = True) -> str:
    """The numbers of a tensor of 1 or more dimensions, as ``repr`` (``comma``) or the graph print shows them."""
    if arr.size == 0:
        return ""
    summarise = arr.ndim > 1 or arr.size > WHOLE_1D_UP_TO
    shown = _shown_elements(arr, summarise)
    texts = iter(_element_texts(shown.reshape(-1)))
    sep = ", " if comma else " "
    row_end = "," if comma else ""
    per_line = ITEMS_PER_LINE_INT if arr.dtype.kind in "iu" else ITEMS_PER_LINE_FLOAT_BOOL

    def bottom(length: int) -> str:
        head, tail = _kept(length, summarise)
        if tail:
            return "[" + sep.join(next(texts) for _ in head) + " ... " + sep.join(next(texts) for _ in tail) + "]"
        parts = []
        for i in range(length):
            parts.append(next(texts) + (sep if i != length - 1 else ""))
            if arr.ndim == 1 and (i + 1) % per_line == 0:
                parts.append("\n ")
        return "[" + "".join(parts) + "]"

    def block(depth: int) -> str:
        length = arr.shape[depth]
        if depth == arr.ndim - 1:
            return bottom(length)
        head, tail = _kept(length, summarise)
        indent = "\n" + " " * (depth + 1)
        text = (row_end + indent).join(block(depth + 1) for _ in head)
        if tail:  # the " ..." line takes no comma
            text += row_end + indent + "..." + indent + (row_end + indent).join(block(depth + 1) for _ in tail)
        return "[" + text + "]"

    return block(0)


def tensor_repr(arr: np.ndarray) -> str:
    """``repr(t)``: ``Tensor(shape=[3], dtype=Float32, value= [ 1.00000000e+00, ...])``."""
    head = f"Tensor(shape={list(arr.shape)}, dtype={mstype.from_numpy(arr.dtype)}, value="
    if arr.ndim == 0:
        return f"{head} {scalar_text(arr[()])})"
    return head + ("\n" if arr.ndim > 1 else " ") + array_text(arr) + ")"


def _graph_scalar_text(value: Any) -> str:
    """A 0-d tensor in a graph print: MindSpore writes the C value itself, so a bool shows as ``1``/``0`` and an
    Int8/UInt8 as the character with that code (``65`` prints ``A``); other numbers as in ``repr``."""
    if isinstance(value, np.bool_):
        return str(int(value))
    if value.dtype in (np.int8, np.uint8):
        return chr(int(value) % 256)
    return scalar_text(value)


def graph_print_text(arr: np.ndarray, pynative: bool = False) -> str:
    """What MindSpore's Print shows for a tensor: in a graph the comma-less form (a 0-d tensor as its number
    alone); with ``pynative`` (``ops.Print()`` called eagerly) the tensor's repr."""
    arr = np.asarray(arr)
    if pynative:
        return tensor_repr(arr)
    if arr.ndim == 0:
        return _graph_scalar_text(arr[()])
    head = f"Tensor(shape={list(arr.shape)}, dtype={mstype.from_numpy(arr.dtype)}, value="
    return head + ("\n" if arr.ndim > 1 else "") + array_text(arr, comma=False) + ")"
