"""Initialisers (mslab.common.initializer) and the global seed."""
import math

import numpy as np
import pytest

import mslab
from mslab import Tensor
from mslab.common import dtype as mstype
from mslab.common.initializer import (
    Constant,
    HeNormal,
    HeUniform,
    Initializer,
    Normal,
    One,
    TruncatedNormal,
    Uniform,
    XavierUniform,
    Zero,
    initializer,
)


def arr(init, shape=(200, 300), dtype=mstype.float32):
    return initializer(init, shape, dtype).asnumpy()


def test_shapes_and_dtypes():
    t = initializer(Normal(), (3, 4))
    assert isinstance(t, Tensor) and t.shape == (3, 4) and t.dtype == mstype.float32
    assert initializer("ones", [2, 2], mstype.float64).dtype == mstype.float64
    assert initializer("zeros", 5).shape == (5,)
    assert initializer(Zero(), (2, 0)).shape == (2, 0)


def test_constants():
    np.testing.assert_array_equal(arr(One(), (2, 3)), np.ones((2, 3)))
    np.testing.assert_array_equal(arr(Zero(), (2, 3)), np.zeros((2, 3)))
    np.testing.assert_array_equal(arr(Constant(2.5), (2,)), [2.5, 2.5])
    np.testing.assert_array_equal(arr(3, (2,), mstype.int32), [3, 3])
    np.testing.assert_array_equal(arr(0.5, (2,)), [0.5, 0.5])
    np.testing.assert_array_equal(arr("ones", (1,)), [1.0])
    np.testing.assert_array_equal(arr("zeros", (1,)), [0.0])


def test_random_statistics():
    mslab.set_seed(0)
    a = arr(Normal(0.02, 1.0))
    assert abs(a.mean() - 1.0) < 2e-3 and abs(a.std() - 0.02) < 2e-3
    a = arr(Normal())
    assert abs(a.std() - 0.01) < 1e-3
    a = arr(TruncatedNormal(0.02))  # bounds are absolute (-2, 2), so nothing is cut at this sigma
    assert abs(a.std() - 0.02) < 1e-3
    a = arr(TruncatedNormal(1.0))  # cut at +-2: std of N(0, 1) truncated to [-2, 2] is 0.8796
    assert np.abs(a).max() <= 2.0 and abs(a.std() - 0.8796) < 0.01
    a = arr(TruncatedNormal(0.5, mean=1.0, a=0.5, b=1.2))
    assert a.min() >= 0.5 and a.max() <= 1.2
    with pytest.raises(ValueError, match="a < b"):
        TruncatedNormal(1.0, a=1.0, b=0.0)
    a = arr(Uniform(0.5))
    assert a.min() >= -0.5 and a.max() <= 0.5 and abs(a.std() - 0.5 / math.sqrt(3)) < 5e-3
    a = arr(Uniform())
    assert np.abs(a).max() <= 0.07


def test_fan_based():
    shape = (64, 32, 3, 3)  # conv weight: fan_in = 32*9, fan_out = 64*9
    fan_in, fan_out = 32 * 9, 64 * 9
    a = arr(XavierUniform(), shape)
    bound = math.sqrt(6 / (fan_in + fan_out))
    assert np.abs(a).max() <= bound and np.abs(a).max() > 0.9 * bound
    a = arr(HeUniform(), shape)  # leaky_relu with slope 0: gain sqrt(2)
    bound = math.sqrt(3) * math.sqrt(2) / math.sqrt(fan_in)
    assert np.abs(a).max() <= bound and np.abs(a).max() > 0.9 * bound
    a = arr(HeUniform(math.sqrt(5)), (50, 40))  # MindSpore 2.x Dense default: bound 1/sqrt(fan_in)
    assert np.abs(a).max() <= 1 / math.sqrt(40) + 1e-7
    a = arr(HeUniform(mode="fan_out"), (50, 40))
    assert np.abs(a).max() <= math.sqrt(6 / 50) + 1e-7
    a = arr(HeNormal(), (400, 500))
    assert abs(a.std() - math.sqrt(2 / 500)) < 2e-3
    with pytest.raises(ValueError, match="fewer than 2"):
        initializer(XavierUniform(), (5,))
    with pytest.raises(ValueError, match="mode"):
        initializer(HeUniform(mode="sideways"), (5, 5))


@pytest.mark.parametrize("name", ["normal", "truncatednormal", "uniform", "xavier_uniform", "he_uniform",
                                  "he_normal", "TruncatedNormal", "HeUniform"])
def test_string_names(name):
    mslab.set_seed(7)
    a = arr(name, (6, 5))
    mslab.set_seed(7)
    b = arr(name, (6, 5))
    assert a.shape == (6, 5) and np.any(a != 0)
    np.testing.assert_array_equal(a, b)


def test_unknown_name():
    with pytest.raises(ValueError, match="unknown name"):
        initializer("gaussian_please", (2,))
    with pytest.raises(TypeError):
        initializer(object(), (2,))


def test_set_seed_reproducibility():
    mslab.set_seed(42)
    assert mslab.get_seed() == 42
    a, na = arr(Normal(), (4, 4)), np.random.rand(3)
    mslab.set_seed(42)
    b, nb = arr(Normal(), (4, 4)), np.random.rand(3)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(na, nb)
    c = arr(Normal(), (4, 4))
    assert np.any(c != a)
    with pytest.raises(ValueError):
        mslab.set_seed(-1)
    with pytest.raises(TypeError):
        mslab.set_seed(1.5)


def test_tensor_and_array_init():
    data = np.arange(6, dtype=np.float64).reshape(2, 3)
    t = initializer(Tensor(data), (2, 3))
    assert t.dtype == mstype.float64  # a Tensor keeps its dtype, as in MindSpore
    assert initializer(Tensor(data, mstype.float32), (2, 3)).dtype == mstype.float32
    np.testing.assert_array_equal(t.asnumpy(), data)
    t = initializer(data, [2, 3])
    assert t.dtype == mstype.float32
    data[0, 0] = 99  # copied
    assert t.asnumpy()[0, 0] == 0
    with pytest.raises(ValueError, match=r"shape \(2, 3\).*\(3, 2\)"):
        initializer(Tensor(data), (3, 2))


def test_custom_initializer_and_parameter():
    class Twos(Initializer):
        def _initialize(self, arr):
            arr.fill(2)

    np.testing.assert_array_equal(arr(Twos(), (2,)), [2, 2])
    p = mslab.Parameter(initializer("ones", (2, 2)), name="w")
    np.testing.assert_array_equal(p.asnumpy(), np.ones((2, 2)))
    t = Tensor(shape=(2, 3), dtype=mstype.float32, init=One())
    np.testing.assert_array_equal(t.asnumpy(), np.ones((2, 3)))
    assert repr(Normal(0.02)) == "Normal(sigma=0.02, mean=0.0)"


def test_import_paths():
    import mslab.common.initializer as init_mod
    from mslab.common.parameter import Parameter, ParameterTuple

    assert init_mod.TruncatedNormal is TruncatedNormal
    assert Parameter is mslab.Parameter and ParameterTuple is mslab.ParameterTuple
