"""batch_norm_ops: the fused training BatchNorm against the unfused ops it replaced, its
gradients against central differences (both modes), GRAPH == PYNATIVE, and the moving-statistics update."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mslab as ms
from mslab import Parameter, Tensor, nn, ops
from mslab.ops import batch_norm_ops
from mslab.ops.batch_norm_ops import BatchNorm, BatchNormGrad, BatchNormScaleGrad
from mslab.testing import check_grad, check_modes


def rnd(*shape, seed=0, dtype=np.float32):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def moving(c, dtype=np.float32):
    return (Parameter(Tensor(np.zeros(c, dtype)), name="mean", requires_grad=False),
            Parameter(Tensor(np.ones(c, dtype)), name="variance", requires_grad=False))


def unfused(x, gamma, beta, eps):
    """The elementwise chain nn.BatchNorm2d ran before the fused kernel (what the fused one must equal)."""
    axes = (0,) + tuple(range(2, x.ndim))
    stat = (1, -1) + (1,) * (x.ndim - 2)
    mean = ops.reduce_mean(Tensor(x), axes, True)
    centered = ops.sub(Tensor(x), mean)
    var = ops.reduce_mean(ops.square(centered), axes, True)
    y = ops.div(centered, ops.sqrt(ops.add(var, eps)))
    return ops.add(ops.mul(y, ops.reshape(Tensor(gamma), stat)), ops.reshape(Tensor(beta), stat)).asnumpy()


@pytest.mark.parametrize("shape", [(5, 3), (4, 3, 6), (2, 3, 5, 4)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_forward_equals_the_unfused_ops(shape, dtype):
    x, gamma, beta = rnd(*shape, dtype=dtype), rnd(shape[1], seed=1, dtype=dtype), rnd(shape[1], seed=2, dtype=dtype)
    y = BatchNorm(1e-5, 0.9)(Tensor(x), Tensor(gamma), Tensor(beta), *moving(shape[1], dtype))
    # per-channel sums by BLAS dot products round differently from np.mean: equal within the dtype's precision
    tol = 2e-6 if dtype == np.float32 else 1e-14
    np.testing.assert_allclose(y.asnumpy(), unfused(x, gamma, beta, 1e-5), rtol=tol, atol=tol)


def test_moving_statistics_update_in_place():
    x = rnd(8, 3, 2, 2)
    mean, var = moving(3)
    BatchNorm(1e-5, 0.75)(Tensor(x), Tensor(np.ones(3, np.float32)), Tensor(np.zeros(3, np.float32)), mean, var)
    n = 8 * 2 * 2
    batch_mean = x.mean(axis=(0, 2, 3))
    batch_var = x.var(axis=(0, 2, 3)) * n / (n - 1)  # the unbiased estimate feeds the moving variance
    np.testing.assert_allclose(mean.asnumpy(), 0.25 * batch_mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), 0.75 + 0.25 * batch_var, rtol=1e-5)


def test_one_value_per_channel_makes_the_moving_variance_nan():
    mean, var = moving(2)
    BatchNorm()(Tensor(rnd(1, 2)), Tensor(np.ones(2, np.float32)), Tensor(np.zeros(2, np.float32)), mean, var)
    assert np.isnan(var.asnumpy()).all()


@settings(max_examples=15, deadline=None)
@given(n=st.integers(2, 4), c=st.integers(1, 3), hw=st.sampled_from([(), (3,), (2, 3)]))
def test_gradients_match_central_differences(n, c, hw):
    shape = (n, c) + hw
    mean, var = moving(c, np.float64)

    def bn(x, gamma, beta):
        return BatchNorm(1e-3, 0.9)(x, gamma, beta, mean, var)

    check_grad(bn, rnd(*shape), rnd(c, seed=1) + 1.5, rnd(c, seed=2), rtol=1e-4, atol=1e-6)


def test_backward_kernels_equal_the_formula():
    x, dy, gamma = rnd(4, 3, 5, 5, dtype=np.float64), rnd(4, 3, 5, 5, seed=3, dtype=np.float64), rnd(3, seed=4) + 1
    axes, eps = (0, 2, 3), 1e-5
    xhat = (x - x.mean(axes, keepdims=True)) / np.sqrt(x.var(axes, keepdims=True) + eps)
    m = x.size // 3
    dscale = (dy * xhat).sum(axes)
    dx = gamma.reshape(1, 3, 1, 1) / np.sqrt(x.var(axes, keepdims=True) + eps) * (
        dy - dy.sum(axes, keepdims=True) / m - xhat * dscale.reshape(1, 3, 1, 1) / m)
    np.testing.assert_allclose(BatchNormGrad(eps)(Tensor(dy), Tensor(x), Tensor(gamma.astype(np.float64))).asnumpy(),
                               dx, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(BatchNormScaleGrad(eps)(Tensor(dy), Tensor(x)).asnumpy(), dscale, rtol=1e-10)


def test_graph_equals_pynative():
    x, gamma, beta = rnd(4, 3, 5, 5), rnd(3, seed=1), rnd(3, seed=2)
    state = {}

    def bn(a, g, b):  # fresh moving statistics per mode: the side effect would otherwise differ between runs
        key = ms.get_context("mode")
        state.setdefault(key, moving(3))
        return BatchNorm()(a, g, b, *state[key])

    check_modes(bn, Tensor(x), Tensor(gamma), Tensor(beta))
    check_modes(ms.grad(lambda a, g, b: ops.reduce_sum(bn(a, g, b) * bn(a, g, b)), (0, 1, 2)),
                Tensor(x), Tensor(gamma), Tensor(beta))
    np.testing.assert_array_equal(state[ms.PYNATIVE_MODE][0].asnumpy(), state[ms.GRAPH_MODE][0].asnumpy())


def test_a_training_batchnorm_layer_is_one_node_in_the_graph():
    """One BatchNorm node per layer in the forward graph, one BatchNormGrad in the backward (MindSpore's shape)."""
    net = nn.SequentialCell([nn.Conv2d(3, 3, 1), nn.BatchNorm2d(3)])  # the conv's weight needs BatchNorm's dx
    net.set_train()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    graph = ms.trace(train, Tensor(rnd(2, 3, 4, 4)), Tensor(rnd(2, 3, 4, 4, seed=5)))
    names = [n.prim.name for n in graph.nodes]
    assert names.count("BatchNorm") == 1 and names.count("BatchNormGrad") == 1
    assert "SGD" in names  # the optimizer's writes; BatchNorm's own writes are inside its node


def test_clear_error_for_wrong_parameter_shapes():
    mean, var = moving(4)
    with pytest.raises(ms.errors.OpError, match=r"BatchNorm.*scale must have shape \(3,\)"):
        BatchNorm()(Tensor(rnd(2, 3)), Tensor(np.ones(4, np.float32)), Tensor(np.zeros(3, np.float32)), mean, var)


def test_every_primitive_of_the_family_is_tested():
    assert set(batch_norm_ops.__all__) == {"BatchNorm", "BatchNormGrad", "BatchNormScaleGrad"}
