"""The IR text: one stable line per node, in MindSpore's spirit.

    %3 = MatMul(%x, %fc.weight) {transpose_b=True} : f32[16, 1]    # forward  fc  dense.py:52  x = ...

No ids or addresses appear, so the same program prints the same text every run; tests and lessons
assert on it.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mslab.ir.node import Node, Phase, Value, ValueKind


def _operand(v: Any) -> str:
    if type(v) is Value:
        a = v.array  # a constant's numbers (None for other values)
        if v.kind == ValueKind.CONST and a is not None and a.size <= 4:
            return np.array2string(a, separator=", ") if a.ndim else repr(a.item())
        return "%" + v.name if v.kind != ValueKind.NODE else v.name
    if hasattr(v, "name") and not isinstance(v, (str, int, float)):
        return str(v)
    return repr(v)


def node_line(n: Node) -> str:
    """``%3 = MatMul(%x, %fc.weight) {transpose_b=True} : f32[16, 1]    # forward  scope  source``."""
    args = ", ".join(_operand(v) for v in n.inputs)
    attrs = ", ".join(f"{k}={v!r}" for k, v in n.prim.attrs.items())
    attrs = f" {{{attrs}}}" if attrs else ""
    notes = [n.phase + (" (host)" if n.out.host else "")]
    if n.grad_of is not None:
        notes.append(f"grad of {n.grad_of.out.name} {n.grad_of.prim.name}")
    if n.scope:
        notes.append(n.scope)
    if n.source:
        notes.append(n.source)
    return f"{n.out.name} = {n.prim.name}({args}){attrs} : {n.out.type_str}    # " + "  ".join(notes)


def graph_text(graph: Any, phase: Phase | str | None = None) -> str:
    """The whole ``graph`` (a Graph; mslab.ir.graph imports this module): inputs, parameters, one line per node,
    the return; a control-flow node's subgraphs (an If's branches, a While's condition and body) are printed
    nested under it."""
    ins = ", ".join(f"%{v.name}: {v.type_str}" for v in graph.inputs)
    lines = [f"graph {graph.name}({ins}) {{"]
    if graph.params:
        lines.append("  # parameters: " + ", ".join(f"%{p.name}: {p.type_str}" for p in graph.params))
    for n in graph.nodes:
        if phase is None or n.phase == phase:
            lines.append("  " + node_line(n))
            for label, sub in n.prim.subgraphs:
                body = graph_text(sub).split("\n")
                lines.append(f"    {label}: {body[0]}")
                lines.extend("    " + line for line in body[1:])
    outs = ", ".join(_operand(v) for v in graph.outputs)
    lines.append(f"  return ({outs})")
    lines.append("}")
    return "\n".join(lines)
