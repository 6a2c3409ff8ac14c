"""L2Normalize and clip_by_global_norm (issue #19), with MindSpore 2.10's numbers (observed on MindSpore 2.10
CPU; docs/mindspore_observed/randimg.md), central-difference gradients and GRAPH == PYNATIVE."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mslab import ops
from mslab.common.tensor import Tensor
from mslab.ops import composite as C
from mslab.ops import normalize_ops
from mslab.testing import check_grad, check_modes

Y = np.array([[1., -2., 3.], [0., 0., 0.], [4., 5., -6.]], np.float32)
W = np.arange(9, dtype=np.float32).reshape(3, 3)


def close(got, expected, rtol=1e-6):
    np.testing.assert_allclose(got.asnumpy(), np.array(expected, np.float32), rtol=rtol, atol=1e-7)


def test_l2_normalize_matches_mindspore():
    y = Tensor(Y)
    by_col = [[0.24253563582897186, -0.3713906705379486, 0.4472135901451111], [0.0, 0.0, 0.0],
              [0.9701425433158875, 0.9284766912460327, -0.8944271802902222]]
    by_row = [[0.26726123690605164, -0.5345224738121033, 0.8017836809158325], [0.0, 0.0, 0.0],
              [0.4558423161506653, 0.5698028802871704, -0.6837634444236755]]
    # observed on MindSpore 2.10 CPU: the default axis is 0
    close(ops.L2Normalize()(y), by_col)
    close(ops.L2Normalize(axis=(0,))(y), by_col)
    close(ops.L2Normalize(axis=1, epsilon=1e-4)(y), by_row)
    close(ops.L2Normalize(axis=-1, epsilon=1.0)(y), by_row)
    # epsilon clamps the squared norm: x / sqrt(max(sum x^2, epsilon))
    close(ops.L2Normalize(axis=1)(Tensor(np.array([[1e-3, 0., 0.], [0., 2e-3, 0.]], np.float32))),
          [[0.10000000894069672, 0.0, 0.0], [0.0, 0.20000001788139343, 0.0]])
    p = Tensor(np.array([[0.3, 0.4]], np.float32))
    close(ops.L2Normalize(axis=1, epsilon=0.5)(p), [[0.4242641031742096, 0.5656854510307312]])
    close(ops.L2Normalize(axis=1, epsilon=0.3)(p), [[0.547722578048706, 0.7302967309951782]])
    close(ops.L2Normalize(axis=1, epsilon=0.1)(p), [[0.6000000238418579, 0.800000011920929]])
    close(ops.L2Normalize(axis=1)(Tensor(np.array([[[0.3, 0.4], [1., 2.]]], np.float32))),
          [[[0.2873478829860687, 0.1961161494255066], [0.9578262567520142, 0.9805806875228882]]])


def test_l2_normalize_gradient_matches_mindspore():
    w = Tensor(W)
    grad = ops.grad(lambda x: (ops.L2Normalize(axis=1)(x) * w).sum())
    # observed on MindSpore 2.10 CPU, including the rows where epsilon clamps (divided by max(||x||, eps))
    close(grad(Tensor(Y)), [[-0.07636033743619919, 0.4199819266796112, 0.3054414689540863], [30000.0, 40000.0, 50000.0],
                            [0.6186431050300598, 0.7163236141204834, 1.009365200996399]])
    small = Tensor(np.array([[1e-3, 0., 0.], [0., 2e-3, 0.], [4., 5., -6.]], np.float32))
    close(grad(small), [[0.0, 999.9999389648438, 1999.9998779296875], [1499.9998779296875, 1919.9998779296875, 2500.0],
                        [0.6186431050300598, 0.7163236141204834, 1.009365200996399]])
    close(ops.grad(lambda x: (ops.L2Normalize(axis=0)(x) * w).sum())(Tensor(Y)),
          [[-0.3424032926559448, 0.6083123087882996, 0.7155417799949646],
           [0.7276068925857544, 0.7427813410758972, 0.745356023311615],
           [0.08560065925121307, 0.24332499504089355, 0.3577708899974823]])
    g = ops.grad(lambda x: (ops.L2Normalize(axis=1, epsilon=0.5)(x) * Tensor(np.array([[1., 2.]], np.float32))).sum())
    close(g(Tensor(np.array([[0.3, 0.4]], np.float32))), [[0.679999828338623, 2.239999771118164]])


def test_l2_normalize_errors():
    with pytest.raises(TypeError, match="must be a type of .*but got Tensor\\[Int32\\]"):
        ops.L2Normalize(axis=1)(Tensor(np.ones((2, 2), np.int32)))
    with pytest.raises(ValueError, match="the axis value must be in \\[-2,2\\), but got 5"):
        ops.L2Normalize(axis=5)(Tensor(Y))
    with pytest.raises(TypeError, match="the length of 'axis' must be 1, but got 2"):
        ops.L2Normalize(axis=(0, 1))


@settings(max_examples=10, deadline=None)
@given(shape=st.sampled_from([(3,), (2, 3), (2, 3, 4)]), axis=st.integers(-3, 2), seed=st.integers(0, 50))
def test_l2_normalize_grad_and_modes(shape, axis, seed):
    axis = axis % len(shape)
    x = np.random.default_rng(seed).standard_normal(shape) + 0.5  # norms well above epsilon: the exact region
    f = ops.L2Normalize(axis=axis)
    check_grad(f, x)
    check_modes(f, Tensor(x.astype(np.float32)))


def test_clip_by_global_norm_matches_mindspore():
    a = Tensor(np.array([[1., 2.], [3., 4.]], np.float32))
    b = Tensor(np.array([5., -6.], np.float32))
    # observed on MindSpore 2.10 CPU (global norm sqrt(91))
    out = ops.clip_by_global_norm((a, b), 1.0)
    assert isinstance(out, tuple) and len(out) == 2
    close(out[0], [[0.10482847690582275, 0.2096569538116455], [0.31448543071746826, 0.419313907623291]])
    close(out[1], [0.5241423845291138, -0.6289708614349365])
    out = C.clip_by_global_norm([a, b], 2)
    close(out[0], [[0.2096569538116455, 0.419313907623291], [0.6289708614349365, 0.838627815246582]])
    close(out[1], [1.0482847690582275, -1.257941722869873])
    unclipped = ops.clip_by_global_norm((a, b), 100.0)
    close(unclipped[0], a.asnumpy()) and close(unclipped[1], b.asnumpy())
    single = ops.clip_by_global_norm(a, 1.0)
    assert isinstance(single, Tensor)
    close(single, [[0.18257418274879456, 0.3651483654975891], [0.5477225184440613, 0.7302967309951782]])
    assert len(ops.clip_by_global_norm((a,), 1.0)) == 1


def test_clip_by_global_norm_errors():
    a = Tensor(np.ones((2,), np.float32))
    with pytest.raises(ValueError, match="'use_norm' only supports None currently, but got 'use_norm': 5.0"):
        ops.clip_by_global_norm((a,), 1.0, 5.0)
    for bad in (-1.0, 0.0):
        with pytest.raises(ValueError, match=f"the argument 'clip_norm' must > 0.0, but got {bad}."):
            ops.clip_by_global_norm((a,), bad)


def test_clip_by_global_norm_grad_and_modes():
    a, b = np.random.default_rng(0).standard_normal((2, 3)), np.random.default_rng(1).standard_normal(4)
    f = lambda a, b: normalize_ops.clip_by_global_norm((a, b), 1.5)  # noqa: E731
    check_grad(f, a, b)
    check_modes(f, Tensor(a.astype(np.float32)), Tensor(b.astype(np.float32)))
    small = lambda a, b: normalize_ops.clip_by_global_norm((a, b), 100.0)  # noqa: E731 - the unclipped branch
    check_grad(small, a, b)
