"""Every test starts in PYNATIVE mode on device_target "CPU" (MindSpore 2.x's defaults) with the same seed.

Under CI (``CI`` set) hypothesis is derandomised, so a run is repeatable; locally it explores.
"""
import os

import numpy as np
import pytest
from hypothesis import settings

from mslab import context
from mslab.core import context as core_context

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _pynative_mode():
    context.set_context(mode=context.PYNATIVE_MODE, device_target="CPU")
    np.random.seed(0)
    yield
    context.set_context(mode=context.PYNATIVE_MODE, device_target="CPU")


@pytest.fixture
def device():
    """A device target (the simulated "Ascend"): dataset sink mode sinks only there, as in MindSpore."""
    core_context._warned_target = True  # the once-only note about the target is not what a test checks
    context.set_context(device_target="Ascend")
    yield "Ascend"
