"""Python's cycle collector, paused while a top-level call runs (a Cell call, a gradient function).

CPython frees most objects by reference counting; the cycle collector exists for the rest (objects that point
at each other) and runs whenever enough container objects have been allocated. An eager training step
allocates thousands of them (a tensor, a tape node and its value per op) and holds them until its backward
has run, so the collector would start several times per step and walk them all, finding nothing: autodiff's
tape holds no cycle (``ir.tape``), and reference counting frees a step as soon as it ends. On the 200-layer
MLP of ``make bench`` those walks cost 7% of a PYNATIVE step. So a top-level call pauses the collector and
turns it back on when it returns; whatever a step did leave behind is collected after it, as usual.
"""
import gc


class collector_paused:
    """``with collector_paused():`` no automatic cycle collection inside (nested uses, or a collector someone
    else turned off, are left alone)."""

    __slots__ = ("_paused",)

    def __enter__(self):
        self._paused = gc.isenabled()
        if self._paused:
            gc.disable()
        return self

    def __exit__(self, *exc):
        if self._paused:
            gc.enable()
        return False
