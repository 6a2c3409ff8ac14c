"""numpy's floating-point warnings, off while mslab's kernels run.

MindSpore's kernels compute inf and nan silently: an overflowing batch gives an inf loss and a loss-scaled
step checks for it, with nothing printed. numpy warns instead ("RuntimeWarning: invalid value encountered in
matmul"), and whether it warns can even depend on which BLAS kernel the CPU picks (an inf batch through a
matmul warned with OpenBLAS's SkylakeX kernels and not with its Haswell ones). So the kernels run with those
warnings off. The switch is thrown once per top-level call (a Cell call, a gradient function, a compiled
graph's run), not once per op: numpy's ``errstate`` costs about as much as a small op.
"""
import numpy as np

from mslab.core import state


class quiet_kernels:
    """``with quiet_kernels():`` numpy's floating-point warnings are off inside (nested uses cost nothing)."""

    __slots__ = ("_errstate",)

    def __enter__(self):
        if state.kernels_quiet:
            self._errstate = None
            return self
        self._errstate = np.errstate(all="ignore")
        self._errstate.__enter__()
        state.kernels_quiet = True
        return self

    def __exit__(self, *exc):
        if self._errstate is not None:
            state.kernels_quiet = False
            self._errstate.__exit__(*exc)
        return False
