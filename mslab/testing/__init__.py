"""Checks every primitive must pass: central-difference gradients and GRAPH == PYNATIVE agreement."""
from mslab.testing.gradcheck import check_grad, numeric_grads
from mslab.testing.modes import check_modes, in_mode, run_in_mode

__all__ = ["check_grad", "numeric_grads", "check_modes", "in_mode", "run_in_mode"]
