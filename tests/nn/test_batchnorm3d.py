"""nn.BatchNorm3d as MindSpore 2.10 builds it (a BatchNorm2d named ``bn2d`` over (N, C, D*H, W)): its numbers,
moving statistics and gradients recorded from MindSpore 2.10 CPU, in both modes, and a central-difference check."""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, nn
from mslab.core.context import in_mode
from mslab.testing import check_grad

X = np.arange(2 * 3 * 2 * 2 * 2, dtype=np.float32).reshape(2, 3, 2, 2, 2) ** 1.5 / 10
W = np.linspace(-1, 1, 48).astype(np.float32).reshape(2, 3, 2, 2, 2)

# Printed by MindSpore 2.10 CPU (the same in PYNATIVE and GRAPH mode) for nn.BatchNorm3d(3, momentum=0.8) in training
# on X: y[0, :, 0, 0, :]; after that one call, the moving statistics; the gradients of
# (bn(x) * W).sum() for x[1, :, 1, 1, :], gamma and beta; then in eval mode y[1, :, 1, 0, :].
MS_Y = [[-1.091188907623291, -1.0768561363220215], [-1.1750832796096802, -1.1252403259277344],
        [-1.2028179168701172, -1.1431775093078613]]
MS_MOVING_MEAN = [1.5226469039916992, 2.514277935028076, 3.737569808959961]
MS_MOVING_VAR = [11.18478012084961, 17.218170166015625, 23.06438446044922]
MS_DX = [[-0.005385281518101692, -0.008099745959043503], [-0.0028850657399743795, -0.004313255660235882],
         [-0.001878886017948389, -0.0028051137924194336]]
MS_DGAMMA = [8.286474227905273, 8.307047843933105, 8.312140464782715]
MS_DBETA = [-5.446808338165283, 0.0, 5.446808815002441]
MS_EVAL = [[2.74636173248291, 2.9284839630126953], [3.1073615550994873, 3.2722856998443604],
           [3.5196707248687744, 3.676485300064087]]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_batchnorm3d_matches_mindspore(mode):
    with in_mode(mode):
        bn = nn.BatchNorm3d(3, momentum=0.8)
        assert [p.name for p in bn.get_parameters()] == ["bn2d.moving_mean", "bn2d.moving_variance", "bn2d.gamma",
                                                         "bn2d.beta"]
        bn.set_train()
        x, w = Tensor(X), Tensor(W)
        y = bn(x)
        np.testing.assert_allclose(y.asnumpy()[0, :, 0, 0, :], MS_Y, rtol=2e-6)
        np.testing.assert_allclose(bn.bn2d.moving_mean.asnumpy(), MS_MOVING_MEAN, rtol=2e-6)
        np.testing.assert_allclose(bn.bn2d.moving_variance.asnumpy(), MS_MOVING_VAR, rtol=2e-6)
        dx, (dgamma, dbeta) = ms.grad(lambda x: (bn(x) * w).sum(), grad_position=0, weights=bn.trainable_params())(x)
        np.testing.assert_allclose(dx.asnumpy()[1, :, 1, 1, :], MS_DX, rtol=2e-5)
        np.testing.assert_allclose(dgamma.asnumpy(), MS_DGAMMA, rtol=2e-6)
        np.testing.assert_allclose(dbeta.asnumpy(), MS_DBETA, rtol=2e-6, atol=1e-6)
        bn.set_train(False)
        np.testing.assert_allclose(bn(x).asnumpy()[1, :, 1, 0, :], MS_EVAL, rtol=2e-6)


def test_batchnorm3d_gradient_matches_central_differences():
    bn = nn.BatchNorm3d(3, dtype=ms.float64).set_train()
    x = np.random.default_rng(0).standard_normal((2, 3, 2, 3, 2))
    check_grad(bn, x)


def test_batchnorm3d_errors_as_mindspore():
    # MindSpore 2.10's messages (observed); the argument checks are BatchNorm2d's, which BatchNorm3d builds
    with pytest.raises(ValueError, match=r"For 'BatchNorm3d', the in_shape must have 5 dims, but got 4\."):
        nn.BatchNorm3d(3)(Tensor(np.ones((2, 3, 4, 4), np.float32)))
    with pytest.raises(ValueError, match=r"For 'BatchNorm2d', the 'num_features' must be at least 1, but got 0\."):
        nn.BatchNorm3d(0)
    with pytest.raises(ValueError, match=r"the 'momentum' must be a number in range \[0, 1\], but got 1\.5\."):
        nn.BatchNorm3d(3, momentum=1.5)
    with pytest.raises(TypeError, match=r"the type of 'num_features' should be 'int', but got type 'float'\."):
        nn.BatchNorm3d(3.0)
