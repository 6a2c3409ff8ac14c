"""nn.Pad: values, gradients and modes, and its errors. Numbers observed on MindSpore 2.10 CPU."""
import numpy as np
import pytest

import mslab as ms
from mslab import nn
from mslab.common.tensor import Tensor
from mslab.testing import check_grad, check_modes

X = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]], np.float32)


# observed on MindSpore 2.10 CPU: nn.Pad(paddings=((1, 1), (2, 0)), mode)(X)
PADDED = {
    "CONSTANT": [[0, 0, 0, 0, 0], [0, 0, 1, 2, 3], [0, 0, 4, 5, 7], [0, 0, 0, 0, 0]],
    "REFLECT": [[7, 5, 4, 5, 7], [3, 2, 1, 2, 3], [7, 5, 4, 5, 7], [3, 2, 1, 2, 3]],
    "SYMMETRIC": [[2, 1, 1, 2, 3], [2, 1, 1, 2, 3], [5, 4, 4, 5, 7], [5, 4, 4, 5, 7]],
}


@pytest.mark.parametrize("mode", sorted(PADDED))
def test_pad_values_gradient_and_modes(mode):
    pad = nn.Pad(paddings=((1, 1), (2, 0)), mode=mode)
    np.testing.assert_array_equal(pad(Tensor(X)).asnumpy(), PADDED[mode])
    wide = nn.Pad(paddings=((1, 1), (2, 2)), mode=mode)  # every edge mirrored as far as it goes, as numpy.pad
    np.testing.assert_array_equal(wide(Tensor(X)).asnumpy(), np.pad(X, ((1, 1), (2, 2)), mode.lower()))
    check_grad(lambda t: pad(t) * np.arange(20.0).reshape(4, 5), X)
    check_modes(pad, Tensor(X))


def test_pad_constant_gradient_is_dout_cut_back():
    # observed on MindSpore 2.10 CPU: grad of 3 * sum(Pad(((1, 1), (2, 0)))(X)) -> all 3s of X's shape
    g = ms.grad(lambda t: (nn.Pad(paddings=((1, 1), (2, 0)))(t) * 3).sum())(Tensor(X))
    np.testing.assert_array_equal(g.asnumpy(), np.full((2, 3), 3.0))


def test_pad_errors():
    # observed on MindSpore 2.10 CPU: mode 'FOO' -> ValueError "For 'Pad', the 'mode' must be str and must be in
    # '['CONSTANT', 'REFLECT', 'SYMMETRIC']'..."; one pair for a 2-D input -> ValueError "the length of 'paddings'
    # must be equal to the rank of 'input_x', but got 1 vs 2"; REFLECT by 3 on an axis of 2 -> ValueError
    with pytest.raises(ValueError, match="'mode' must be"):
        nn.Pad(paddings=((1, 1), (2, 0)), mode="FOO")
    with pytest.raises(ValueError, match="1 vs 2"):
        nn.Pad(paddings=((1, 1),))(Tensor(X))
    with pytest.raises(ValueError, match="no greater than the dimension size"):
        nn.Pad(paddings=((3, 0), (0, 0)), mode="REFLECT")(Tensor(X))
