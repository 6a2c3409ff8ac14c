"""Random draws public MindSpore code uses in 2-4 files (issue 19): ops.rand, ops.randint, ops.randperm, ops.Randperm,
ops.standard_normal, ops.multinomial, mslab.numpy.rand.

The draws are not MindSpore's (its Philox kernels are not reproduced): these tests hold MindSpore 2.10's shapes,
dtypes, ranges, errors and seeding (observed on MindSpore 2.10 CPU; docs/mindspore_observed/opsthree.md)."""
import numpy as np
import pytest

import mslab as ms
import mslab.numpy as mnp
from mslab import ops
from mslab.common.tensor import Tensor
from mslab.ops import random_draw_ops
from mslab.testing import in_mode

W = Tensor(np.array([[0.0, 9.0, 4.0, 0.0], [0.0, 0.0, 0.0, 5.0]], np.float32))


def kind(t):
    return t.shape, str(t.dtype)


def test_shapes_dtypes_and_ranges_match_mindspore():
    # observed on MindSpore 2.10 CPU
    assert kind(ops.rand(2, 3)) == kind(ops.rand((2, 3))) == ((2, 3), "Float32")
    assert kind(ops.rand(2, dtype=ms.float16)) == ((2,), "Float16") and kind(ops.rand(0)) == ((0,), "Float32")
    u = ops.rand(1000).asnumpy()
    assert 0.0 <= u.min() and u.max() < 1.0 and abs(u.mean() - 0.5) < 0.05
    assert kind(ops.randint(0, 10, (2, 3))) == ((2, 3), "Int64")
    assert kind(ops.randint(0, 10, (2, 3), dtype=ms.int32)) == ((2, 3), "Int32")
    assert ops.randint(5, 6, (4,)).asnumpy().tolist() == [5, 5, 5, 5]
    assert set(ops.randint(0, 3, (200,)).asnumpy().tolist()) == {0, 1, 2}
    p = ops.randperm(5)
    assert kind(p) == ((5,), "Int64") and sorted(p.asnumpy().tolist()) == [0, 1, 2, 3, 4]
    assert kind(ops.randperm(4, dtype=ms.int32)) == ((4,), "Int32")
    assert kind(ops.randperm(3, dtype=ms.float32)) == ((3,), "Float32")
    assert kind(ops.standard_normal((2, 3))) == ((2, 3), "Float32")
    assert kind(mnp.rand(2, 3)) == kind(mnp.rand((2, 3))) == ((2, 3), "Float32")
    assert kind(mnp.rand((2,), dtype=ms.float64)) == ((2,), "Float64") and kind(mnp.rand()) == ((1,), "Float32")


def test_multinomial_matches_mindspore():
    # observed on MindSpore 2.10 CPU: [[2 1] [3 3]] (replacement=True by default), [1 1] for a 1-D input
    m = ops.multinomial(W, 2)
    assert kind(m) == ((2, 2), "Int32") and m.asnumpy()[1].tolist() == [3, 3]
    assert set(m.asnumpy()[0].tolist()) <= {1, 2}
    one = ops.multinomial(Tensor(np.array([0.0, 9.0, 4.0, 0.0], np.float32)), 2, replacement=False)
    assert kind(one) == ((2,), "Int32") and sorted(one.asnumpy().tolist()) == [1, 2]  # distinct, nonzero weights
    many = ops.multinomial(Tensor(np.array([1.0, 3.0], np.float32)), 4000, seed=3).asnumpy()
    assert abs(many.mean() - 0.75) < 0.03  # P(1) = 3 / 4
    assert ops.multinomial(Tensor(np.array([1, 1], np.int32)), 1).dtype == ms.int32


def test_seeding_repeats_as_in_mindspore():
    # observed on MindSpore 2.10 CPU: set_seed(3) before randperm(6) twice gives [0 2 1 5 3 4] both times;
    # two calls of rand(3, seed=1) give different numbers
    for draw in (lambda: ops.randperm(6), lambda: ops.rand(3), lambda: ops.randint(0, 9, (4,), seed=2),
                 lambda: ops.multinomial(W, 3, seed=4), lambda: ops.standard_normal((3,), seed=5)):
        ms.set_seed(3)
        a = draw().asnumpy()
        ms.set_seed(3)
        np.testing.assert_array_equal(a, draw().asnumpy())
    assert not np.array_equal(ops.rand(3, seed=1).asnumpy(), ops.rand(3, seed=1).asnumpy())


def test_graph_mode_draws():
    with in_mode(ms.GRAPH_MODE):
        net = ms.jit(lambda x: ops.rand(3) + x)
        assert not np.array_equal(net(Tensor(0.0)).asnumpy(), net(Tensor(0.0)).asnumpy())
        assert sorted(ms.jit(lambda x: ops.randperm(4) + x)(Tensor(0, ms.int64)).asnumpy().tolist()) == [0, 1, 2, 3]


def test_no_gradient_through_a_draw():
    g = ops.grad(lambda x: (ops.rand(2) * x).sum())(Tensor(1.0))
    assert g.shape == () and g.dtype == ms.float32


@pytest.mark.parametrize("call, error, message", [  # observed on MindSpore 2.10 CPU
    (lambda: ops.rand(2, dtype=ms.int32), ValueError, "For 'rand', the 'dtype' must be a float type, but got Int32"),
    (lambda: ops.randint(5, 5, (2,)), RuntimeError, "For 'Random', invalid min/max values: \\(5/5\\)"),
    (lambda: ops.randint(0.5, 5, (2,)), TypeError, "For 'randint_like', 'low' must be an int"),
    (lambda: ops.randint(0, 5, [2]), ValueError, "For 'randint', the input 'size' must be a tuple, but got \\[2\\]"),
    (lambda: ops.multinomial(Tensor(np.ones((1, 2, 3), np.float32)), 1), ValueError,
     "the dimension of inputs must be 1d or 2d, but got 3"),
    (lambda: ops.randperm(0), ValueError, "For 'RandpermV2', the input 'n' must be greater than 0, but got data: 0"),
    (lambda: mnp.rand(2, dtype=ms.int32), ValueError,
     "The argument 'dtype' must be 'mindspore.float64', 'mindspore.float32' or 'mindspore.float16', but got Int32"),
    (lambda: ops.multinomial(Tensor(np.array([0.0, 1.0], np.float32)), 3, replacement=False), ValueError,
     "the 'num_samples' must be less than the last dimension of input without 'replacement'"),
    (lambda: ops.standard_normal((2, -1)), ValueError, "should be a vector with all positive item"),
    (lambda: ops.Randperm(max_length=8, pad=-1)(Tensor([5], ms.int32)), RuntimeError,
     "Unsupported op \\[Randperm\\] on CPU"),
])
def test_errors_match_mindspore(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_every_random_draw_name_is_tested():
    source = open(__file__).read().split("def test_every_random")[0]
    assert all(n in source for n in random_draw_ops.__all__ + ["Randperm"])
