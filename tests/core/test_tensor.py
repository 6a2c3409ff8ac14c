"""Tensor, Parameter, ParameterTuple and dtypes behave as SPEC.md says."""
import numpy as np
import pytest

import mslab as ms
from mslab import Parameter, ParameterTuple, Tensor
from mslab.common import dtype as mstype


def test_default_dtypes():
    assert Tensor(1.5).dtype == mstype.float32
    assert Tensor(2).dtype == mstype.int64
    assert Tensor(True).dtype == mstype.bool_
    assert Tensor([1.0, 2.0]).dtype == mstype.float32
    assert Tensor(np.zeros(3)).dtype == mstype.float64  # numpy arrays keep their dtype
    assert Tensor(np.zeros(3), mstype.float16).dtype == mstype.float16
    assert str(mstype.float32) == "Float32" and repr(mstype.uint8) == "UInt8"
    assert mstype.float32 == np.float32


def test_repr_and_print():
    assert repr(Tensor(np.float32(3.00936))) == "Tensor(shape=[], dtype=Float32, value= 3.00936)"
    assert repr(Tensor(np.array([1, 2], np.int32))) == "Tensor(shape=[2], dtype=Int32, value= [1, 2])"
    r = repr(Tensor(np.ones((2, 2), np.float32)))
    assert r.startswith("Tensor(shape=[2, 2], dtype=Float32, value=\n[[")
    assert str(Tensor(np.array([1.0, 2.0], np.float32))) == str(np.array([1.0, 2.0], np.float32))


def test_operators_and_promotion():
    x = Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_array_equal((x + 1).asnumpy(), [2, 3])
    assert (x + 1).dtype == mstype.float32
    assert (2 * x).dtype == mstype.float32
    assert (x / 2).dtype == mstype.float32
    i = Tensor(np.array([1, 2], np.int32))
    assert (i / 2).dtype == mstype.float32
    assert (i + 1).dtype == mstype.int32
    assert (i + x).dtype == mstype.float32
    assert (x + Tensor(np.ones(2))).dtype == mstype.float64
    assert (x > 1.5).dtype == mstype.bool_
    np.testing.assert_array_equal((x ** 2).asnumpy(), [1, 4])
    np.testing.assert_array_equal((-x).asnumpy(), [-1, -2])
    m = Tensor(np.ones((2, 3), np.float32))
    assert (m @ Tensor(np.ones((3, 4), np.float32))).shape == (2, 4)
    assert m.sum().asnumpy() == 6 and m.mean(axis=1).shape == (2,)
    assert m.reshape(3, 2).shape == (3, 2) and m.reshape((6,)).shape == (6,)


def test_parameter_naming_and_repr():
    p = Parameter(Tensor(np.ones((1, 1), np.float32)), name="fc.weight")
    assert repr(p) == "Parameter (name=fc.weight, shape=(1, 1), dtype=Float32, requires_grad=True)"
    q = p.clone()
    assert q.name == "fc.weight" and q is not p
    snapshot = p.asnumpy()
    p.set_data(Tensor(np.full((1, 1), 5.0, np.float32)))
    assert snapshot[0, 0] == 1.0 and p.asnumpy()[0, 0] == 5.0
    with pytest.raises(ValueError, match="fc.weight"):
        p.set_data(Tensor(np.ones((2, 2), np.float32)))


def test_parameter_tuple_only_parameters():
    p = Parameter(Tensor(np.ones(2, np.float32)), name="w")
    t = ParameterTuple([p])
    assert isinstance(t, tuple) and t[0] is p
    assert t.clone("moments", "zeros")[0].name == "moments.w"
    with pytest.raises(TypeError, match="not a Parameter"):
        ParameterTuple([p, Tensor(1.0)])


def test_context_modes():
    assert ms.GRAPH_MODE == 0 and ms.PYNATIVE_MODE == 1
    assert ms.get_context("mode") == ms.PYNATIVE_MODE
    ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    assert ms.get_context("mode") == ms.GRAPH_MODE
    with pytest.raises(ValueError):
        ms.set_context(mode=3)
    with pytest.warns(UserWarning, match="CPU"):
        import mslab.core.context as c
        c._warned_target = False
        ms.set_context(device_target="Ascend")
    ms.set_context(device_target="CPU")
