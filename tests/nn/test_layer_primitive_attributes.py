"""The operators MindSpore 2.10's layers hold under their attribute names, which model code that subclasses a layer
calls (mindcv's ConvNeXt calls ``self.layer_norm``, its BiT ``self.conv2d``): numbers recorded from MindSpore 2.10
CPU (the same in PYNATIVE and GRAPH mode), checked in both modes."""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, nn, ops
from mslab.core.context import in_mode


class ChannelsFirstLayerNorm(nn.LayerNorm):
    """mindcv's ConvNextLayerNorm: LayerNorm over the channels of an (N, C, H, W) input."""

    def construct(self, x):
        y, _, _ = self.layer_norm(ops.transpose(x, (0, 2, 3, 1)), self.gamma, self.beta)
        return ops.transpose(y, (0, 3, 1, 2))


class StdConv2d(nn.Conv2d):
    """mindcv's BiT convolution: the weight standardised per output channel, then the layer's own conv2d."""

    def construct(self, x):
        w = self.weight
        w = (w - w.mean((1, 2, 3), keep_dims=True)) / ops.sqrt(w.var((1, 2, 3), keepdims=True) + 1e-10)
        return self.bias_add(self.conv2d(x, w), self.bias)


X = np.arange(2 * 4 * 3 * 3, dtype=np.float32).reshape(2, 4, 3, 3) ** 1.2 / 7
WT = np.cos(np.arange(72, dtype=np.float32)).reshape(2, 4, 3, 3)
# MindSpore 2.10: y[1, :, 2, 1]; the gradients of (y * WT).sum() for x[0, :, 0, 2], gamma and beta
MS_LN_Y = [-1.3269404172897339, -0.9241967797279358, 1.3000329732894897, 5.422776699066162]
MS_LN_DX = [-0.30242010951042175, 0.048907309770584106, 0.71323561668396, -0.4597227871417999]
MS_LN_DGAMMA = [-3.4979968070983887, 1.2439273595809937, 0.7038439512252808, -1.169623851776123]
MS_LN_DBETA = [2.692614793777466, -2.4631454944610596, 1.7958779335021973, -0.8094117641448975]
# MindSpore 2.10, per group: y[0, :, 1, 2] and the gradient of (y ** 2).sum() for x[1, :, 0, 0]
MS_CONV = {1: ([69.37751007080078, 64.84182739257812, 61.88520812988281, 68.13330078125],
               [-5776.8525390625, -2271.28515625, 777.6987915039062, 4108.416015625]),
           2: ([14.805365562438965, 14.221059799194336, 8.884671211242676, 11.552659034729004],
               [-940.92138671875, 496.9463806152344, -961.528076171875, 330.8909606933594])}


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_layer_norm_subclass_calls_its_layer_norm_primitive(mode):
    with in_mode(mode):
        ln = ChannelsFirstLayerNorm((4,), epsilon=1e-6, gamma_init=Tensor(np.array([1., 2., 3., 4.], np.float32)))
        x, wt = Tensor(X), Tensor(WT)
        np.testing.assert_allclose(ln(x).asnumpy()[1, :, 2, 1], MS_LN_Y, rtol=2e-6)

        def loss(x):
            return (ln(x) * wt).sum()

        dx, (dgamma, dbeta) = ms.grad(loss, grad_position=0, weights=ln.trainable_params())(x)
        np.testing.assert_allclose(dx.asnumpy()[0, :, 0, 2], MS_LN_DX, rtol=2e-5)
        np.testing.assert_allclose(dgamma.asnumpy(), MS_LN_DGAMMA, rtol=2e-5)
        np.testing.assert_allclose(dbeta.asnumpy(), MS_LN_DBETA, rtol=2e-6)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("group", [1, 2])
def test_conv2d_subclass_calls_its_conv2d_and_bias_add(mode, group):
    with in_mode(mode):
        w = Tensor(np.linspace(-1, 1, 4 * (4 // group) * 9).astype(np.float32).reshape(4, 4 // group, 3, 3) ** 3)
        conv = StdConv2d(4, 4, 3, pad_mode="pad", padding=1, group=group, has_bias=True, weight_init=w,
                         bias_init="ones")
        x = Tensor(X)
        want_y, want_dx = MS_CONV[group]
        np.testing.assert_allclose(conv(x).asnumpy()[0, :, 1, 2], want_y, rtol=2e-6)

        def loss(x):
            return (conv(x) ** 2).sum()

        np.testing.assert_allclose(ms.grad(loss)(x).asnumpy()[1, :, 0, 0], want_dx, rtol=2e-6)
