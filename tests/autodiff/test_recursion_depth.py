"""A recursion unrolled while a graph is traced (``f(x, n - 1)`` on a Python number) compiles as deep as MindSpore
compiles it, and past its limit raises MindSpore 2.10's error (all observed on MindSpore 2.10 CPU)."""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, nn
from mslab.core import context


class CountDown(nn.Cell):
    def __init__(self, depth):
        super().__init__()
        self.depth = depth

    def f(self, x, n):
        return x if n == 0 else self.f(x + 1, n - 1)

    def construct(self, x):
        return self.f(x, self.depth)


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)
    context._recursion_limit = None


def test_depth_300_compiles_and_runs(graph_mode):
    # before: "Calling CountDown went deeper than Python's recursion limit ... Cells are nested too deeply"
    np.testing.assert_array_equal(CountDown(300)(Tensor(np.zeros(2, np.float32))).asnumpy(), [300.0, 300.0])


def test_past_the_limit_mindspores_error(graph_mode):
    with pytest.raises(RuntimeError, match=r"^Exceed function call depth limit 1000, \(function call depth: 1001"):
        CountDown(1500)(Tensor(np.zeros(2, np.float32)))


def test_set_recursion_limit(graph_mode):
    ms.set_recursion_limit(50)
    with pytest.raises(RuntimeError, match=r"^Exceed function call depth limit 50, \(function call depth: 51"):
        CountDown(100)(Tensor(np.zeros(2, np.float32)))
    assert ms.get_context("max_call_depth") == 1000  # MindSpore keeps the context's own value
    with pytest.raises(ValueError, match=r"The input value must be int and must > 0, but got '0' with type 'int'"):
        ms.set_recursion_limit(0)
