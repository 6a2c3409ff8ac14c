"""Kernel fusion for GRAPH mode's generated code: one line computes what two neighbouring nodes would.

Installed as ``mslab.core.hooks.executor_lines`` (the plain executor writes one line per node). The kernels that do
two nodes' work are in ``fusion_kernels``, by the first node's primitive class:

* a *through* kernel: when the node's result has one reader, ``user``, a function of the node's tensor inputs that
  returns ``user``'s result directly; the intermediate value is never written out (MaxPoolGrad followed by the
  ReluGrad of the ReLU that fed the pooling: the mask goes onto the pooled gradient, a quarter of the size);
* a *pair* kernel: for a node ``other`` that reads the node's first input too, a function of the node's tensor
  inputs, then those of ``other`` it does not read, returning ``(its result, other's result)`` (BatchNormGrad and
  BatchNormScaleGrad share the batch statistics and a dot product; Conv2DBackpropInput and Conv2DBackpropFilter of
  one stride-1 convolution each chunk of dout, rearranged once for both GEMMs).

Either returns None where it does not apply. The fused result must be the unfused nodes' result bit for bit
(GRAPH mode equals PYNATIVE). The partner's work moves to the first node's line, so nothing that writes in place
(a side effect) may run between the two. Only the generated ``run`` is fused: ``Executor.steps`` still runs
node by node and shows every intermediate value.
"""
from __future__ import annotations

from typing import Callable, Sequence

from mslab.fast.fusion_kernels import PAIR, THROUGH, kernel_for
from mslab.ir.node import Node
from mslab.runtime.executor import Line

# One scheduled node, as the executor lists them: (kernel, the slots of its tensor inputs, its output slot, node).
Step = tuple[Callable, Sequence[int], int, Node]


def _no_write_between(schedule: Sequence[Step], a: int, b: int) -> bool:
    return not any(schedule[k][3].prim.side_effect for k in range(a + 1, b))


def _partner(schedule: Sequence[Step], a: int, readers: dict[int, list[int]], made_at: dict[int, int], taken: set[int],
             keep: set[int]) -> tuple[int, Callable, tuple[int, ...], tuple[int, ...]] | None:
    """``(b, fn, outs, extra ins)`` for a node fused with node ``a``, or None."""
    _, ins, out, node = schedule[a]
    through = kernel_for(THROUGH, node.prim)
    if through is not None and out not in keep and len(readers.get(out, ())) == 1:
        b = readers[out][0]
        if b not in taken and _no_write_between(schedule, a, b):
            fn = through(node.prim, node.inputs, schedule[b][3])
            if fn is not None:
                return b, fn, (schedule[b][2],), ()
    pair = kernel_for(PAIR, node.prim)
    if pair is not None and ins:
        for b in readers.get(ins[0], ()):
            if b > a and b not in taken and _no_write_between(schedule, a, b):
                extra = tuple(s for s in dict.fromkeys(schedule[b][1]) if s not in ins)
                if any(made_at.get(s, -1) > a for s in extra):  # the fused line stands at a: other's inputs must exist
                    continue
                fn = pair(node.prim, node.inputs, schedule[b][3])
                if fn is not None:
                    return b, fn, (out, schedule[b][2]), extra
    return None


def plan(schedule: Sequence[Step], keep: set[int]) -> list[Line]:
    """The lines of the generated code for ``schedule`` (entries ``(fn, slots, out, node)``), in run order.

    ``keep``: slots that must be written out (the graph's outputs), so never fused away.
    """
    readers: dict[int, list[int]]  # slot -> the steps reading it
    readers, made_at = {}, {step[2]: k for k, step in enumerate(schedule)}
    for k, step in enumerate(schedule):
        for s in dict.fromkeys(step[1]):
            readers.setdefault(s, []).append(k)
    taken: set[int]  # steps fused into an earlier line
    lines: list[Line]
    taken, lines = set(), []
    for a, (fn, ins, out, _) in enumerate(schedule):
        if a in taken:
            continue
        found = _partner(schedule, a, readers, made_at, taken, keep)
        if found is None:
            lines.append(Line(fn, ins, (out,), (a,)))
            continue
        b, fused, outs, extra = found
        taken.add(b)
        lines.append(Line(fused, tuple(ins) + extra, outs, (a, b)))
    return lines
