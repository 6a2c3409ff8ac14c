"""P.CumProd / ops.cumprod: values observed on MindSpore 2.10 CPU (docs/mindspore_observed/opsmore.md); gradients
against central differences, GRAPH == PYNATIVE."""
import numpy as np
import pytest

import mslab as ms
import mslab.numpy as mnp
from mslab import ops
from mslab.common.tensor import Tensor
from mslab.ops import operations as P
from mslab.testing import check_grad, check_modes


def values(t):
    return t.asnumpy().tolist()


# (exclusive, reverse) -> (CumProd of [2 3 4], grad of sum(CumProd * [1 2 3])), observed on MindSpore 2.10 CPU
CUMPROD = [((False, False), [2, 6, 24], [43, 28, 18]), ((False, True), [24, 12, 4], [12, 16, 15]),
           ((True, False), [1, 2, 6], [11, 6, 0]), ((True, True), [12, 4, 1], [0, 4, 5])]


@pytest.mark.parametrize("flags, out, grad", CUMPROD)
def test_cumprod_matches_mindspore(flags, out, grad):
    x, w = Tensor(np.array([2.0, 3.0, 4.0], np.float32)), Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    op = P.CumProd(*flags)
    assert values(op(x, 0)) == out
    assert values(ms.grad(lambda t: (op(t, 0) * w).sum())(x)) == grad
    rng = np.random.default_rng(3)
    check_grad(lambda t: op(t, 1), rng.standard_normal((2, 4, 3)))
    check_grad(lambda t: op(t, 0), np.array([2.0, 0.0, 4.0, 0.0]))   # zeros: the true gradient (see below)
    check_modes(lambda t: op(t, -1), Tensor(rng.standard_normal((3, 4))))


def test_cumprod_functional_forms():
    x, m = Tensor(np.array([2.0, 3.0, 4.0], np.float32)), Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    # observed on MindSpore 2.10 CPU
    assert values(ops.cumprod(m, 1)) == [[1, 2], [3, 12]] and ops.cumprod(m, -1, dtype=ms.float64).dtype == ms.float64
    assert values(mnp.cumprod(x)) == [2, 6, 24] and values(mnp.cumprod(m, axis=0)) == [[1, 2], [3, 8]]
    assert values(mnp.cumprod(m)) == [1, 2, 6, 24]
    xi = mnp.cumprod(Tensor(np.array([[1, 2], [3, 4]], np.int32)))
    assert values(xi) == [1, 2, 6, 24] and xi.dtype == ms.int32
    assert mnp.cumprod(Tensor(np.array([True, True]))).dtype == ms.int32
    # MindSpore 2.10's CPU gradient divides by x: d sum(cumprod([2, 0, 4])) is [1, nan, 0] there; mslab gives the
    # true gradient [1, 1 * (2 + 2 * 4) = 10, 0] (as SPEC.md's CPU quirks: the documented formula)
    assert values(ms.grad(lambda t: mnp.cumprod(t).sum())(Tensor(np.array([2.0, 0.0, 4.0], np.float32)))) == [1, 10, 0]
