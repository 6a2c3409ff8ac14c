"""``x[i] = v`` under a gradient: GRAPH mode differentiates through it (SetItem), PYNATIVE refuses where it would
compute the gradient of values that are gone. MindSpore 2.10 CPU's results (observed) are in the comments."""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor


def written_intermediate(x):
    y = x * 2
    y[0] = 5.0
    return (y * x).sum()


def written_input(x):
    x[0] = 5.0
    return (x * 3).sum()


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_graph_mode_differentiates_through_the_write(graph_mode):
    ones = np.ones(3, np.float32)
    np.testing.assert_array_equal(ms.grad(written_intermediate)(Tensor(ones)).asnumpy(), [5, 4, 4])  # MindSpore
    np.testing.assert_array_equal(ms.grad(written_input)(Tensor(ones)).asnumpy(), [0, 3, 3])  # MindSpore


def test_pynative_refuses_a_write_into_the_gradients_input():
    # MindSpore 2.10 PYNATIVE raises this RuntimeError (before: mslab silently gave [3, 3, 3])
    with pytest.raises(RuntimeError, match="Can not modify tensor id of input tensor from network by assign value"):
        ms.grad(written_input)(Tensor(np.ones(3, np.float32)))


def test_pynative_refuses_a_write_into_a_recorded_tensor_instead_of_a_wrong_gradient():
    # MindSpore 2.10 PYNATIVE gives [5, 4, 4]; before, mslab silently gave [7, 4, 4]
    with pytest.raises(NotImplementedError, match=r"on a tensor a PYNATIVE gradient has recorded"):
        ms.grad(written_intermediate)(Tensor(np.ones(3, np.float32)))


def test_writes_outside_a_gradient_still_work():
    x = Tensor(np.ones(3, np.float32))
    x[0] = 5.0
    np.testing.assert_array_equal(x.asnumpy(), [5, 1, 1])
