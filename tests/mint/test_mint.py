"""``mslab.mint``: mint.flatten / sum / mean / matmul / select / narrow, mint.nn.ReLU, mint.nn.functional.relu,
and ops.sum's Int64 for integer inputs. Values observed on MindSpore 2.10 CPU (docs/mindspore_observed/opsmore.md)."""
import numpy as np
import pytest

import mslab as ms
from mslab import mint, nn, ops
from mslab.common.tensor import Tensor
from mslab.testing import check_grad, check_modes

Y = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
M = np.arange(12, dtype=np.float32).reshape(3, 4)
I6 = np.arange(6, dtype=np.int32).reshape(2, 3)


def values(t):
    return t.asnumpy().tolist()


def test_mint_flatten_sum_mean():
    y = Tensor(Y)
    # observed on MindSpore 2.10 CPU: flatten starts at axis 0; a 0-d input gives (1,)
    assert mint.flatten(y).shape == (24,) and mint.flatten(y, 1).shape == (2, 12)
    assert mint.flatten(y, start_dim=1, end_dim=-1).shape == (2, 12) and mint.flatten(y, 0, 1).shape == (6, 4)
    assert mint.flatten(Tensor(3.0, ms.float32)).shape == (1,)
    with pytest.raises(ValueError, match="For 'flatten', 'start_dim' cannot come after 'end_dim'."):
        mint.flatten(y, 2, 1)
    assert values(mint.sum(y)) == 276.0 and mint.sum(y, 1).shape == (2, 4)
    assert values(mint.sum(y, dim=(0, 2), keepdim=True)) == [[[60.0], [92.0], [124.0]]]
    i = Tensor(I6)
    assert values(mint.sum(i)) == 15 and mint.sum(i).dtype == ms.int64 and values(mint.sum(i, 1, True)) == [[3], [12]]
    assert values(mint.sum(i, dim=[0, 1])) == 15 and mint.sum(y, dtype=ms.float64).dtype == ms.float64
    for dt in (np.bool_, np.uint8, np.int8, np.int16, np.int32, np.int64):  # observed: all Int64, as ops.sum
        assert ops.sum(Tensor(np.ones(2, dt))).dtype == ms.int64
    assert ops.sum(Tensor(np.ones(2, np.float16))).dtype == ms.float16
    assert values(mint.mean(y)) == 11.5 and mint.mean(y, 1).shape == (2, 4)
    assert mint.mean(y, dim=1, keepdim=True).shape == (2, 1, 4) and values(mint.mean(y, (0, 1))) == [10, 11, 12, 13]
    assert mint.mean(y, dtype=ms.float64).dtype == ms.float64 and values(mint.mean(i)) == 2
    check_modes(lambda t: (mint.flatten(t, 1), mint.sum(t, 2, True), mint.mean(t, [0, 2])), y)
    check_grad(lambda t: mint.mean(mint.flatten(t, 0, 1), 0), Y)


def test_mint_matmul_select_narrow():
    one23, one3 = Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones(3, np.float32))
    # observed on MindSpore 2.10 CPU
    assert values(mint.matmul(one23, one3)) == [3.0, 3.0] and values(mint.matmul(one3, one3)) == 3.0
    assert mint.matmul(Tensor(np.ones((2, 1, 2, 3), np.float32)), Tensor(np.ones((4, 3, 5), np.float32))).shape == \
        (2, 4, 2, 5)
    with pytest.raises(TypeError, match="For 'MatMulExt', the type of 'x2' should be same as 'x1'"):
        mint.matmul(one23, Tensor(np.ones((3, 2), np.int32)))
    y = Tensor(Y)
    assert values(mint.select(y, 1, 2)) == [[8.0, 9.0, 10.0, 11.0], [20.0, 21.0, 22.0, 23.0]]
    assert mint.select(y, 0, -1).shape == (3, 4) and values(mint.select(y, -1, -1)[0]) == [3.0, 7.0, 11.0]
    with pytest.raises(ValueError, match=r"start exceed range. start: 3, start should be in \[-3, 3\)"):
        mint.select(y, 1, 3)
    assert mint.narrow(y, 2, 1, 2).shape == (2, 3, 2) and values(mint.narrow(y, 2, 1, 2)[0, 0]) == [1.0, 2.0]
    assert values(mint.narrow(y, -1, -3, 2)[0, 0]) == [1.0, 2.0]
    with pytest.raises(ValueError, match=r"For 'Narrow', start \(3\), \+ length \(2\) exceeds dimension size \(4\)."):
        mint.narrow(y, 2, 3, 2)
    # observed: grad of sum(narrow(t, 2, 1, 2)) is [[0 1 1 0] ...]; mint.select's grad fails on MindSpore's CPU
    # (RuntimeError from InplaceCopy), mslab gives the documented one
    assert values(ms.grad(lambda t: mint.narrow(t, 2, 1, 2).sum())(y)[0]) == [[0.0, 1.0, 1.0, 0.0]] * 3
    check_grad(lambda t: (mint.select(t, 1, -1), mint.narrow(t, 0, 1, 1)), Y)
    check_modes(lambda a, b: (mint.matmul(a, b), mint.select(a, 0, 1)), Tensor(M), Tensor(M.T.copy()))


def test_mint_nn():
    # observed on MindSpore 2.10 CPU: relu [0. 2.]; mint.nn.ReLU is nn.ReLU
    assert values(mint.nn.functional.relu(Tensor(np.array([-1.0, 2.0], np.float32)))) == [0.0, 2.0]
    assert mint.nn.ReLU is nn.ReLU
    with pytest.raises(NotImplementedError, match="inplace=True"):
        mint.nn.functional.relu(Tensor(np.array([-1.0], np.float32)), inplace=True)
    with pytest.raises(AttributeError, match="exists in MindSpore 2.10 but mslab does not implement it yet"):
        mint.nn.Conv2d  # noqa: B018
