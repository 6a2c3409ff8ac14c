"""mslab's speed layer: what makes a step faster without changing what it computes, in one switchable place.

The plain engine (core, ir, ops, autodiff, runtime) is the path the lessons walk. This package plugs into its
hooks (``mslab.core.hooks``, where each hook says what the plain path does without it):

* ``lean_tape``: autodiff's own PYNATIVE tape keeps each call as it ran and builds nodes only if a backward
  walks them (hook ``autodiff_tape``);
* ``backward_replay``: a repeated PYNATIVE step's backward traced once into a graph and run compiled
  (hook ``backward_replay``);
* ``fusion`` and ``fusion_kernels``: GRAPH mode's executor computes some neighbouring nodes in one line
  (hook ``executor_lines``);
* ``conv_wide_kernels`` and ``scratch``: stride-1 convolutions on contiguous "wide" columns, with reused work
  buffers (hook ``stride1_convolution``);
* ``allocator``: glibc's malloc thresholds fixed so a step's freed activations are reused.

``switch`` turns it on and off: ``mslab.fast.plain()`` (also ``mslab.lab.plain``), ``enabled()``,
``set_enabled(flag)``; ``MSLAB_PLAIN=1`` in the environment starts a process with it off. Default: on.
"""
from mslab.fast.switch import enabled, on_at_start, plain, set_enabled

__all__ = ["enabled", "plain", "set_enabled"]

set_enabled(on_at_start())
