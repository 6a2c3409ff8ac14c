"""Method forms of functional ops (issue 28): Tensor.dim, add, sub, mul, div (rounding_mode), cos, sin, neg and
masked_fill, with the values MindSpore 2.10 CPU printed for the same calls (docs/mindspore_observed/wrongvals.md)."""
import numpy as np
import pytest

import mslab as ms
from mslab import ops
from mslab.common.tensor import Tensor
from mslab.testing import check_grad, check_modes

X = np.array([[7.0, -7.0, 2.5]], np.float32)
Y = np.array([[2.0, 2.0, 0.5]], np.float32)


def values(t):
    return t.asnumpy().tolist()


def test_method_forms_give_mindspores_values():
    x, y = Tensor(X), Tensor(Y)
    # observed on MindSpore 2.10 CPU
    assert x.dim() == 2 and isinstance(x.dim(), int)
    assert values(x.add(y)) == [[9.0, -5.0, 3.0]] and values(x.add(y, alpha=2)) == [[11.0, -3.0, 3.5]]
    assert values(x.sub(y)) == [[5.0, -9.0, 2.0]] and values(x.mul(y)) == [[14.0, -14.0, 1.25]]
    assert values(x.div(y)) == [[3.5, -3.5, 5.0]]
    assert values(x.div(y, rounding_mode="floor")) == [[3.0, -4.0, 5.0]]
    assert values(x.div(y, rounding_mode="trunc")) == [[3.0, -3.0, 5.0]]
    np.testing.assert_allclose(values(x.cos()), [[0.75390226, 0.75390226, -0.8011436]], rtol=1e-6)
    np.testing.assert_allclose(values(x.sin()), [[0.6569866, -0.6569866, 0.5984721]], rtol=1e-6)
    assert values(x.neg()) == [[-7.0, 7.0, -2.5]]
    assert values(x.masked_fill(Tensor(np.array([[True, False, True]])), 0.0)) == [[0.0, -7.0, 0.0]]
    assert values(x.add(1)) == [[8.0, -6.0, 3.5]] and values(x.div(2)) == [[3.5, -3.5, 1.25]]
    with pytest.raises(ValueError, match="rounding_mode"):
        x.div(y, rounding_mode="round")


def test_method_forms_differentiate_and_compile():
    check_grad(lambda a, b: a.add(b, alpha=3).mul(b).div(a).cos(), np.array([[1.5, -0.7]]), np.array([[0.4, 2.0]]))
    check_modes(lambda a, b: (a.sub(b, alpha=2), a.sin().neg(), a.div(b, rounding_mode="floor")), Tensor(X), Tensor(Y))
    assert ops.cos(Tensor(X)).asnumpy().tolist() == Tensor(X).cos().asnumpy().tolist()
    assert ms.Tensor(np.zeros((2, 3, 4), np.float32)).dim() == 3


def test_cumsum_and_expand_as_as_mindspore():
    """MindSpore 2.10 (observed): cumsum over an axis, with a dtype, over the flattened tensor without an axis;
    expand_as broadcasts to the other tensor's shape (mindcv's models call both)."""
    t = Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.float32))
    np.testing.assert_array_equal(t.cumsum(1).asnumpy(), [[1, 3, 6], [4, 9, 15]])
    wide = t.cumsum(axis=0, dtype=ms.float64)
    assert wide.dtype == ms.float64 and wide.asnumpy().tolist() == [[1, 2, 3], [5, 7, 9]]
    np.testing.assert_array_equal(t.cumsum().asnumpy(), [1, 3, 6, 10, 15, 21])
    row = Tensor(np.array([1, 2, 3], np.float32)).expand_as(t)
    assert row.shape == (2, 3) and row.asnumpy().tolist() == [[1, 2, 3], [1, 2, 3]]
