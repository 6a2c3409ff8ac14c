"""reduce_ops: sums, means, max/min (gradient split evenly on ties), all/any, argmax/argmin.
Each differentiable primitive's bprop against central differences (both modes); GRAPH == PYNATIVE for all."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import mslab as ms
from mslab import ops
from mslab.common.tensor import Tensor
from mslab.errors import OpError
from mslab.ops import functional as F
from mslab.ops import reduce_ops
from mslab.testing import check_grad, check_modes

SETTINGS = settings(max_examples=15, deadline=None)
seeds = st.integers(0, 2**31 - 1)
shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3)
shapes1 = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3)
float_dtypes = st.sampled_from([np.float16, np.float32, np.float64])


def vals(seed, shape, dtype=np.float64):
    return np.asarray(np.random.default_rng(seed).uniform(-2.0, 2.0, shape), dtype)


def distinct(seed, shape, dtype=np.float64):
    """Values at least 0.25 apart (so max/min have no ties and central differences see no kink)."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape, dtype=np.int64))
    v = (rng.permutation(n) - n / 2) * 0.5 + rng.uniform(0.0, 0.25, n)
    return np.asarray(v.reshape(shape), dtype)


@st.composite
def axes(draw, ndim):
    """An axis argument: (), an int, or a tuple of distinct (possibly negative) axes."""
    if ndim == 0:
        return ()
    kind = draw(st.sampled_from(["all", "int", "tuple"]))
    if kind == "all":
        return ()
    if kind == "int":
        return draw(st.integers(-ndim, ndim - 1))
    chosen = draw(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True))
    return tuple(a - ndim if draw(st.booleans()) else a for a in chosen)


def _np_axis(axis):
    return None if axis == () else axis


REDUCE = {
    "ReduceSum": (F.reduce_sum, np.sum, vals),
    "ReduceMean": (F.reduce_mean, np.mean, vals),
    "ReduceMax": (F.reduce_max, np.max, distinct),
    "ReduceMin": (F.reduce_min, np.min, distinct),
    "ReduceProd": (F.reduce_prod, np.prod, vals),
}


@pytest.mark.parametrize("name", sorted(REDUCE))
@SETTINGS
@given(data=st.data(), shape=shapes, seed=seeds, keep=st.booleans())
def test_reduce_grad(name, data, shape, seed, keep):
    fn, _, gen = REDUCE[name]
    axis = data.draw(axes(len(shape)))
    check_grad(lambda x: fn(x, axis, keep), gen(seed, shape))


@pytest.mark.parametrize("name", sorted(REDUCE))
@SETTINGS
@given(data=st.data(), shape=shapes, seed=seeds, keep=st.booleans(), dtype=float_dtypes)
def test_reduce_modes(name, data, shape, seed, keep, dtype):
    fn, ref, gen = REDUCE[name]
    axis = data.draw(axes(len(shape)))
    x = gen(seed, shape, dtype)
    (out,) = check_modes(lambda x: fn(x, axis, keep), Tensor(x))
    expected = np.asarray(ref(x, axis=_np_axis(axis), keepdims=keep))
    assert out.dtype == dtype and out.shape == expected.shape and isinstance(out, np.ndarray)
    np.testing.assert_allclose(out, expected, rtol=1e-2 if dtype == np.float16 else 1e-6)


def test_reduce_primitive_call_forms():
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert ops.ReduceMax()(x).shape == ()
    assert ops.ReduceMax(keep_dims=True)(x, 1).shape == (2, 1)
    assert ops.ReduceMin()(x, [0, 1]).asnumpy() == 0.0
    assert x.max().asnumpy() == 5.0 and x.min(axis=0).shape == (3,) and x.max(1, True).shape == (2, 1)
    assert ops.ReduceSum()(x, None).asnumpy() == 15.0


@pytest.mark.parametrize("fn", [F.reduce_max, F.reduce_min])
def test_max_min_gradient_split_evenly_on_ties(fn):
    x = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]]) * (1 if fn is F.reduce_max else -1)
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        g = ops.GradOperation()(lambda x: fn(x, 1) * 6.0)(Tensor(x)).asnumpy()
        np.testing.assert_allclose(g, [[0.0, 3.0, 3.0], [2.0, 2.0, 2.0]])
        g = ops.GradOperation()(lambda x: fn(x))(Tensor(x)).asnumpy()
        np.testing.assert_allclose(g, [[0.0, 0.5, 0.5], [0.0, 0.0, 0.0]])


def test_reduce_errors():
    with pytest.raises(OpError, match="ReduceSum.*axis 2 is out of range"):
        F.reduce_sum(Tensor(np.ones((2, 3))), 2)
    with pytest.raises(OpError, match="ReduceMax.*empty"):
        F.reduce_max(Tensor(np.ones((0, 3))), 0)


@pytest.mark.parametrize("name", ["ReduceAll", "ReduceAny"])
@SETTINGS
@given(data=st.data(), shape=shapes, seed=seeds, keep=st.booleans(),
       dtype=st.sampled_from([np.bool_, np.float32, np.int32]))
def test_reduce_all_any_modes(name, data, shape, seed, keep, dtype):
    fn, ref = {"ReduceAll": (F.reduce_all, np.all), "ReduceAny": (F.reduce_any, np.any)}[name]
    axis = data.draw(axes(len(shape)))
    x = (np.random.default_rng(seed).uniform(0, 1, shape) < 0.7).astype(dtype)
    (out,) = check_modes(lambda x: fn(x, axis, keep), Tensor(x))
    expected = np.asarray(ref(x, axis=_np_axis(axis), keepdims=keep))
    assert out.dtype == np.bool_
    np.testing.assert_array_equal(out, expected)
    t = Tensor(x)
    np.testing.assert_array_equal((t.all(axis, keep) if name == "ReduceAll" else t.any(axis, keep)).asnumpy(),
                                  expected)


def test_all_any_have_no_gradient():
    assert not reduce_ops.ReduceAll.differentiable and not reduce_ops.ReduceAny.differentiable


@pytest.mark.parametrize("name", ["Argmax", "Argmin"])
@SETTINGS
@given(data=st.data(), shape=shapes1, seed=seeds, dtype=st.sampled_from([np.float16, np.float32, np.int32]),
       out_type=st.sampled_from([ms.int32, ms.int64]))
def test_argmax_argmin_modes(name, data, shape, seed, dtype, out_type):
    cls, ref, fn = {"Argmax": (ops.Argmax, np.argmax, F.argmax), "Argmin": (ops.Argmin, np.argmin, F.argmin)}[name]
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    x = np.round(vals(seed, shape) * 2).astype(dtype)  # ties: the first index wins
    (out,) = check_modes(lambda x: cls(axis, out_type)(x), Tensor(x))
    assert out.dtype == out_type.np
    np.testing.assert_array_equal(out, ref(x, axis))
    (flat,) = check_modes(lambda x: fn(x), Tensor(x))
    assert flat.dtype == np.int64 and flat == ref(x)
    (kept,) = check_modes(lambda x: fn(x, axis, True), Tensor(x))
    np.testing.assert_array_equal(kept, np.expand_dims(ref(x, axis), axis))
    assert cls.differentiable is False


def test_argmax_defaults_and_errors():
    x = Tensor(np.array([[1.0, 5.0, 2.0], [7.0, 0.0, 1.0]], np.float32))
    out = ops.Argmax()(x)
    assert out.dtype == ms.int32 and list(out.asnumpy()) == [1, 0]
    assert list(x.argmin(axis=0).asnumpy()) == [0, 1, 1]
    with pytest.raises(OpError, match="Argmax.*axis 2"):
        ops.Argmax(2)(x)
    with pytest.raises(TypeError, match="output_type"):
        ops.Argmax(0, ms.float32)


@pytest.mark.parametrize("name", ["ArgMaxWithValue", "ArgMinWithValue"])
@SETTINGS
@given(data=st.data(), shape=shapes1, seed=seeds, keep=st.booleans())
def test_arg_with_value(name, data, shape, seed, keep):
    cls = getattr(ops, name)
    ref_i, ref_v = (np.argmax, np.max) if name == "ArgMaxWithValue" else (np.argmin, np.min)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    x = distinct(seed, shape)
    fn = lambda x: cls(axis, keep)(x)
    idx, value = check_modes(fn, Tensor(x.astype(np.float32)))
    assert idx.dtype == np.int32
    np.testing.assert_array_equal(idx, np.asarray(ref_i(x.astype(np.float32), axis=axis, keepdims=keep)))
    np.testing.assert_array_equal(value, ref_v(x.astype(np.float32), axis=axis, keepdims=keep))
    check_grad(lambda x: cls(axis, keep)(x)[1], x)


def test_reduce_prod_gradient_with_zeros():
    """d/dx_j of a product is the product of the others, also where x holds zeros (no division by x)."""
    x = np.array([[0.0, 2.0, 3.0], [0.0, 0.0, 5.0]])
    check_grad(lambda x: F.reduce_prod(x, 1), x)
    g = ops.GradOperation()(lambda x: F.reduce_prod(x, 1))(Tensor(x)).asnumpy()
    np.testing.assert_array_equal(g, [[6.0, 0.0, 0.0], [0.0, 0.0, 0.0]])


def test_every_reduce_primitive_is_tested():
    covered = set(REDUCE) | {"ReduceAll", "ReduceAny", "Argmax", "Argmin", "ArgMaxWithValue", "ArgMinWithValue"}
    primitives = {n for n in reduce_ops.__all__ if n[0].isupper()}
    assert primitives <= covered, primitives - covered
