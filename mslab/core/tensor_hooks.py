"""The gradient hooks registered on tensors (``Tensor.register_hook``), kept by tensor identity.

``t.register_hook(fn)`` stores ``fn`` here; autodiff's backprop calls ``hooked(t, g)`` each time a backward pass has
the whole gradient ``g`` of ``t``, which runs the hooks in registration order as ``mslab.autodiff.hooks`` does it
(installed here when it is imported: it sits above the ops, this module below them). A hook stays until its
handle's ``remove()`` or until the tensor is gone: a leaf tensor hooked once is hooked in every later gradient.
"""
from __future__ import annotations

import itertools
import weakref
from collections import OrderedDict
from typing import Any, Callable

# id(tensor) -> {handle id: hook}; by id, since a Tensor's == is elementwise
_HOOKS: dict[int, OrderedDict[int, Callable]] = {}
_ids = itertools.count()
# (hooks, grad) -> grad after them, and (tensor, hook) -> None marking a registration on the tapes recording:
# mslab.autodiff.hooks.run_tensor_hooks and mark_on_tapes, installed when it is imported
_run: Callable[[list[Callable], Any], Any] | None = None
_mark: Callable[[Any, Callable], None] | None = None


def install(run: Callable[[list[Callable], Any], Any], mark: Callable[[Any, Callable], None]) -> None:
    global _run, _mark
    _run, _mark = run, mark


class TensorHookHandle:
    """What ``Tensor.register_hook`` returns (MindSpore's ``_TensorHookHandle``): ``remove()`` unhooks."""

    def __init__(self, tensor: Any, handle_id: int) -> None:
        self.id, self.tensor_weakref = handle_id, weakref.ref(tensor)

    def remove(self) -> None:
        """Unregister the hook (a second call does nothing, as in MindSpore)."""
        tensor = self.tensor_weakref()
        hooks = None if tensor is None else _HOOKS.get(id(tensor))
        if hooks is not None:
            hooks.pop(self.id, None)


def register(tensor: Any, hook: Callable) -> TensorHookHandle:
    if not callable(hook):  # MindSpore 2.10's TypeError and text (observed on CPU)
        raise TypeError(f"Expected a callable hook function, but got {type(hook).__name__}.")
    hooks = _HOOKS.get(id(tensor))
    if hooks is None:
        hooks = _HOOKS[id(tensor)] = OrderedDict()
        weakref.finalize(tensor, _HOOKS.pop, id(tensor), None)
    handle = TensorHookHandle(tensor, next(_ids))
    hooks[handle.id] = hook
    if _mark is not None:
        _mark(tensor, hook)
    return handle


def hooks_of(tensor: Any) -> list[Callable]:
    """The hooks registered on ``tensor``, oldest first (none for most tensors: one dict lookup)."""
    if not _HOOKS:
        return []
    hooks = _HOOKS.get(id(tensor))
    return list(hooks.values()) if hooks else []


def recorded_with_hooks(tape: Any, tensors: Any) -> bool:
    """Whether a backward over autodiff's ``tape`` (with gradients asked for ``tensors``) has hooks to run: a node
    that no replayed backward may stand for (a Cell's hook node, which the tape holds as a node already), or a
    hooked tensor among the tape's recorded calls (mslab.fast's lean tape) or ``tensors``."""
    if any(not n.prim.bprop_replayable for n in tape.graph.nodes):
        return True
    if not any(_HOOKS.values()):
        return False
    hooked = {i for i, hooks in _HOOKS.items() if hooks}
    for _, args, out in getattr(tape, "calls", ()):
        if id(out) in hooked or any(id(a) in hooked for a in args):
            return True
    return any(id(t) in hooked for t in tensors)


def hooked(tensor: Any, grad: Any) -> Any:
    """``grad`` (the whole gradient of ``tensor``) after the hooks registered on ``tensor``."""
    hooks = hooks_of(tensor)
    if not hooks:
        return grad
    assert _run is not None, "mslab.autodiff.hooks installs how tensor hooks run"
    return _run(hooks, grad)


def share(tensor: Any, stand_in: Any) -> None:
    """Give ``stand_in`` (the symbolic input GRAPH mode traces for ``tensor``) the hooks of ``tensor``: they are
    compiled into the graph, which later calls reuse whatever hooks their arguments have (MindSpore 2.10 does the
    same, observed on CPU: a hook added or removed after the first call changes nothing)."""
    for hook in hooks_of(tensor):
        register(stand_in, hook)
