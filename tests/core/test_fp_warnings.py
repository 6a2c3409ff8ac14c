"""inf and nan flow through mslab's kernels without numpy's RuntimeWarnings, as through MindSpore's (which
print nothing): an op on its own, a Cell call, a gradient and a compiled GRAPH-mode step; and a user's own
numpy code keeps its warnings."""
import warnings

import numpy as np
import pytest

import mslab as ms
from mslab import nn, ops


@pytest.fixture
def every_warning_is_an_error():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_inf_and_nan_compute_silently(mode, every_warning_is_an_error):
    ms.set_context(mode=mode)
    try:
        x = ms.Tensor(np.array([[np.inf, 1.0], [0.0, -np.inf]], np.float32))
        assert np.isnan(ops.mul(x, 0.0).asnumpy()[0, 0])  # inf * 0 (numpy: "invalid value encountered")
        assert np.isinf(ops.exp(ms.Tensor(np.array([1000.0], np.float32))).asnumpy()).all()  # overflow
        net = nn.Dense(2, 3)
        out = net(x)  # inf through a matmul
        assert not np.isfinite(out.asnumpy()).all()
        grads = ms.grad(lambda a: ops.reduce_sum(net(a)), grad_position=0)(x)
        assert grads.shape == (2, 2)
        train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
        train(x, ms.Tensor(np.zeros((2, 3), np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_the_users_own_numpy_still_warns():
    ops.mul(ms.Tensor(np.array([np.inf], np.float32)), 0.0)
    with pytest.warns(RuntimeWarning):
        np.array([np.inf], np.float32) * 0
