"""Random tensors (issue #19): ops.randn, ops.normal, ops.uniform, StandardNormal, UniformReal, UniformInt.

MindSpore's CPU kernels draw from Philox counters with their own seed derivation, which mslab does not
reproduce: these tests hold MindSpore 2.10's shapes, dtypes, error messages and gradients (observed on
MindSpore 2.10 CPU; docs/mindspore_observed/randimg.md), the distributions' statistics, and mslab's
seed rules (a seeded run repeats; set_seed restarts the streams), not MindSpore's draws.
"""
import numpy as np
import pytest

import mslab as ms
from mslab import ops
from mslab.common.tensor import Tensor
from mslab.ops import random_ops
from mslab.testing import check_modes, in_mode


def test_shapes_and_dtypes_match_mindspore():
    # observed on MindSpore 2.10 CPU: shapes and dtypes of each call
    assert ops.randn(2, 3).shape == (2, 3) and str(ops.randn(2, 3).dtype) == "Float32"
    assert ops.randn((2, 3), dtype=ms.float64, seed=5).dtype == ms.float64
    assert ops.randn([2, 2]).shape == (2, 2) and ops.randn(2, dtype=ms.float16).dtype == ms.float16
    assert ops.randn(0).shape == (0,)
    assert ops.normal((2, 2), Tensor(1.0), Tensor(2.0), seed=3).dtype == ms.float32
    assert ops.normal((2,), 1.0, 2.0, seed=1).dtype == ms.float32
    assert ops.normal((2,), Tensor(1, ms.int32), Tensor(2, ms.int32), seed=1).dtype == ms.float32
    assert ops.normal((2,), Tensor(1.0, ms.float64), Tensor(2.0, ms.float64)).dtype == ms.float64
    assert ops.normal((2, 3), Tensor([1.0, 2.0, 3.0]), Tensor(0.1)).shape == (2, 3)
    u = ops.uniform((2, 2), Tensor(1, ms.int32), Tensor(5, ms.int32), seed=3, dtype=ms.int32)
    assert u.dtype == ms.int32 and set(u.asnumpy().ravel()) <= {1, 2, 3, 4}
    u = ops.uniform((2, 3), Tensor([1.0, 2.0, 3.0]), Tensor(5.0))
    assert u.dtype == ms.float32 and u.shape == (2, 3)
    assert ops.StandardNormal(seed=2, seed2=3)((2, 3)).shape == (2, 3)
    assert ops.UniformReal(seed=2)((2, 3)).dtype == ms.float32
    k = ops.UniformInt(seed=2)((2, 3), Tensor(1, ms.int32), Tensor(5, ms.int32))
    assert k.dtype == ms.int32 and k.shape == (2, 3)


@pytest.mark.parametrize("call, error, message", [  # observed on MindSpore 2.10 CPU
    (lambda: ops.randn(2, dtype=ms.int32), ValueError, "For 'randn', the 'dtype' must be a float type, but got Int32"),
    (lambda: ops.randn(-1), ValueError, "should be a vector with all positive item"),
    (lambda: ops.StandardNormal()([2, 3]), TypeError, "input must be a Int, a tuple, or a Tensor"),
    (lambda: ops.StandardNormal(-1, 0), ValueError, "For 'StandardNormal', the 'seed' must be int and must >= 0"),
    (lambda: ops.uniform((2,), 1.0, 2.0), TypeError, "the input\\[minval\\] and input\\[maxval\\] must be a Tensor"),
    (lambda: ops.uniform((2,), Tensor(1.0), Tensor(2.0), dtype=ms.float64), TypeError,
     "The 'uniform' doesn't support 'Float64'"),
    (lambda: ops.uniform((2,), Tensor(1, ms.int32), Tensor(5, ms.int32)), TypeError,
     "the value data type 'Float32' is not consistent with assigned tensor data type Int32"),
    (lambda: ops.uniform((3,), Tensor([1, 2, 3], ms.int32), Tensor(5, ms.int32), dtype=ms.int32), ValueError,
     "the min value should be a scalar tensor"),
    # MindSpore raises a RuntimeError from its kernel; mslab's kernel errors are OpErrors (ValueErrors)
    (lambda: ops.UniformInt()((2,), Tensor(1, ms.int32), Tensor(1, ms.int32)), (RuntimeError, ValueError),
     "invalid min/max values: \\(1/1\\)"),
    (lambda: ops.UniformInt()((2,), Tensor(1.0), Tensor(5.0)), TypeError,
     "input argument\\[minval\\] must be a type of \\{Tensor\\[Int32\\]\\}"),
])
def test_errors_match_mindspore(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_statistics():
    ms.set_seed(0)
    z = ops.randn(200000).asnumpy()
    assert abs(z.mean()) < 0.01 and abs(z.std() - 1) < 0.01
    n = ops.normal((200000,), Tensor(3.0), Tensor(0.5), seed=4).asnumpy()
    assert abs(n.mean() - 3) < 0.01 and abs(n.std() - 0.5) < 0.01
    u = ops.uniform((200000,), Tensor(-1.0), Tensor(3.0), seed=4).asnumpy()
    assert u.min() >= -1 and u.max() < 3 and abs(u.mean() - 1) < 0.02
    k = ops.uniform((20000,), Tensor(2, ms.int32), Tensor(6, ms.int32), dtype=ms.int32).asnumpy()
    assert sorted(set(k.tolist())) == [2, 3, 4, 5] and abs(k.mean() - 3.5) < 0.05


def test_seed_rules():
    # As MindSpore: a seeded op gives new numbers at each call; set_seed starts the same sequence again.
    ms.set_seed(1)
    a, b = ops.randn(2, 3).asnumpy(), ops.randn(2, 3).asnumpy()
    c, d = ops.normal((4,), 0.0, 1.0, seed=3).asnumpy(), ops.normal((4,), 0.0, 1.0, seed=3).asnumpy()
    sn = ops.StandardNormal(seed=2, seed2=3)
    e, f = sn((3,)).asnumpy(), sn((3,)).asnumpy()
    assert not np.array_equal(a, b) and not np.array_equal(c, d) and not np.array_equal(e, f)
    ms.set_seed(1)
    assert np.array_equal(ops.randn(2, 3).asnumpy(), a)
    assert np.array_equal(ops.normal((4,), 0.0, 1.0, seed=3).asnumpy(), c)
    assert np.array_equal(sn((3,)).asnumpy(), e)


def test_gradients_match_mindspore():
    ms.set_seed(2)
    m, s = Tensor(1.0), Tensor(2.0)
    # observed on MindSpore 2.10 CPU: d/dmean = 1 per element; d/dstd = the standard-normal draw
    gm, gs = ops.grad(lambda m, s: ops.normal((2,), m, s, seed=1).sum(), (0, 1))(m, s)
    assert gm.asnumpy() == 2.0
    ms.set_seed(2)
    z = (ops.normal((2,), m, s, seed=1).asnumpy() - 1.0) / 2.0
    np.testing.assert_allclose(gs.asnumpy(), z.sum(), rtol=1e-6)
    # observed on MindSpore 2.10 CPU: d/dminval = sum(1 - u), d/dmaxval = sum(u) (1.3057 + 0.6942 = 2)
    ms.set_seed(2)
    ga, gb = ops.grad(lambda a, b: ops.uniform((2,), a, b, seed=1).sum(), (0, 1))(Tensor(1.0), Tensor(2.0))
    np.testing.assert_allclose(ga.asnumpy() + gb.asnumpy(), 2.0, rtol=1e-6)
    g = ops.grad(lambda x: (ops.randn(2) * x).sum())(Tensor(1.0))
    assert g.shape == () and g.dtype == ms.float32


def test_graph_mode_draws_each_run():
    net = ms.jit(lambda x: ops.StandardNormal(seed=5)((3,)) + x)
    with in_mode(ms.GRAPH_MODE):
        a, b = net(Tensor(0.0)).asnumpy(), net(Tensor(0.0)).asnumpy()
    assert not np.array_equal(a, b)  # a random node is never folded into a constant

    def draws(x):
        return ops.uniform((4,), x, x + 1.0, seed=7) + ops.randn(4, seed=9)
    ms.set_seed(3)
    eager = draws(Tensor(1.0)).asnumpy()
    ms.set_seed(3)
    with in_mode(ms.GRAPH_MODE):
        graph = ms.jit(draws)(Tensor(1.0)).asnumpy()
    np.testing.assert_array_equal(eager, graph)  # the same streams in both modes
    ms.set_seed(4)
    check_modes(lambda x: x + 0.0, Tensor(1.0))


def test_every_random_primitive_is_tested():
    source = open(__file__).read().split("def test_every_random")[0]
    assert all(n in source for n in random_ops.__all__)
