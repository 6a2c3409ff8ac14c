"""math_ops: every primitive's bprop against central differences (both modes), GRAPH == PYNATIVE for
every primitive (float16/32/64), MindSpore's dtype promotion, and clear shape errors."""
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
from mslab.ops import math_ops, matmul_ops, unary_ops
from mslab.testing import check_grad, check_modes

SETTINGS = settings(max_examples=15, deadline=None)
seeds = st.integers(0, 2**31 - 1)
shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3)
pair_shapes = hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, min_side=1, max_side=3)
float_dtypes = st.sampled_from([np.float16, np.float32, np.float64])


def vals(seed, shape, lo=-2.0, hi=2.0, min_abs=0.0, dtype=np.float64):
    """Random values in [lo, hi]; with ``min_abs`` every value is at least that far from 0 (no kinks)."""
    v = np.random.default_rng(seed).uniform(lo, hi, shape)
    if min_abs:
        v = np.where(v >= 0, v + min_abs, v - min_abs)
    return np.asarray(v, dtype)


def T(a):
    return Tensor(a)


# ---- binary ops -------------------------------------------------------------------------------------
# name -> (function, domain of x, domain of y); a domain is vals(...) keyword arguments.
BINARY = {
    "Add": (F.add, {}, {}),
    "Sub": (F.sub, {}, {}),
    "Mul": (F.mul, {}, {}),
    "RealDiv": (F.div, {}, {"min_abs": 0.5}),
    "FloorDiv": (F.floor_div, {}, {"min_abs": 0.5}),
    "FloorMod": (F.floor_mod, {}, {"min_abs": 0.5}),
    "Pow": (F.pow, {"lo": 0.5, "hi": 2.0}, {"lo": -2.0, "hi": 2.0}),
    "Maximum": (F.maximum, {}, {}),
    "Minimum": (F.minimum, {}, {}),
}


@pytest.mark.parametrize("name", sorted(BINARY))
@SETTINGS
@given(shapes=pair_shapes, seed=seeds)
def test_binary_grad(name, shapes, seed):
    fn, dx, dy = BINARY[name]
    (sx, sy), _ = shapes
    check_grad(fn, vals(seed, sx, **dx), vals(seed + 1, sy, **dy))


@pytest.mark.parametrize("name", sorted(BINARY))
@SETTINGS
@given(shapes=pair_shapes, seed=seeds, dtype=float_dtypes)
def test_binary_modes(name, shapes, seed, dtype):
    fn, dx, dy = BINARY[name]
    (sx, sy), out_shape = shapes
    x, y = vals(seed, sx, dtype=dtype, **dx), vals(seed + 1, sy, dtype=dtype, **dy)
    (out,) = check_modes(fn, T(x), T(y))
    assert out.dtype == dtype and out.shape == tuple(out_shape)


@SETTINGS
@given(shapes=pair_shapes, seed=seeds)
def test_binary_values_match_numpy(shapes, seed):
    (sx, sy), _ = shapes
    x, y = vals(seed, sx, dtype=np.float32), vals(seed + 1, sy, min_abs=0.5, dtype=np.float32)
    for fn, ref in [(F.add, np.add), (F.sub, np.subtract), (F.mul, np.multiply), (F.div, np.true_divide),
                    (F.maximum, np.maximum), (F.minimum, np.minimum), (F.floor_mod, np.mod)]:
        np.testing.assert_array_equal(fn(T(x), T(y)).asnumpy(), ref(x, y))


COMPARE = {
    "Equal": (F.equal, np.equal), "NotEqual": (F.not_equal, np.not_equal), "Less": (F.less, np.less),
    "LessEqual": (F.less_equal, np.less_equal), "Greater": (F.greater, np.greater),
    "GreaterEqual": (F.greater_equal, np.greater_equal),
}


@pytest.mark.parametrize("name", sorted(COMPARE))
@SETTINGS
@given(shapes=pair_shapes, seed=seeds, dtype=float_dtypes)
def test_compare_modes(name, shapes, seed, dtype):
    fn, ref = COMPARE[name]
    (sx, sy), _ = shapes
    x, y = np.round(vals(seed, sx, dtype=dtype)), np.round(vals(seed + 1, sy, dtype=dtype))  # ties happen
    (out,) = check_modes(fn, T(x), T(y))
    assert out.dtype == np.bool_
    np.testing.assert_array_equal(out, ref(x, y))


@pytest.mark.parametrize("name", ["LogicalAnd", "LogicalOr"])
@SETTINGS
@given(shapes=pair_shapes, seed=seeds)
def test_logical_modes(name, shapes, seed):
    fn, ref = {"LogicalAnd": (F.logical_and, np.logical_and), "LogicalOr": (F.logical_or, np.logical_or)}[name]
    (sx, sy), _ = shapes
    x, y = vals(seed, sx) > 0, vals(seed + 1, sy) > 0
    (out,) = check_modes(fn, T(x), T(y))
    np.testing.assert_array_equal(out, ref(x, y))
    (out,) = check_modes(F.logical_not, T(x))
    np.testing.assert_array_equal(out, ~x)


def test_comparisons_have_no_gradient():
    x = T(np.array([1.0, 2.0]))
    g = ops.GradOperation()(lambda x: F.cast(F.less(x, 1.5), ms.float64) * x)(x)
    np.testing.assert_array_equal(g.asnumpy(), [1.0, 0.0])


# ---- unary ops ----------------------------------------------------------------------------------------
UNARY = {
    "Neg": (F.neg, {}),
    "Exp": (F.exp, {}),
    "Log": (F.log, {"lo": 0.2, "hi": 3.0}),
    "Sqrt": (F.sqrt, {"lo": 0.2, "hi": 3.0}),
    "Square": (F.square, {}),
    "Reciprocal": (F.reciprocal, {"min_abs": 0.3}),
    "Rsqrt": (F.rsqrt, {"lo": 0.2, "hi": 3.0}),
    "Abs": (F.abs, {"min_abs": 0.1}),
    "Tanh": (F.tanh, {}),
    "Sin": (F.sin, {}),
    "Cos": (F.cos, {}),
    "Sigmoid": (F.sigmoid, {"lo": -8.0, "hi": 8.0}),
    "ReLU": (F.relu, {"min_abs": 0.1}),
}
UNARY_NO_GRAD = {"Sign": F.sign, "Floor": F.floor}


@pytest.mark.parametrize("name", sorted(UNARY))
@SETTINGS
@given(shape=shapes, seed=seeds)
def test_unary_grad(name, shape, seed):
    fn, dom = UNARY[name]
    check_grad(fn, vals(seed, shape, **dom))


@pytest.mark.parametrize("name", sorted(UNARY) + sorted(UNARY_NO_GRAD))
@SETTINGS
@given(shape=shapes, seed=seeds, dtype=float_dtypes)
def test_unary_modes(name, shape, seed, dtype):
    fn, dom = UNARY[name] if name in UNARY else (UNARY_NO_GRAD[name], {"min_abs": 0.1})
    (out,) = check_modes(fn, T(vals(seed, shape, dtype=dtype, **dom)))
    assert out.dtype == dtype and out.shape == tuple(shape)


@pytest.mark.parametrize("name", sorted(UNARY_NO_GRAD))
@SETTINGS
@given(shape=shapes, seed=seeds)
def test_piecewise_constant_ops_have_zero_gradient(name, shape, seed):
    check_grad(UNARY_NO_GRAD[name], vals(seed, shape, min_abs=0.1) + 0.3)


def test_sigmoid_is_stable_at_extremes():
    out = F.sigmoid(T(np.array([-1000.0, 0.0, 1000.0], np.float32))).asnumpy()
    np.testing.assert_array_equal(out, np.array([0.0, 0.5, 1.0], np.float32))


@SETTINGS
@given(shape=shapes, seed=seeds)
def test_relu_grad_kernel(shape, seed):
    out = np.maximum(vals(seed + 1, shape, min_abs=0.1), 0)
    check_grad(lambda d, o: F.relu_grad(d, o), vals(seed, shape), out, positions=[0])
    check_modes(F.relu_grad, T(vals(seed, shape, dtype=np.float32)), T(out.astype(np.float32)))


# ---- matrix multiply ----------------------------------------------------------------------------------
dims = st.integers(1, 4)


@SETTINGS
@given(m=dims, k=dims, n=dims, ta=st.booleans(), tb=st.booleans(), seed=seeds)
def test_matmul_grad_and_modes(m, k, n, ta, tb, seed):
    x = vals(seed, (k, m) if ta else (m, k))
    y = vals(seed + 1, (n, k) if tb else (k, n))
    fn = lambda a, b: ops.MatMul(ta, tb)(a, b)
    check_grad(fn, x, y)
    (out,) = check_modes(fn, T(x.astype(np.float32)), T(y.astype(np.float32)))
    np.testing.assert_allclose(out, (x.T if ta else x) @ (y.T if tb else y), rtol=1e-5, atol=1e-5)


@SETTINGS
@given(batch=hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=2, min_side=1, max_side=3),
       m=dims, k=dims, n=dims, ta=st.booleans(), tb=st.booleans(), seed=seeds, dtype=float_dtypes)
def test_batch_matmul_grad_and_modes(batch, m, k, n, ta, tb, seed, dtype):
    (bx, by), bout = batch
    x = vals(seed, bx + ((k, m) if ta else (m, k)))
    y = vals(seed + 1, by + ((n, k) if tb else (k, n)))
    if len(x.shape) < 3 and len(y.shape) < 3:
        x = x[None]
    fn = lambda a, b: ops.BatchMatMul(ta, tb)(a, b)
    check_grad(fn, x, y)
    (out,) = check_modes(fn, T(x.astype(dtype)), T(y.astype(dtype)))
    assert out.dtype == dtype
    assert out.shape == np.broadcast_shapes(x.shape[:-2], y.shape[:-2]) + (m, n)


# ---- dtype promotion (MindSpore's implicit conversion) -------------------------------------------------
def _both_modes(fn, *args):
    return check_modes(fn, *args)[0]


def test_float32_tensor_and_python_int_stays_float32():
    x = T(np.ones(3, np.float32))
    assert (x + 2).dtype == ms.float32
    assert (2 * x).dtype == ms.float32
    assert (x ** 2).dtype == ms.float32
    assert _both_modes(lambda x: x - 1, x).dtype == np.float32


def test_float32_tensor_and_python_float_stays_float32():
    x = T(np.ones(3, np.float32))
    assert (x * 0.5).dtype == ms.float32
    assert _both_modes(lambda x: 1.5 / x, x).dtype == np.float32


def test_float16_tensor_and_python_float_stays_float16():
    assert (T(np.ones(3, np.float16)) + 0.1).dtype == ms.float16


def test_int_tensor_divided_by_int_is_float32():
    x = T(np.array([1, 2, 3], np.int32))
    out = x / 2
    assert out.dtype == ms.float32
    np.testing.assert_array_equal(out.asnumpy(), np.array([0.5, 1.0, 1.5], np.float32))
    assert _both_modes(lambda x: x / 2, x).dtype == np.float32
    assert (T(np.array([4, 6], np.int64)) / T(np.array([2, 4], np.int64))).dtype == ms.float32


def test_int_tensor_and_python_int_stays_int():
    x = T(np.array([1, 2], np.int32))
    assert (x + 1).dtype == ms.int32
    assert (x // 2).dtype == ms.int32


def test_float32_and_float64_tensors_give_float64():
    a, b = T(np.ones(2, np.float32)), T(np.ones(2, np.float64))
    assert (a + b).dtype == ms.float64
    assert (b * a).dtype == ms.float64
    assert _both_modes(lambda a, b: a - b, a, b).dtype == np.float64


def test_int_and_float_tensors_give_the_float():
    a, b = T(np.ones(2, np.int32)), T(np.ones(2, np.float16))
    assert (a + b).dtype == ms.float16


def test_gradient_through_promotion_has_the_input_dtype():
    a, b = T(np.ones(2, np.float32)), T(np.ones(2, np.float64))
    ga, gb = ops.GradOperation(get_all=True)(lambda a, b: (a * b).sum())(a, b)
    assert ga.dtype == ms.float32 and gb.dtype == ms.float64


def test_int_tensor_and_python_float_is_float32():
    x = T(np.array([1, 2], np.int32))
    assert (x + 1.5).dtype == ms.float32
    assert _both_modes(lambda x: x + 1.5, x).dtype == np.float32


# ---- clear errors ---------------------------------------------------------------------------------------
def test_add_shape_mismatch_names_op_and_both_shapes():
    x, y = T(np.ones((2, 3), np.float32)), T(np.ones((4,), np.float32))
    with pytest.raises(OpError) as e:
        _ = x + y
    msg = str(e.value)
    assert "Add" in msg and "(2, 3)" in msg and "(4,)" in msg


def test_matmul_inner_dimension_mismatch():
    x, y = T(np.ones((2, 3), np.float32)), T(np.ones((4, 5), np.float32))
    with pytest.raises(OpError) as e:
        ops.matmul(x, y)
    msg = str(e.value)
    assert "MatMul" in msg and "inner dimension" in msg and "(2, 3)" in msg and "(4, 5)" in msg
    with pytest.raises(OpError, match="BatchMatMul"):
        ops.BatchMatMul()(T(np.ones((2, 2, 3))), T(np.ones((2, 4, 5))))


def test_matmul_needs_2d_inputs():
    with pytest.raises(OpError, match="2-D"):
        ops.MatMul()(T(np.ones(3, np.float32)), T(np.ones((3, 2), np.float32)))


def test_matmul_dtype_mismatch_is_a_type_error():
    with pytest.raises(TypeError, match="MatMul"):
        ops.MatMul()(T(np.ones((2, 3), np.float32)), T(np.ones((3, 2), np.float64)))


def test_float_only_ops_reject_ints():
    with pytest.raises(TypeError, match="Exp"):
        ops.exp(T(np.array([1, 2], np.int32)))


def test_graph_mode_errors_appear_at_trace_time():
    x, y = T(np.ones((2, 3), np.float32)), T(np.ones((4,), np.float32))
    with pytest.raises(OpError) as e:
        ms.trace(lambda a, b: a + b, x, y)  # tracing only: nothing runs
    assert "Add" in str(e.value) and "(2, 3)" in str(e.value) and "(4,)" in str(e.value)
    with pytest.raises(OpError, match="inner dimension"):
        ms.trace(lambda a, b: ops.matmul(a, b), x, T(np.ones((4, 5), np.float32)))
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(OpError, match="Add"):
        ms.jit(lambda a, b: a * 2 + b)(x, y)


# ---- every primitive of the family is covered above -------------------------------------------------------
def test_every_math_primitive_is_tested():
    covered = set(BINARY) | set(COMPARE) | set(UNARY) | set(UNARY_NO_GRAD) | {
        "LogicalAnd", "LogicalOr", "LogicalNot", "ReluGrad", "MatMul", "BatchMatMul", "Div",
        "AddN", "TensorAdd", "Round",  # tested in ops/test_math_constant_ops.py
        "Inv", "Invert", "Softsign", "Ger"}  # tested in ops/test_inv_softsign_ger_stacks_segments.py
    primitives = {n for m in (math_ops, matmul_ops, unary_ops) for n in m.__all__ if n[0].isupper()}
    assert primitives <= covered, primitives - covered
