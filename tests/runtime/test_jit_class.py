"""jit_class: a class whose methods run inside a GRAPH mode function.

Every expectation was printed by MindSpore 2.10 on CPU (docs/mindspore_observed/infra.md).
"""

import numpy as np
import pytest

import mslab as ms
from mslab import nn

pytestmark = pytest.mark.usefixtures("restore_runtime_context")


def test_jit_class_in_graph_mode():
    @ms.jit_class
    class Scale:
        def __init__(self):
            self.a = 2.0

        def f(self, x):
            return x * self.a

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.s = Scale()

        def construct(self, x):
            return self.s.f(x)

    ms.set_context(mode=ms.GRAPH_MODE)
    assert Scale().f(3) == 6.0
    np.testing.assert_array_equal(Net()(ms.Tensor(np.array([1.0], np.float32))).asnumpy(), [2.0])  # observed: [2.]
    with pytest.raises(TypeError, match="Decorator jit_class can only be used for class type, but got"):
        ms.jit_class(lambda x: x)
    with pytest.raises(TypeError, match="Decorator jit_class is used for user-defined classes and cannot be used "
                                        "for nn.Cell"):
        ms.jit_class(type("D", (nn.Cell,), {}))
