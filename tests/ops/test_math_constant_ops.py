"""Math and constant ops public MindSpore code uses (issue 19): ops.eye / ops.Eye, ops.diag, F.make_range,
P.ScalarToArray, P.TensorAdd, P.AddN, ops.round / P.Round, ops.dot, and which unary ops take integer inputs.
Values observed on MindSpore 2.10 CPU (docs/mindspore_observed/arrayops.md); differentiable ones against
central differences and GRAPH == PYNATIVE."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import mslab as ms
from mslab import nn, ops
from mslab.common.tensor import Tensor
from mslab.ops import functional as F
from mslab.ops import matmul_ops
from mslab.ops import operations as P
from mslab.testing import check_grad, check_modes

SETTINGS = settings(max_examples=15, deadline=None)
A = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
B = np.array([[5.0, 6.0], [7.0, 8.0]], np.float32)


def values(t):
    return t.asnumpy().tolist()


# ---- eye, diag -------------------------------------------------------------------------------------------
def test_eye():
    # observed on MindSpore 2.10 CPU: eye(2, 3) Float32 [[1 0 0] [0 1 0]]; eye(3) 3x3; eye(2, 3, int32) Int32;
    # Eye()(2, 3, int32) the same, Eye()(2, 3) -> TypeError (dtype is required); eye(2, 2, bool_) Bool;
    # eye(-1, 2) -> ValueError "n value can not be negative"; eye(0, 2) shape (0, 2)
    e = ops.eye(2, 3)
    assert e.dtype == ms.float32 and values(e) == [[1, 0, 0], [0, 1, 0]]
    assert values(ops.eye(3)) == np.eye(3).tolist()
    assert ops.eye(2, 3, ms.int32).dtype == ms.int32
    i = ops.Eye()(2, 3, ms.int32)
    assert i.dtype == ms.int32 and values(i) == [[1, 0, 0], [0, 1, 0]]
    with pytest.raises(TypeError):
        ops.Eye()(2, 3)
    assert values(ops.eye(2, 2, ms.bool_)) == [[True, False], [False, True]]
    with pytest.raises(ValueError, match="can not be negative"):
        ops.eye(-1, 2)
    assert ops.eye(0, 2).shape == (0, 2)
    (g,) = check_modes(lambda: ops.Eye()(3, 2, ms.float32))
    np.testing.assert_array_equal(g, np.eye(3, 2, dtype=np.float32))
    assert not ops.Eye.differentiable


def test_diag():
    # observed on MindSpore 2.10 CPU: diag([1 2 3]) -> 3x3 diagonal; diag of int32 [[1,2],[3,4]] -> Int32 of shape
    # (2, 2, 2, 2), out[i, j, i, j] = x[i, j]; a (1, 2, 1) input -> (1, 2, 1, 1, 2, 1); a 0-d input -> ValueError
    assert values(ops.diag(Tensor(np.array([1.0, 2.0, 3.0], np.float32)))) == np.diag([1.0, 2, 3]).tolist()
    d = ops.diag(Tensor(np.array([[1, 2], [3, 4]], np.int32)))
    assert d.dtype == ms.int32
    assert values(d) == [[[[1, 0], [0, 0]], [[0, 2], [0, 0]]], [[[0, 0], [3, 0]], [[0, 0], [0, 4]]]]
    assert ops.diag(Tensor(np.ones((1, 2, 1), np.float32))).shape == (1, 2, 1, 1, 2, 1)
    with pytest.raises(ValueError, match="greater than or equal to 1"):
        ops.diag(Tensor(2.0))


def test_diag_gradient_and_modes():
    # observed on MindSpore 2.10 CPU: grad of sum(diag(v) * arange(9).reshape(3, 3)) -> [0. 4. 8.]; of a 2x2 input
    # against arange(16).reshape(2, 2, 2, 2) -> [[0. 5.] [10. 15.]]
    g = ms.grad(lambda v: (ops.diag(v) * Tensor(np.arange(9, dtype=np.float32).reshape(3, 3))).sum())(
        Tensor(np.array([1.0, 2.0, 3.0], np.float32)))
    assert values(g) == [0.0, 4.0, 8.0]
    g = ms.grad(lambda v: (ops.diag(v) * Tensor(np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2))).sum())(Tensor(A))
    assert values(g) == [[0.0, 5.0], [10.0, 15.0]]
    check_grad(ops.diag, np.array([1.0, -2.0, 0.5]))
    check_grad(ops.diag, A)
    check_modes(ops.diag, Tensor(A))


# ---- make_range, ScalarToArray ---------------------------------------------------------------------------
def test_make_range():
    # observed on MindSpore 2.10 CPU: make_range(5) (0, 1, 2, 3, 4); (1, 10, 3) -> (1, 4, 7); (1, 4) -> (1, 2, 3);
    # (5, 1, -2) -> (5, 3); a 0 step -> RuntimeError; a float -> TypeError; a loop over it in GRAPH mode: [4. 5.]
    assert F.make_range(5) == (0, 1, 2, 3, 4) and F.make_range(1, 10, 3) == (1, 4, 7)
    assert F.make_range(1, 4) == (1, 2, 3) and F.make_range(5, 1, -2) == (5, 3)
    with pytest.raises(RuntimeError, match="could not be 0"):
        F.make_range(0, 3, 0)
    with pytest.raises(TypeError, match="int scalar"):
        F.make_range(1.0, 3)

    class Loop(nn.Cell):
        def construct(self, x):
            s = x
            for i in F.make_range(3):
                s = s + i
            return s

    (out,) = check_modes(Loop(), Tensor(np.array([1.0, 2.0], np.float32)))
    assert out.tolist() == [4.0, 5.0]


def test_scalar_to_array_cannot_run_as_in_mindspore_2_10():
    # observed on MindSpore 2.10 CPU: P.ScalarToArray()(3) -> RuntimeError "prim:ScalarToArray has no attr:__infer__"
    # (PYNATIVE) and "Operator 'ScalarToArray' is invalid" (GRAPH)
    op = P.ScalarToArray()
    with pytest.raises(RuntimeError, match="scalar_to_tensor"):
        op(3)


# ---- TensorAdd, AddN -------------------------------------------------------------------------------------
def test_tensor_add_is_the_old_name_of_add():
    # observed on MindSpore 2.10 CPU: P.TensorAdd()([1, 2], [3, 4]) -> [4. 6.] (with a deprecation warning)
    assert values(P.TensorAdd()(Tensor([1.0, 2.0]), Tensor([3.0, 4.0]))) == [4.0, 6.0]
    check_grad(P.TensorAdd(), A, np.ones((1, 2)))
    check_modes(P.TensorAdd(), Tensor(A), Tensor(B))


def test_addn_values_and_errors():
    # observed on MindSpore 2.10 CPU: AddN((x, y, z)) [9. 12.]; a list of int64 -> [4 6]; one tensor -> itself;
    # Float32 + Int32 -> TypeError "the input type must be same"; shapes (2, 2) and (2,) -> ValueError "input shape
    # must be same"; a bare Tensor -> TypeError; ops.addn -> [4. 6.]
    out = P.AddN()((Tensor([1.0, 2.0]), Tensor([3.0, 4.0]), Tensor([5.0, 6.0])))
    assert values(out) == [9.0, 12.0]
    ints = P.AddN()([Tensor(np.array([1, 2])), Tensor(np.array([3, 4]))])
    assert values(ints) == [4, 6] and ints.dtype == ms.int64
    assert values(P.AddN()((Tensor([1.0, 2.0]),))) == [1.0, 2.0]
    assert values(ops.addn((Tensor([1.0, 2.0]), Tensor([3.0, 4.0])))) == [4.0, 6.0]
    with pytest.raises(TypeError, match="input type must be same"):
        P.AddN()((Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3, 4], np.int32))))
    with pytest.raises(ValueError, match="input shape must be same"):
        P.AddN()((Tensor(np.ones((2, 2), np.float32)), Tensor(np.ones((2,), np.float32))))
    with pytest.raises(TypeError):
        P.AddN()(Tensor([1.0, 2.0]))


@SETTINGS
@given(shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3), n=st.integers(1, 4),
       seed=st.integers(0, 2**31 - 1))
def test_addn_gradient_and_modes(shape, n, seed):
    xs = [np.random.default_rng(seed + i).standard_normal(shape) for i in range(n)]
    fn = lambda *ts: P.AddN()(ts)  # noqa: E731
    check_grad(fn, *xs)
    (out,) = check_modes(fn, *[Tensor(x.astype(np.float32)) for x in xs])
    np.testing.assert_allclose(out, sum(x.astype(np.float32) for x in xs), rtol=1e-6)


def test_addn_gradient_matches_mindspore():
    # observed on MindSpore 2.10 CPU: grad of sum(AddN((a, b, a)) * [[1,2],[3,4]]) -> a: [[2 4] [6 8]], b: [[1 2] [3 4]]
    ga, gb = ms.grad(lambda a, b: (P.AddN()((a, b, a)) * Tensor(A)).sum(), grad_position=(0, 1))(Tensor(A), Tensor(B))
    assert values(ga) == [[2.0, 4.0], [6.0, 8.0]] and values(gb) == [[1.0, 2.0], [3.0, 4.0]]


# ---- round -----------------------------------------------------------------------------------------------
def test_round():
    x = Tensor(np.array([0.5, 1.5, 2.5, -0.5, -1.5, 1.4, -2.6], np.float32))
    # observed on MindSpore 2.10 CPU: halves to even: [0. 2. 2. -0. -2. 1. -3.] (ops.round and P.Round); int32 comes
    # back unchanged; float16 [2.5, 3.5] -> [2. 4.]; decimals=1 -> RuntimeError "only support decimals equal 0";
    # grad of sum(round(3x)) -> zeros
    assert values(ops.round(x)) == values(P.Round()(x)) == [0.0, 2.0, 2.0, -0.0, -2.0, 1.0, -3.0]
    ints = ops.round(Tensor(np.array([1, 2], np.int32)))
    assert ints.dtype == ms.int32 and values(ints) == [1, 2]
    assert values(ops.round(Tensor(np.array([2.5, 3.5], np.float16)))) == [2.0, 4.0]
    with pytest.raises(RuntimeError, match="decimals equal 0"):
        ops.round(x, decimals=1)
    g = ms.grad(lambda a: ops.round(a * 3).sum())(Tensor(A))
    assert values(g) == [[0.0, 0.0], [0.0, 0.0]]
    check_modes(ops.round, x)
    check_grad(ops.round, np.array([0.2, 1.3, -2.1]))


# ---- dot -------------------------------------------------------------------------------------------------
def test_dot_values_and_errors():
    a, b = np.arange(6, dtype=np.float32).reshape(2, 3), np.arange(12, dtype=np.float32).reshape(3, 4)
    a3, b3 = np.arange(12, dtype=np.float32).reshape(2, 2, 3), np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    # observed on MindSpore 2.10 CPU: 2-D is a matrix product [[20 23 26 29] [56 68 80 92]]; (2, 2, 3) . (2, 3, 4) ->
    # shape (2, 2, 2, 4) as numpy's dot (first rows [[20 23 26 29] [56 59 62 65]]); (2, 2, 3) . (3, 4) -> (2, 2, 4);
    # rank-1 inputs -> ValueError "dimension >= 2"; int32 -> TypeError; float32 . float16 -> TypeError "same type";
    # (2, 3) . (2, 3) -> ValueError "input dimensions must be equal"; float64 -> TypeError
    assert values(ops.dot(Tensor(a), Tensor(b))) == [[20, 23, 26, 29], [56, 68, 80, 92]]
    out = ops.dot(Tensor(a3), Tensor(b3))
    assert out.shape == (2, 2, 2, 4) and values(out)[0][0] == [[20, 23, 26, 29], [56, 59, 62, 65]]
    np.testing.assert_array_equal(out.asnumpy(), np.dot(a3, b3))
    assert values(ops.dot(Tensor(a3), Tensor(b)))[1] == [[92, 113, 134, 155], [128, 158, 188, 218]]
    with pytest.raises(ValueError, match="dimension >= 2"):
        ops.dot(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0], np.float32)))
    with pytest.raises(TypeError, match="Int32"):
        ops.dot(Tensor(np.array([[1, 2]], np.int32)), Tensor(np.array([[3], [4]], np.int32)))
    with pytest.raises(TypeError, match="same type"):
        ops.dot(Tensor(a), Tensor(np.ones((3, 1), np.float16)))
    with pytest.raises(ValueError, match="must be equal"):
        ops.dot(Tensor(a), Tensor(a))
    with pytest.raises(TypeError, match="Float64"):
        ops.dot(Tensor(np.ones((2, 3))), Tensor(np.ones((3, 2))))


def test_dot_gradient_and_modes():
    a3, b3 = np.arange(12, dtype=np.float32).reshape(2, 2, 3), np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    # observed on MindSpore 2.10 CPU: grad of sum(dot(a3, b3)): a3 -> rows [60 92 124]; b3 -> rows 18s, 22s, 26s
    ga, gb = ms.grad(lambda p, q: ops.dot(p, q).sum(), grad_position=(0, 1))(Tensor(a3), Tensor(b3))
    np.testing.assert_array_equal(ga.asnumpy(), np.broadcast_to([60.0, 92.0, 124.0], (2, 2, 3)))
    np.testing.assert_array_equal(gb.asnumpy(), np.broadcast_to([[18.0], [22.0], [26.0]], (2, 3, 4)))
    rng = np.random.default_rng(1)
    check_grad(matmul_ops._dot, rng.standard_normal((2, 3)), rng.standard_normal((2, 3, 2)))  # float64: past the check
    check_modes(ops.dot, Tensor(a3), Tensor(b3))


# ---- unary ops on integer inputs -------------------------------------------------------------------------
def test_sqrt_of_integers_is_float32():
    # observed on MindSpore 2.10 CPU: sqrt of int32 [1 4 9] -> Float32 [1. 2. 3.] (ops.sqrt, P.Sqrt, Tensor.sqrt);
    # int64, uint8 and bool inputs too; float64 stays Float64; grad of sum(sqrt) of int32 [1 4 9] -> Float32
    # [0.5 0.25 0.16666667]
    ints = Tensor(np.array([1, 4, 9], np.int32))
    for out in (ops.sqrt(ints), P.Sqrt()(ints)):
        assert out.dtype == ms.float32 and values(out) == [1.0, 2.0, 3.0]
    for dtype in (np.int64, np.uint8, np.bool_):
        assert ops.sqrt(Tensor(np.array([1], dtype))).dtype == ms.float32
    assert ops.sqrt(Tensor(np.array([4.0], np.float64))).dtype == ms.float64
    g = ms.grad(lambda a: ops.sqrt(a).sum())(ints)
    assert g.dtype == ms.float32
    np.testing.assert_allclose(g.asnumpy(), [0.5, 0.25, 0.16666667], rtol=1e-6)
    (out,) = check_modes(ops.sqrt, ints)
    assert out.dtype == np.float32


def test_which_unary_ops_take_integers():
    ints = Tensor(np.array([1, 4, 9], np.int32))
    # observed on MindSpore 2.10 CPU, int32 [1 4 9]: square, abs, neg, sign, relu keep Int32; sqrt and reciprocal give
    # Float32; exp, log, sin, cos, tanh, sigmoid, floor raise TypeError
    for fn in (ops.square, ops.abs, ops.neg, ops.sign, ops.relu):
        assert fn(ints).dtype == ms.int32
    assert values(ops.square(ints)) == [1, 16, 81]
    for fn in (ops.sqrt, ops.reciprocal):
        assert fn(ints).dtype == ms.float32
    for fn in (ops.exp, ops.log, ops.sin, ops.cos, ops.tanh, ops.sigmoid, ops.floor):
        with pytest.raises(TypeError):
            fn(ints)
