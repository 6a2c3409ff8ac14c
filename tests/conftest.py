"""Every test starts in PYNATIVE mode (MindSpore 2.x's default) with the same seed.

Under CI (``CI`` set) hypothesis is derandomised, so a run is repeatable; locally it explores.
"""
import os

import numpy as np
import pytest
from hypothesis import settings

from mslab import context

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _pynative_mode():
    context.set_context(mode=context.PYNATIVE_MODE)
    np.random.seed(0)
    yield
    context.set_context(mode=context.PYNATIVE_MODE)
