"""Reverse-mode autodiff over recorded nodes, by each primitive's bprop rule.

The same function serves both modes. While GRAPH mode traces, the nodes are the forward graph's
and calling a bprop rule *traces* it: backward nodes are appended to the graph, each remembering
the forward node it came from. In PYNATIVE mode the nodes are a tape's and the bprop rules simply
run. Either way the result depends only on the structure of the forward computation (seed 004).

A control-flow node (If, While) has a tuple output: the nodes that pick its elements (TupleGetItem,
whose primitives carry ``tuple_index``) pass their gradients to that position of the tuple's gradient,
and the control-flow node's bprop receives the list. Values computed on the host (JIT Fallback) stop
gradients, as MindSpore's PyExecute nodes do.
"""
import contextlib

import numpy as np

from mslab.core import state
from mslab.ir.graph import BACKWARD, Value
from mslab.ops import math_ops, shape_ops

_UNLABELLED = contextlib.nullcontext()


def _differentiable(v):
    """Floats, complex numbers and integers carry gradients (MindSpore: ``grad(x * 2)`` at int32 x is int32
    [2, 2, 2]); bools do not, and neither do values computed on the host (JIT Fallback)."""
    if v.host:
        return False
    if v.parts is not None:
        return any(np.dtype(d).kind in "fciu" for _, d in v.parts)
    return v.dtype.kind in "fciu"


def backprop(recorder, nodes, roots, sens, targets):
    """Gradients of ``roots`` (weighted by ``sens``) with respect to ``targets``.

    ``nodes``: the recorded forward nodes, in run order. ``roots``/``targets``: Values;
    ``sens``: one Tensor per root (the incoming gradient, MindSpore's *sens*).
    Returns one Tensor per target, or None where no path leads from the target to a root.
    Values with several users accumulate their gradients (an Add node per extra user).
    """
    relevant = {t for t in targets if _differentiable(t)}
    active = []
    for n in nodes:
        if n.prim.differentiable:
            for v in n.inputs:
                if type(v) is Value and v in relevant:
                    if _differentiable(n.out):
                        relevant.add(n.out)
                        active.append(n)
                    break

    grads = {}
    keep = set(targets)  # a target can also be an intermediate output: keep its gradient


    def accumulate_element(tup, index, g):
        parts = grads.setdefault(tup, [None] * len(tup.parts))
        parts[index] = g if parts[index] is None else math_ops.add(parts[index], g)

    # Only a recorder that is recording names each backward node's forward node: GRAPH mode's tracer (the
    # backward nodes join its graph) or a tape someone still records on. Autodiff's own PYNATIVE tape has
    # stopped recording by now: skipping the label saves a context switch per node.
    labels_nodes = recorder is state.tracer or any(t is recorder for t in state.tapes)
    # Tapes recording around this gradient call (``with mslab.record():`` over a PYNATIVE training
    # step) see the backward primitives run too: label them backward as well. With nobody recording (a
    # plain PYNATIVE step) there is nothing to label, and the context switches are skipped.
    with contextlib.ExitStack() if labels_nodes or state.tapes else _UNLABELLED as labels:
        for t in state.tapes:
            if t is not recorder:
                labels.enter_context(t.in_phase(BACKWARD))
        if labels is not None:
            labels.enter_context(recorder.in_phase(BACKWARD))
        for r, s in zip(roots, sens):
            if r in relevant:
                if tuple(s.shape) != r.shape:
                    if int(np.prod(s.shape)) != int(np.prod(r.shape)):
                        raise ValueError(f"sens has shape {tuple(s.shape)} but the output it weights has shape "
                                         f"{r.shape}")
                    s = shape_ops.reshape(s, r.shape)  # e.g. a (1,) sens for a scalar loss, as MindSpore accepts
                _add_gradient(grads, r, s)
        for n in reversed(active):
            out = n.out
            g = grads.get(out)
            if g is None:
                continue
            if out not in keep:
                del grads[out]
            index = n.prim.tuple_index
            if index is not None:  # picks one element of a tuple: its gradient goes to that position
                accumulate_element(n.inputs[0], index, g)
                continue
            if labels_nodes:  # the rule's nodes, and the Adds that sum its gradients in, are the grad of n
                with recorder.in_phase(BACKWARD, grad_of=n):
                    _backward_node(n, g, relevant, grads)
            else:
                _backward_node(n, g, relevant, grads)
    return [grads.get(t) for t in targets]


def _backward_node(n, dout, relevant, grads):
    """Run node ``n``'s bprop rule on its recorded tensors and add each input's gradient into ``grads``."""
    handles, needs = [], []
    for v in n.inputs:
        if type(v) is Value:
            handles.append(v.handle)
            needs.append(v in relevant)
        else:
            handles.append(v)
            needs.append(False)
    gins = n.prim.bprop(*handles, n.out.handle, dout, needs=tuple(needs))
    if len(gins) != len(handles):
        raise RuntimeError(f"bprop of {n.prim.name} returned {len(gins)} gradients for {len(handles)} inputs")
    for v, gi, need in zip(n.inputs, gins, needs):
        if gi is not None and need:
            _add_gradient(grads, v, gi)


def _add_gradient(grads, v, g):
    """Add ``g`` to the gradient gathered so far for ``v`` (an Add node when ``v`` has several users)."""
    old = grads.get(v)
    grads[v] = g if old is None else math_ops.add(old, g)
