"""no_init_parameters builds the same values once the parameters are initialised.

Every expectation was printed by MindSpore 2.10 on CPU (docs/mindspore_observed/infra.md).
"""

import numpy as np
import pytest

import mslab as ms
from mslab import nn

pytestmark = pytest.mark.usefixtures("restore_runtime_context")


def test_no_init_parameters_builds_the_same_values():
    from mslab.nn.utils import no_init_parameters

    ms.set_seed(1)
    with no_init_parameters():
        lazy = nn.Dense(2, 3)
    lazy_weight = lazy.weight.asnumpy()  # drawn now, on first use
    ms.set_seed(1)
    eager = nn.Dense(2, 3)
    # observed on MindSpore 2.10 CPU: the deferred values equal the eager ones when nothing else is drawn between
    np.testing.assert_array_equal(lazy_weight, eager.weight.asnumpy())
    assert ms.nn.utils.no_init_parameters is no_init_parameters
