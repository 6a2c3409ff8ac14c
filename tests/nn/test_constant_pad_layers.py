"""nn.ConstantPad1d/2d/3d and nn.ZeroPad2d (mindcv's BiT pads with ConstantPad2d): values, gradient and argument
errors as MindSpore 2.10 CPU printed them (the same in PYNATIVE and GRAPH mode), and a central-difference check."""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, nn
from mslab.core.context import in_mode
from mslab.testing import check_grad

X = np.arange(2 * 2 * 3 * 4, dtype=np.float32).reshape(2, 2, 3, 4)
W = np.cos(np.arange(2 * 2 * 4 * 4, dtype=np.float32)).reshape(2, 2, 4, 4)
# MindSpore 2.10: ConstantPad2d((1, -1, 2, -1), 0.5)(X)[1, 1]; the gradient of (pad(x) * W).sum() at x[0, 1]
MS_Y = [[0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5], [0.5, 36.0, 37.0, 38.0], [0.5, 40.0, 41.0, 42.0]]
MS_DX = [[0.9912028312683105, 0.6469193696975708, -0.29213881492614746, 0.0],
         [-0.7480575442314148, 0.15425145626068115, 0.9147423505783081, 0.0], [0.0, 0.0, 0.0, 0.0]]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_constant_pads_as_mindspore(mode):
    with in_mode(mode):
        pad = nn.ConstantPad2d((1, -1, 2, -1), 0.5)
        x, w = Tensor(X), Tensor(W)
        y = pad(x)
        assert y.shape == (2, 2, 4, 4)
        np.testing.assert_array_equal(y.asnumpy()[1, 1], MS_Y)

        def loss(x):
            return (pad(x) * w).sum()

        np.testing.assert_array_equal(ms.grad(loss)(x).asnumpy()[0, 1], MS_DX)
        np.testing.assert_array_equal(nn.ConstantPad1d(2, -1.0)(x).asnumpy()[0, 0, 0],
                                      [-1.0, -1.0, 0.0, 1.0, 2.0, 3.0, -1.0, -1.0])
        assert nn.ConstantPad3d(1, 3)(x).shape == (2, 4, 5, 6)
        np.testing.assert_array_equal(nn.ZeroPad2d(1)(x).asnumpy()[0, 0, 0], [0.0] * 6)


def test_constant_pad_gradient_matches_central_differences():
    check_grad(nn.ConstantPad2d((2, -1, 0, 1), 1.5), np.random.default_rng(0).standard_normal((2, 3, 4)))


@pytest.mark.parametrize("make, error, message", [
    (lambda: nn.ConstantPad2d((1, 1, 1, 1, 1, 1), 0), ValueError,
     "For 'ConstantPad2d', the length of parameter 'padding' with tuple type must no more than 4.but got 6"),
    (lambda: nn.ConstantPad2d([1, 1], 0), TypeError,
     "For 'ConstantPad2d', the type of parameter 'padding' must be in [int, tuple], but got <class 'list'>"),
    (lambda: nn.ConstantPad2d(1, "a"), TypeError,
     "For 'ConstantPad2d', the type of parameter 'value' must be in [int, float], but got <class 'str'>"),
    (lambda: nn.ConstantPad1d((1, 1, 1, 1), 0), ValueError,
     "For 'ConstantPad1d', the length of parameter 'padding' with tuple type must equal to 2.but got 4"),
    (lambda: nn.ConstantPad2d((1, 1, 1), 0), ValueError,
     "For 'ConstantPad2d', the length of parameter 'padding' with tuple type must be a multiple of 2, but got 3"),
])
def test_constant_pad_errors_as_mindspore(make, error, message):
    with pytest.raises(error) as caught:
        make()
    assert str(caught.value) == message
