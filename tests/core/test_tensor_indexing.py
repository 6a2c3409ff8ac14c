"""Tensor indexing and products as MindSpore 2.10 gives them (numbers observed on MindSpore 2.10 CPU,
docs/mindspore_observed/fidelity.md §3-5, and the checks noted at each test)."""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, context, ops
from mslab.core.errors import GraphModeError
from mslab.testing import check_grad, check_modes


def test_argmax_argmin_without_axis_flatten():
    t = Tensor([[1, 5], [7, 2]])
    # observed on MindSpore 2.10 CPU (PYNATIVE): 2 Int64, 0 Int32; with an axis [1 0] Int64, [0 1] Int32
    assert t.argmax().asnumpy().item() == 2 and t.argmax().dtype == ms.int64 and t.argmax().shape == ()
    assert t.argmin().asnumpy().item() == 0 and t.argmin().dtype == ms.int32
    assert t.argmax(axis=1).asnumpy().tolist() == [1, 0] and t.argmax(1).dtype == ms.int64
    assert t.argmin(axis=1).asnumpy().tolist() == [0, 1] and t.argmin(1).dtype == ms.int32
    assert t.argmin(axis=0, keepdims=True).asnumpy().tolist() == [[0, 1]]
    assert t.argmax(keepdims=True).shape == ()  # keepdims is ignored without an axis (observed)


@pytest.mark.parametrize("a_shape, b_shape, want_shape", [
    ((2,), (2, 3), (3,)), ((3, 2), (2,), (3,)), ((2,), (2,), ()), ((2, 2, 3), (3,), (2, 2)), ((3,), (2, 3, 2), (2, 2))])
def test_matmul_with_1d_operands_follows_numpy(a_shape, b_shape, want_shape):
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(a_shape), rng.standard_normal(b_shape)
    (out,) = check_modes(lambda x, y: x @ y, Tensor(a.astype(np.float32)), Tensor(b.astype(np.float32)))
    assert out.shape == want_shape
    np.testing.assert_allclose(out, a @ b, rtol=1e-5)
    check_grad(lambda x, y: ops.matmul(x, y), a, b)


def test_matmul_values_observed():
    v = Tensor(np.array([1, 2], np.float32))
    m = Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.float32))
    # observed on MindSpore 2.10 CPU
    assert (v @ m).asnumpy().tolist() == [9, 12, 15]
    assert (m.T @ v).asnumpy().tolist() == [9, 12, 15]
    assert (v @ v).asnumpy().item() == 5.0 and (v @ v).shape == ()
    assert ops.matmul(v, v).asnumpy().item() == 5.0


def test_boolean_masks_of_any_rank_index_as_numpy():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    t = Tensor(x)
    # observed on MindSpore 2.10 CPU: x[x > 10] has shape (13,); a (2, 3) mask gives (3, 4)
    assert t[t > 10].asnumpy().tolist() == list(range(11, 24))
    mask = np.array([[True, False, True], [False, True, False]])
    np.testing.assert_array_equal(t[Tensor(mask)].asnumpy(), [[0, 1, 2, 3], [8, 9, 10, 11], [16, 17, 18, 19]])
    np.testing.assert_array_equal(t[:, Tensor(mask[0])].asnumpy(), x[:, mask[0]])
    check_grad(lambda a: a[Tensor(mask)] * 2.0, x.astype(np.float64))


def test_boolean_mask_in_graph_mode_is_a_clear_error():
    context.set_context(mode=context.GRAPH_MODE)
    try:
        with pytest.raises(GraphModeError, match="depends on the values"):
            ms.jit(lambda a: a[a > 1.0])(Tensor(np.ones((2, 2), np.float32)))
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
