"""The switch of the speed layer: install its hooks into the plain engine, or take them out again.

``enabled()`` says whether the speed layer is on; ``set_enabled(flag)`` turns it on or off for the whole process;
``with plain(): ...`` runs a block with it off and restores what was there. A process started with the
environment variable ``MSLAB_PLAIN=1`` starts with it off (default: on). The numbers a step computes are the same
either way, up to the last bits of a stride-1 convolution, whose wide kernels sum in another order.
"""
from __future__ import annotations

import contextlib
import os
from typing import Any, Iterator, Mapping

from mslab.core import hooks
from mslab.fast import allocator, backward_replay, conv_wide_kernels, dispatch, fusion, lean_tape
from mslab.ops.primitive import Primitive

# hook name (mslab.core.hooks) -> what the speed layer puts there
INSTALLED: dict[str, Any] = {
    "autodiff_tape": lean_tape.LeanTape.for_gradient,
    "backward_replay": backward_replay.replay,
    "executor_lines": fusion.plan,
    "stride1_convolution": conv_wide_kernels,
}
DEFAULTS = {name: getattr(hooks, name) for name in INSTALLED}  # the plain engine's own values (all None)


def enabled() -> bool:
    """True while the speed layer's hooks are installed (the default)."""
    return hooks.executor_lines is INSTALLED["executor_lines"]


PLAIN_PRIMITIVE_CALL = Primitive.__call__  # ops/primitive.py's own, put back when the layer is off


def set_enabled(flag: bool) -> None:
    """Install (True) or remove (False) every hook of the speed layer. Turning it on also tunes glibc's allocator
    (``mslab.fast.allocator``); that setting is per process and stays when the layer is turned off again."""
    for name, value in (INSTALLED if flag else DEFAULTS).items():
        setattr(hooks, name, value)
    # the one hook that is a method: every eager op's call (see mslab.core.hooks, "Primitive.__call__")
    Primitive.__call__ = dispatch.call if flag else PLAIN_PRIMITIVE_CALL  # type: ignore[method-assign]
    if flag:
        allocator.tune_once()


@contextlib.contextmanager
def plain() -> Iterator[None]:
    """``with mslab.lab.plain(): ...``: the block runs the plain engine (no speed layer); on exit the layer is
    back as it was."""
    was = enabled()
    set_enabled(False)
    try:
        yield
    finally:
        set_enabled(was)


def on_at_start(environ: Mapping[str, str] | None = None) -> bool:
    """Whether a process starts with the speed layer: yes unless ``MSLAB_PLAIN`` is set to something other than
    "" or "0"."""
    environ = os.environ if environ is None else environ
    return environ.get("MSLAB_PLAIN", "") in ("", "0")
