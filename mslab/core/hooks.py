"""The hooks of the plain engine: every place where the speed layer (``mslab.fast``) plugs in.

The plain engine is the path the lessons walk: a primitive runs and a tape records it, ``backprop`` calls each
bprop rule, the executor runs one line per node, a convolution is im2col and one matmul. The speed layer makes
the same computation cheaper without changing what it computes; it installs itself here when ``mslab`` is
imported, and ``mslab.fast.plain()`` (or ``MSLAB_PLAIN=1``) puts every hook back to its default below.

Each hook is a module attribute read where it is used (``hooks.name``, never copied), so switching takes effect
on the next call. A hook left at its default means "the plain path": the comment says what that path does.

The types name what the engine's upper layers hand over (tapes, tensors, schedules) as ``Any``: ``core`` is the
lowest layer and imports none of them, even for a type.
"""
from __future__ import annotations

from types import ModuleType
from typing import Any, Callable

# autodiff/grad_operation.py, ``_record_forward``: ``autodiff_tape(kept)`` makes the tape a gradient function
# records its forward on; ``kept`` is a dict the gradient function keeps between calls for the speed layer.
# mslab.fast installs the lean tape (mslab/fast/lean_tape.py: calls kept as they ran, nodes built only if walked).
# None: ``ir.tape.Tape``, which records one node per primitive as it runs.
autodiff_tape: Callable[[dict[str, Any]], Any] | None = None

# autodiff/grad_operation.py, ``gradients``: ``backward_replay(kept, tape, outputs, sens, sources)`` gives the
# gradients of a PYNATIVE call whose tape nobody else records, as ``backprop_tape`` would give them.
# mslab.fast installs the backward replay (mslab/fast/backward_replay.py: a repeated step's backward compiled once).
# None: ``backprop_tape``, every bprop rule run one by one, every step.
backward_replay: Callable[[dict[str, Any], Any, list[Any], list[Any], list[Any]], list[Any]] | None = None

# runtime/executor.py, ``Executor``: ``executor_lines(schedule, keep)`` gives the lines of the generated code
# (``executor.Line``s) for the scheduled nodes. mslab.fast installs kernel fusion (mslab/fast/fusion.py: some
# neighbouring nodes share one line). None: one line per node. An executor remembers which planner wrote its code
# and writes it again when this hook has changed, so code written with fusion on never runs with it off.
executor_lines: Callable[[list[Any], set[int]], list[Any]] | None = None

# ops/conv_kernels.py: a module with ``conv2d``, ``conv2d_filter_grad`` and ``conv2d_input_grad`` for stride 1
# (the signatures of conv_kernels' functions without ``stride``). mslab.fast installs the wide-column kernels
# (mslab/fast/conv_wide_kernels.py). None: conv_kernels' im2col for every stride.
stride1_convolution: ModuleType | None = None

# ops/primitive.py, ``Primitive.__call__`` itself: the one hook that is a method, since every eager op enters it.
# mslab.fast puts ``mslab/fast/dispatch.py``'s ``call`` there: the same steps with ``prepare``, ``run`` and
# ``Tensor._wrap`` written into one function. The plain method (four steps, each a named helper) is the default,
# and ``mslab.fast.plain()`` puts it back.
