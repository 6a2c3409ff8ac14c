"""Every test starts in PYNATIVE mode (MindSpore 2.x's default) with the same seed."""
import numpy as np
import pytest

from mslab import context


@pytest.fixture(autouse=True)
def _pynative_mode():
    context.set_context(mode=context.PYNATIVE_MODE)
    np.random.seed(0)
    yield
    context.set_context(mode=context.PYNATIVE_MODE)
