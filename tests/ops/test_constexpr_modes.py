"""ops.constexpr runs on constants, in both modes.

Every expectation was printed by MindSpore 2.10 on CPU (docs/mindspore_observed/infra.md).
"""

import numpy as np
import pytest

import mslab as ms
from mslab import nn, ops

pytestmark = pytest.mark.usefixtures("restore_runtime_context")


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_constexpr_runs_on_constants(mode):
    @ops.constexpr
    def times(a, b):
        return a * b

    @ops.constexpr(reuse_result=False)
    def twice(a):
        return (a, a)

    # observed on MindSpore 2.10 CPU: 6 and (4, 4)
    assert times(2, 3) == 6 and twice(4) == (4, 4)

    class Net(nn.Cell):
        def construct(self, x):
            return x * times(x.shape[0], 2)

    ms.set_context(mode=mode)
    np.testing.assert_array_equal(Net()(ms.Tensor(np.ones(3, np.float32))).asnumpy(), [6.0, 6.0, 6.0])
    from mslab.ops.primitive import constexpr
    assert constexpr is ops.constexpr
