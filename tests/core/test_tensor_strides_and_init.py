"""Tensor.strides and Tensor(shape=..., dtype=..., init=...) (issue 27, beginner/tensor.md). Every expected value
and text below was printed by MindSpore 2.10 CPU running the same code."""
import numpy as np
import pytest

import mslab as ms
from mslab.common.initializer import Normal, One
from mslab.common.tensor import Tensor


def test_strides_are_bytes_in_row_major_order():
    assert Tensor(np.ones((2, 3), np.float32)).strides == (12, 4)
    assert Tensor(np.ones((2, 3, 4), np.int64)).strides == (96, 32, 8)
    assert Tensor(np.ones((), np.float32)).strides == ()
    assert Tensor(np.ones((2, 3), np.float16)).strides == (6, 2)
    t = Tensor(np.ones((2, 3), np.float32))
    assert t.T.strides == (8, 4) and t.transpose().strides == (8, 4)


def test_init_tensor_is_uninitialized_until_init_data():
    x = Tensor(shape=(2, 2), dtype=ms.float32, init=One())
    assert str(x) == "Tensor(shape=[2, 2], dtype=Float32, value=\n<uninitialized>)"
    assert x.has_init and x.shape == (2, 2) and x.dtype == ms.float32 and x.size == 4 and x.ndim == 2
    assert repr(x) == repr(Tensor(np.zeros((2, 2), np.float32)))  # MindSpore's repr shows zeros meanwhile
    assert x.init_data() is x and not x.has_init
    assert str(x) == "[[1. 1.]\n [1. 1.]]"
    one_d = Tensor(shape=(2,), dtype=ms.float32, init=One())
    assert str(one_d) == "Tensor(shape=[2], dtype=Float32, value=<uninitialized>)"
    assert one_d.tolist() == [0.0, 0.0]  # MindSpore: zeros too
    assert str(Tensor(shape=(2, 3), dtype=ms.float32, init="ones")) == ("Tensor(shape=[2, 3], dtype=Float32, value=\n"
                                                                        "<uninitialized>)")


def test_asnumpy_draws_and_ops_refuse_an_uninitialized_tensor():
    x = Tensor(shape=(2,), dtype=ms.float32, init=One())
    assert x.asnumpy().tolist() == [1.0, 1.0] and not x.has_init
    y = Tensor(shape=(2,), dtype=ms.float32, init=One())
    with pytest.raises(RuntimeError, match=r"^The Tensor\(shape=\[2\], dtype=Float32, value=<uninitialized>\) is "
                                           r"uninitialized. Maybe the Tensor is create by initializer. You need to "
                                           r"call Tensor.init_data before using this Tensor."):
        y * 2
    with pytest.raises(ValueError, match="^init, dtype and shape must have values at the same time.$"):
        Tensor(shape=(2,), init=One())
    with pytest.raises(ValueError, match="^init, dtype and shape must have values at the same time.$"):
        Tensor(init=One())
    ms.set_seed(1)
    z = Tensor(shape=(3,), dtype=ms.float32, init=Normal())
    # MindSpore 2.10 after set_seed(1): [0.00653037 0.01509193 0.00264736]
    np.testing.assert_allclose(z.asnumpy(), [0.00653037, 0.01509193, 0.00264736], rtol=1e-5)
    p = ms.Parameter(Tensor(shape=(2,), dtype=ms.float32, init=One()), name="p")
    assert p.asnumpy().tolist() == [1.0, 1.0]
