"""Array ops public MindSpore code uses (issue 19): P.Slice, P.StridedSlice, ops.Unstack, ops.unique, P.ScatterNd,
P.ScatterNdUpdate, P.GatherV2, ops.Pad / ops.pad. Values observed on MindSpore 2.10 CPU (snippets and output in
docs/mindspore_observed/arrayops.md); each differentiable one against central differences and GRAPH == PYNATIVE."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import mslab as ms
from mslab import nn, ops
from mslab.common.tensor import Parameter, Tensor
from mslab.errors import GraphModeError
from mslab.ops import creation_ops, pad_ops, scatter_ops, slice_ops
from mslab.ops import operations as P
from mslab.testing import check_grad, check_modes

SETTINGS = settings(max_examples=15, deadline=None)
X24 = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
X = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]], np.float32)
IDX = np.array([[0, 1], [1, 1], [0, 1]], np.int32)
UPD = np.array([1.0, 2.0, 3.0], np.float32)


def values(t):
    return t.asnumpy().tolist()


# ---- Slice ------------------------------------------------------------------------------------------------
def test_slice_values_and_errors():
    x = Tensor(X24)
    # observed on MindSpore 2.10 CPU: [[[13. 14.] [17. 18.]]]; size -1 runs to the end: shape (2, 2, 2)
    assert values(P.Slice()(x, (1, 0, 1), (1, 2, 2))) == [[[13.0, 14.0], [17.0, 18.0]]]
    assert P.Slice()(x, (0, 1, 0), (-1, -1, 2)).shape == (2, 2, 2)
    assert values(ops.slice(x, [1, 0, 0], Tensor(np.array([1, 1, 2], np.int32)))) == [[[12.0, 13.0]]]
    assert P.Slice()(x, (1, 0, 0), (0, 1, 1)).shape == (0, 1, 1)
    # observed: past the end -> ValueError "the sum of begin_shape[0] and size_shape[0] must be no greater than
    # input_x_shape[0]"; a negative begin or one entry short -> ValueError "For Slice, the begin is invalid."; a size
    # of -2 -> RuntimeError "the value in size should not be less than -1"
    with pytest.raises(ValueError, match="must be no greater than"):
        P.Slice()(x, (1, 0, 1), (2, 2, 2))
    with pytest.raises(ValueError, match="the begin is invalid"):
        P.Slice()(x, (-1, 0, 0), (1, 1, 1))
    with pytest.raises(ValueError, match="the begin is invalid"):
        P.Slice()(x, (1, 0), (1, 1))
    with pytest.raises(RuntimeError, match="not be less than -1"):
        P.Slice()(x, (0, 0, 0), (1, -2, 1))


def test_slice_gradient_and_modes():
    # observed on MindSpore 2.10 CPU: grad of sum(Slice(x, (1,0,1), (1,2,2)) * [[[1,2],[3,4]]]) puts 1 2 / 3 4 at
    # x[1, 0:2, 1:3], zeros elsewhere
    w = np.array([[[1.0, 2.0], [3.0, 4.0]]], np.float32)
    g = ms.grad(lambda t: (P.Slice()(t, (1, 0, 1), (1, 2, 2)) * Tensor(w)).sum())(Tensor(X24))
    expected = np.zeros((2, 3, 4), np.float32)
    expected[1, 0:2, 1:3] = w[0]
    np.testing.assert_array_equal(g.asnumpy(), expected)
    check_grad(lambda t: P.Slice()(t, (1, 0, 1), (1, 2, -1)), X24)
    check_modes(lambda t: P.Slice()(t, (0, 1, 1), (2, 2, 3)), Tensor(X24))


# ---- StridedSlice ----------------------------------------------------------------------------------------
# (begin, end, strides, masks) -> (shape, flat values), observed on MindSpore 2.10 CPU, PYNATIVE and GRAPH alike
STRIDED = [
    ((0, 0, 0), (2, 3, 4), (1, 2, 1), {}, (2, 2, 4), [0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23]),
    ((1, 2, 3), (0, 0, 0), (-1, -1, -2), {}, (1, 2, 2), [23, 21, 19, 17]),
    ((1, 1, 1), (2, 3, 4), (1, 1, 1), {"begin_mask": 0b101}, (2, 2, 4),
     [4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 20, 21, 22, 23]),
    ((0, 1, 0), (1, 2, 2), (1, 1, 1), {"end_mask": 0b010}, (1, 2, 2), [4, 5, 8, 9]),
    ((1, 0, 0), (2, 3, 4), (1, 1, 2), {"shrink_axis_mask": 1}, (3, 2), [12, 14, 16, 18, 20, 22]),
    ((0, 0, 0), (1, 1, 4), (1, 1, 1), {"new_axis_mask": 0b010}, (1, 1, 3, 4), None),
    ((1, 0, 1), (2, 3, 3), (1, 1, 1), {"ellipsis_mask": 2}, (1, 3, 2), [13, 14, 17, 18, 21, 22]),
    ((0, 1, 0), (1, 3, 1), (1, 1, 1), {"ellipsis_mask": 2}, (1, 3, 1), [0, 4, 8]),
    ((0, 0, 1), (0, 0, 3), (1, 1, 1), {"ellipsis_mask": 1}, (2, 0, 2), []),
    ((1,), (2,), (1,), {"shrink_axis_mask": 1}, (3, 4), list(range(12, 24))),
    ((1, -1), (2, -4), (1, -1), {}, (1, 3, 4), [20, 21, 22, 23, 16, 17, 18, 19, 12, 13, 14, 15]),
    ((5,), (6,), (1,), {}, (0, 3, 4), []),
    ((0, 0, 0), (2, 3, 4), (1, 1, 1), {"shrink_axis_mask": 7}, (), [0]),
    ((-1, 0, 0), (2, 3, 4), (1, 1, 1), {"shrink_axis_mask": 1}, (3, 4), list(range(12, 24))),
    # shrink with the begin_mask bit set takes index 0 (begin_mask wins on MindSpore's CPU kernel)
    ((0, 1, 0), (2, 3, 4), (1, 1, 1), {"begin_mask": 2, "end_mask": 4, "shrink_axis_mask": 2}, (2, 4),
     [0, 1, 2, 3, 12, 13, 14, 15]),
    ((0, 0), (1, 1), (1, 1), {"new_axis_mask": 2}, (1, 1, 3, 4), list(range(12))),
    ((2,), (0,), (-1,), {"begin_mask": 1}, (1, 3, 4), list(range(12, 24))),
    ((0, 0, 0), (2, 3, 4), (1, 1, 1), {"shrink_axis_mask": 1, "new_axis_mask": 1}, (1, 2, 3, 4), list(range(24))),
]


@pytest.mark.parametrize("begin, end, strides, masks, shape, flat", STRIDED)
def test_strided_slice_matches_mindspore(begin, end, strides, masks, shape, flat):
    (out,) = check_modes(lambda t: P.StridedSlice(**masks)(t, begin, end, strides), Tensor(X24))
    assert out.shape == shape
    if flat is not None:
        assert out.ravel().tolist() == flat
    np.testing.assert_array_equal(ops.strided_slice(Tensor(X24), begin, end, strides, **masks).asnumpy(), out)


def test_strided_slice_follows_the_documented_meaning_where_the_cpu_kernel_does_not():
    """Observed on MindSpore 2.10 CPU (arrayops.md section 2): ellipsis in entry 0 with (0, 1)..(1, 3) reads
    x[..., 0:2] (the documented x[..., 1:3] has the same shape); new_axis_mask=1 over (0,0,0)..(1,1,1) gives
    (1, 1, 1, 4) holding [0, 12, ~0, 0] (reads outside the row); end_mask=1 with stride -1 from begin 2 reads
    past the end. mslab gives the documented (numpy) slice: x[..., 1:3], x[None, 0:1, 0:1], x[1::-1]."""
    x = Tensor(X24)
    np.testing.assert_array_equal(P.StridedSlice(ellipsis_mask=1)(x, (0, 1), (1, 3), (1, 1)).asnumpy(), X24[..., 1:3])
    np.testing.assert_array_equal(P.StridedSlice(new_axis_mask=1)(x, (0, 0, 0), (1, 1, 1), (1, 1, 1)).asnumpy(),
                                  X24[None, 0:1, 0:1])
    np.testing.assert_array_equal(P.StridedSlice(end_mask=1)(x, (2,), (0,), (-1,)).asnumpy(), X24[2::-1])


def test_strided_slice_gradient():
    # observed on MindSpore 2.10 CPU: grad of sum(StridedSlice(shrink_axis_mask=1)(x, (1,0,0), (2,3,4), (1,2,2))
    # * [[1,2],[3,4]]) -> x[1] holds [[1 0 2 0] [0 0 0 0] [3 0 4 0]], zeros elsewhere. (With negative strides
    # MindSpore's CPU StridedSliceGrad returns zeros; mslab's gradient is the true one, checked below.)
    w = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    shrink = P.StridedSlice(shrink_axis_mask=1)
    g = ms.grad(lambda t: (shrink(t, (1, 0, 0), (2, 3, 4), (1, 2, 2)) * w).sum())(Tensor(X24))
    assert values(g)[1] == [[1.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 0.0], [3.0, 0.0, 4.0, 0.0]]
    assert not g.asnumpy()[0].any()
    for begin, end, strides, masks, _, _ in STRIDED[:8]:
        op = P.StridedSlice(**masks)
        check_grad(lambda t, op=op, b=begin, e=end, s=strides: op(t, b, e, s), X24.astype(np.float64))


@SETTINGS
@given(data=st.data(), shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
def test_strided_slice_is_the_numpy_slice(data, shape):
    x = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    n = data.draw(st.integers(1, len(shape)))
    bounds = st.integers(-5, 5)
    begin, end = data.draw(st.tuples(*[bounds] * n)), data.draw(st.tuples(*[bounds] * n))
    strides = data.draw(st.tuples(*[st.sampled_from([-2, -1, 1, 2])] * n))
    bm, em = data.draw(st.integers(0, 2 ** n - 1)), data.draw(st.integers(0, 2 ** n - 1))
    index = tuple(slice(None if bm >> i & 1 else b, None if em >> i & 1 else e, s)
                  for i, (b, e, s) in enumerate(zip(begin, end, strides)))
    (out,) = check_modes(lambda t: P.StridedSlice(bm, em)(t, begin, end, strides), Tensor(x))
    np.testing.assert_array_equal(out, x[index])


def test_strided_slice_errors():
    x = Tensor(X24)
    # observed on MindSpore 2.10 CPU: a zero stride -> ValueError "input 'strides' can not contain 0."; lengths 2/3/2 ->
    # ValueError "'begin', 'end' and 'strides' must have the same length"; more entries than axes -> ValueError;
    # ellipsis_mask=3 -> ValueError "only support one ellipsis in the index, but got 3" (when called)
    with pytest.raises(ValueError, match="can not contain 0"):
        P.StridedSlice()(x, (0,), (2,), (0,))
    with pytest.raises(ValueError, match="must have the same length"):
        P.StridedSlice()(x, (0, 0), (1, 1, 1), (1, 1))
    with pytest.raises(ValueError):
        P.StridedSlice()(x, (0, 0, 0, 0), (2, 3, 4, 1), (1, 1, 1, 1))
    with pytest.raises(ValueError, match="only support one ellipsis"):
        P.StridedSlice(ellipsis_mask=3)(x, (0, 0), (1, 1), (1, 1))


# ---- Unstack ---------------------------------------------------------------------------------------------
def test_unstack_values_gradient_and_modes():
    x = Tensor(X24)
    # observed on MindSpore 2.10 CPU: Unstack(axis=1) gives 3 tensors of shape (2, 4), the first [[0 1 2 3] [12 13
    # 14 15]]; Unstack() 2 of (3, 4); axis=-1 4 of (2, 3); axis=3 -> ValueError "Dimension out of range (expected
    # to be in range of [-3, 3), but got 3)"; num is ignored (num=3 on an axis of 1 gives one tensor); grad of
    # sum(2 * Unstack(axis=2)(x)[1] + Unstack(axis=2)(x)[3]) is [0 2 0 1] along the last axis everywhere
    parts = ops.Unstack(axis=1)(x)
    assert len(parts) == 3 and values(parts[0]) == [[0.0, 1.0, 2.0, 3.0], [12.0, 13.0, 14.0, 15.0]]
    assert [p.shape for p in ops.Unstack()(x)] == [(3, 4)] * 2
    assert [p.shape for p in ops.unstack(x, -1)] == [(2, 3)] * 4
    with pytest.raises(ValueError, match=r"range of \[-3, 3\), but got 3"):
        ops.Unstack(axis=3)(x)
    assert len(ops.Unstack(axis=0, num=3)(Tensor(X24[:1]))) == 1
    g = ms.grad(lambda t: (ops.Unstack(axis=2)(t)[1] * 2 + ops.Unstack(axis=2)(t)[3]).sum())(x)
    np.testing.assert_array_equal(g.asnumpy(), np.broadcast_to([0.0, 2.0, 0.0, 1.0], (2, 3, 4)))
    check_grad(lambda t: ops.Unstack(axis=1)(t), X24)
    check_modes(lambda t: ops.Unstack(axis=-1)(t), x)


# ---- unique ----------------------------------------------------------------------------------------------
def test_unique_values_dtypes_and_errors():
    # observed on MindSpore 2.10 CPU: [3 1 2 3 1 5] -> [3 1 2 5], [0 1 2 0 1 3] (Int32); 2-D float input is flattened,
    # idx keeps its shape; Int64 input -> Int64 idx, float64/int8/uint8 -> Int32 idx; a Bool input -> TypeError
    out, idx = ops.unique(Tensor(np.array([3, 1, 2, 3, 1, 5], np.int32)))
    assert values(out) == [3, 1, 2, 5] and values(idx) == [0, 1, 2, 0, 1, 3] and idx.dtype == ms.int32
    out, idx = ops.unique(Tensor(np.array([[2.0, 1.0], [2.0, 0.5]], np.float32)))
    assert values(out) == [2.0, 1.0, 0.5] and values(idx) == [[0, 1], [0, 2]]
    out, idx = P.Unique()(Tensor(np.array([[1, 1], [3, 2]], np.int64)))
    assert values(out) == [1, 3, 2] and values(idx) == [[0, 0], [1, 2]] and idx.dtype == ms.int64
    for dtype in (np.float64, np.int8, np.uint8, np.float16):
        out, idx = ops.unique(Tensor(np.array([1, 3, 1], dtype)))
        assert out.asnumpy().dtype == dtype and idx.dtype == ms.int32 and values(idx) == [0, 1, 0]
    out, idx = ops.unique(Tensor(np.zeros((0,), np.float32)))
    assert out.shape == (0,) and idx.shape == (0,) and idx.dtype == ms.int32
    with pytest.raises(TypeError, match="Unique"):
        ops.unique(Tensor(np.array([True, False, True])))


def test_unique_has_no_gradient_on_cpu_and_no_graph_mode_in_mslab():
    # observed on MindSpore 2.10 CPU: grad through unique -> RuntimeError "Unsupported op [UniqueGrad] on CPU"
    with pytest.raises(RuntimeError, match="UniqueGrad"):
        ms.grad(lambda a: ops.unique(a)[0].sum())(Tensor(np.array([1.0, 2.0, 1.0], np.float32)))
    with pytest.raises(GraphModeError, match="shape depends on the values"):
        ms.trace(lambda a: ops.unique(a)[0], Tensor(np.array([1.0, 2.0, 1.0], np.float32)))


# ---- ScatterNd -------------------------------------------------------------------------------------------
def test_scatter_nd_values_and_errors():
    # observed on MindSpore 2.10 CPU: duplicates add: [[0 4 0] [0 2 0]]; slices [[1],[0]] of [[1 2 3],[4 5 6]] into
    # (3, 3) -> [[4 5 6] [1 2 3] [0 0 0]]; int32 updates stay Int32; index 5 of an axis of 2 / index -1 ->
    # RuntimeError; updates of the wrong shape -> ValueError; a list shape -> TypeError
    out = P.ScatterNd()(Tensor(IDX), Tensor(UPD), (2, 3))
    assert values(out) == [[0.0, 4.0, 0.0], [0.0, 2.0, 0.0]]
    assert values(ops.scatter_nd(Tensor(IDX), Tensor(UPD), (2, 3))) == values(out)
    rows = P.ScatterNd()(Tensor(np.array([[1], [0]], np.int32)), Tensor(np.array([[1.0, 2, 3], [4, 5, 6]], np.float32)),
                         (3, 3))
    assert values(rows) == [[4.0, 5.0, 6.0], [1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]
    ints = P.ScatterNd()(Tensor(np.array([[0, 1]], np.int64)), Tensor(np.array([7], np.int32)), (2, 3))
    assert ints.dtype == ms.int32 and values(ints) == [[0, 7, 0], [0, 0, 0]]
    with pytest.raises(RuntimeError, match="should be smaller than the value of shape"):
        P.ScatterNd()(Tensor(np.array([[5, 1]], np.int32)), Tensor(np.array([1.0], np.float32)), (2, 3))
    with pytest.raises(RuntimeError, match="greater than or equal to 0"):
        P.ScatterNd()(Tensor(np.array([[-1, 1]], np.int32)), Tensor(np.array([1.0], np.float32)), (2, 3))
    with pytest.raises(ValueError, match="the shape of 'updates' should be"):
        P.ScatterNd()(Tensor(IDX), Tensor(np.array([1.0, 2.0], np.float32)), (2, 3))
    with pytest.raises(TypeError):
        P.ScatterNd()(Tensor(IDX), Tensor(UPD), [2, 3])
    with pytest.raises(TypeError):
        P.ScatterNd()(Tensor(IDX.astype(np.float32)), Tensor(UPD), (2, 3))


def test_scatter_nd_gradient_and_modes():
    # observed on MindSpore 2.10 CPU: grad of sum(ScatterNd(IDX, u, (2, 3)) * arange(6).reshape(2, 3)) -> [1. 4. 1.]
    w = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    g = ms.grad(lambda u: (P.ScatterNd()(Tensor(IDX), u, (2, 3)) * w).sum())(Tensor(UPD))
    assert values(g) == [1.0, 4.0, 1.0]
    check_grad(lambda u: P.ScatterNd()(Tensor(IDX), u, (2, 3)), UPD)
    check_modes(lambda i, u: P.ScatterNd()(i, u, (2, 3)), Tensor(IDX), Tensor(UPD))


# ---- ScatterNdUpdate -------------------------------------------------------------------------------------
def test_scatter_nd_update_writes_the_parameter():
    # observed on MindSpore 2.10 CPU: a repeated position keeps the last update: [[0 3 0] [0 2 0]], returned and
    # written into the Parameter; rows [[2],[0]] of (3, 2) -> [[3 4] [0 0] [1 2]]; int32 updates into a float32
    # Parameter are converted
    p = Parameter(Tensor(np.zeros((2, 3), np.float32)), name="p")
    out = P.ScatterNdUpdate()(p, Tensor(IDX), Tensor(UPD))
    assert values(out) == values(p) == [[0.0, 3.0, 0.0], [0.0, 2.0, 0.0]]
    p2 = Parameter(Tensor(np.zeros((3, 2), np.float32)), name="p2")
    ops.scatter_nd_update(p2, Tensor(np.array([[2], [0]], np.int32)), Tensor(np.array([[1.0, 2], [3, 4]], np.float32)))
    assert values(p2) == [[3.0, 4.0], [0.0, 0.0], [1.0, 2.0]]
    P.ScatterNdUpdate(use_locking=False)(p, Tensor(IDX), Tensor(np.array([1, 2, 5], np.int32)))
    assert p.dtype == ms.float32 and values(p) == [[0.0, 5.0, 0.0], [0.0, 2.0, 0.0]]


class _Update(nn.Cell):
    def __init__(self, use_result):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((2, 3), np.float32)), name="w")
        self.update = P.ScatterNdUpdate()
        self.use_result = use_result

    def construct(self, i, v):
        if self.use_result:
            return (self.update(self.w, i, v * v) * self.w).sum()
        self.update(self.w, i, v)
        return self.w * 2


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_scatter_nd_update_is_a_side_effect_in_both_modes(mode):
    # observed on MindSpore 2.10 CPU, GRAPH mode: construct "update(w, i, v); return w * 2" reads the new w:
    # [[2 6 2] [2 4 2]], and w is left [[1 3 1] [1 2 1]]; grad w.r.t. v of sum(update(w, i, v*v) * w) ->
    # [18. 16. 54.] in both modes
    ms.set_context(mode=mode)
    try:
        net = _Update(use_result=False)
        assert values(net(Tensor(IDX), Tensor(UPD))) == [[2.0, 6.0, 2.0], [2.0, 4.0, 2.0]]
        assert values(net.w) == [[1.0, 3.0, 1.0], [1.0, 2.0, 1.0]]
        g = ms.grad(_Update(use_result=True), grad_position=1)(Tensor(IDX), Tensor(UPD))
        assert values(g) == [18.0, 16.0, 54.0]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_scatter_nd_update_gradient_of_the_updates():
    def fn(u):
        p = Parameter(Tensor(np.zeros((2, 3))), name="scratch")
        return P.ScatterNdUpdate()(p, Tensor(np.array([[0, 1], [1, 2]], np.int32)), u)
    check_grad(fn, np.array([1.5, -2.0]))


# ---- GatherV2 --------------------------------------------------------------------------------------------
def test_gather_v2_is_gather():
    # observed on MindSpore 2.10 CPU (GRAPH mode; PYNATIVE wants a 4th argument, batch_dims 0): GatherV2()(x,
    # [2, 0], 1) -> [[[8 9 10 11] [0 1 2 3]] [[20 21 22 23] [12 13 14 15]]]
    x, i = Tensor(X24), Tensor(np.array([2, 0], np.int32))
    expected = [[[8.0, 9.0, 10.0, 11.0], [0.0, 1.0, 2.0, 3.0]], [[20.0, 21.0, 22.0, 23.0], [12.0, 13.0, 14.0, 15.0]]]
    assert values(P.GatherV2()(x, i, 1)) == expected == values(P.GatherV2()(x, i, 1, 0))
    check_modes(lambda t: P.GatherV2()(t, i, 1), x)
    check_grad(lambda t: P.GatherV2()(t, Tensor(np.array([2, 0, 2], np.int32)), 1), X24)


# ---- Pad and pad -----------------------------------------------------------------------------------------
def test_ops_pad_primitive():
    x = Tensor(X)
    # observed on MindSpore 2.10 CPU: ops.Pad(((1, 1), (2, 0)))(X) as below (P.Pad is ops.Pad); grad of sum(Pad(X) *
    # arange(20).reshape(4, 5)) -> [[7 8 9] [12 13 14]]; a list -> TypeError; a negative entry -> ValueError; one
    # pair for a 2-D input -> ValueError "1 vs 2"
    assert P.Pad is ops.Pad
    out = ops.Pad(((1, 1), (2, 0)))(x)
    assert values(out) == [[0, 0, 0, 0, 0], [0, 0, 1, 2, 3], [0, 0, 4, 5, 7], [0, 0, 0, 0, 0]]
    ints = ops.Pad(((1, 1), (2, 0)))(Tensor(X.astype(np.int32)))
    assert ints.dtype == ms.int32
    w = Tensor(np.arange(20, dtype=np.float32).reshape(4, 5))
    assert values(ms.grad(lambda t: (ops.Pad(((1, 1), (2, 0)))(t) * w).sum())(x)) == [[7, 8, 9], [12, 13, 14]]
    check_grad(lambda t: ops.Pad(((0, 2), (1, 1)))(t), X)
    check_modes(ops.Pad(((1, 1), (2, 0))), x)
    with pytest.raises(TypeError, match="should be 'tuple'"):
        ops.Pad([[1, 0], [0, 1]])
    with pytest.raises(ValueError, match="must be >= 0"):
        ops.Pad(((-1, 1), (2, 0)))
    with pytest.raises(ValueError, match="1 vs 2"):
        ops.Pad(((1, 1),))(x)


# observed on MindSpore 2.10 CPU: ops.pad(X, padding, mode, value) -> values
PADS = [
    ((1, 2), "constant", None, [[0, 1, 2, 3, 0, 0], [0, 4, 5, 7, 0, 0]]),
    ((1, 0, 0, 1), "constant", 9.0, [[9, 1, 2, 3], [9, 4, 5, 7], [9, 9, 9, 9]]),
    ((1, 0), "constant", 2, [[2, 1, 2, 3], [2, 4, 5, 7]]),
    ((-1, 1), "constant", None, [[2, 3, 0], [5, 7, 0]]),
    ((-1, 0), "reflect", None, [[2, 3], [5, 7]]),
    ((2, 1), "reflect", None, [[3, 2, 1, 2, 3, 2], [7, 5, 4, 5, 7, 5]]),
    ((2, 1), "replicate", None, [[1, 1, 1, 2, 3, 3], [4, 4, 4, 5, 7, 7]]),
]


@pytest.mark.parametrize("padding, mode, value, expected", PADS)
def test_functional_pad_values_and_modes(padding, mode, value, expected):
    (out,) = check_modes(lambda t: ops.pad(t, padding, mode, value), Tensor(X))
    assert out.tolist() == expected and out.dtype == np.float32


def test_functional_pad_3d_inputs():
    x = Tensor(np.arange(12, dtype=np.float32).reshape(1, 3, 4))
    # observed on MindSpore 2.10 CPU: ops.pad(arange(12).reshape(1, 3, 4), (1, 2, 1, 1), mode)
    assert values(ops.pad(x, (1, 2, 1, 1), mode="reflect"))[0] == [
        [5, 4, 5, 6, 7, 6, 5], [1, 0, 1, 2, 3, 2, 1], [5, 4, 5, 6, 7, 6, 5], [9, 8, 9, 10, 11, 10, 9],
        [5, 4, 5, 6, 7, 6, 5]]
    assert values(ops.pad(x, (1, 2, 1, 1), mode="replicate"))[0] == [
        [0, 0, 1, 2, 3, 3, 3], [0, 0, 1, 2, 3, 3, 3], [4, 4, 5, 6, 7, 7, 7], [8, 8, 9, 10, 11, 11, 11],
        [8, 8, 9, 10, 11, 11, 11]]
    # observed: circular (1, 1) of arange(6).reshape(1, 2, 3) -> [[[2 0 1 2 0] [5 3 4 5 3]]]
    circ = ops.pad(Tensor(np.arange(6, dtype=np.float32).reshape(1, 2, 3)), (1, 1), mode="circular")
    assert values(circ) == [[[2, 0, 1, 2, 0], [5, 3, 4, 5, 3]]]
    # observed: circular (3, 0) -> [[[0 1 2 0 1 2] ...]]; replicate (5, 0) repeats the edge five times
    assert values(ops.pad(Tensor(np.arange(6, dtype=np.float32).reshape(1, 2, 3)), (3, 0), mode="circular"))[0][0] == [
        0, 1, 2, 0, 1, 2]
    assert values(ops.pad(Tensor(np.arange(6, dtype=np.float32).reshape(1, 2, 3)), (5, 0), mode="replicate"))[0][1] == [
        3, 3, 3, 3, 3, 3, 4, 5]
    # observed: an int32 input with value 1.5 pads with 1; reflect works on int32
    ints = ops.pad(Tensor(np.array([[1, 2], [3, 4]], np.int32)), (1, 1), value=1.5)
    assert ints.dtype == ms.int32 and values(ints) == [[1, 1, 2, 1], [1, 3, 4, 1]]
    assert values(ops.pad(Tensor(np.array([[1, 2, 3]], np.int32)), (1, 1), mode="reflect")) == [[2, 1, 2, 3, 2]]


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
def test_functional_pad_gradient(mode):
    w = Tensor(np.arange(12, dtype=np.float32).reshape(2, 6))
    # observed on MindSpore 2.10 CPU: grad of sum(pad(X, (2, 1), mode) * arange(12).reshape(2, 6)); constant:
    # pad(X, (1, 0, 0, 1), value=3) against arange(12).reshape(3, 4) -> [[1 2 3] [5 6 7]]
    observed = {"reflect": [[2, 9, 4], [8, 27, 16]], "replicate": [[3, 3, 9], [21, 9, 21]]}
    if mode in observed:
        assert values(ms.grad(lambda t: (ops.pad(t, (2, 1), mode=mode) * w).sum())(Tensor(X))) == observed[mode]
    elif mode == "constant":
        w3 = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
        g = ms.grad(lambda t: (ops.pad(t, (1, 0, 0, 1), mode, 3.0) * w3).sum())(Tensor(X))
        assert values(g) == [[1, 2, 3], [5, 6, 7]]
    x4 = np.random.default_rng(0).standard_normal((1, 2, 3, 4))
    check_grad(lambda t: ops.pad(t, (2, 1, 1, 2), mode), x4)
    check_modes(lambda t: ops.pad(t, (2, 1, 1, 2), mode), Tensor(x4.astype(np.float32)))


def test_functional_pad_errors():
    x = Tensor(X)
    # observed on MindSpore 2.10 CPU: an odd padding -> ValueError "the size of padding must be divisible by 2"; mode
    # 'circularx' -> ValueError "the 'mode' must be str and must be in ..."; reflect with a value -> ValueError "can
    # not set value"; reflect (3, 0) on an axis of 3 -> ValueError; reflect/replicate/circular pad the last p axes of
    # a rank p+1 or p+2 input (two pairs on a 2-D input, any pair on a 1-D one, reflect on rank 5 -> ValueError);
    # constant with more pairs than axes -> ValueError
    with pytest.raises(ValueError, match="divisible by 2"):
        ops.pad(x, (1,))
    with pytest.raises(ValueError, match="'mode' must be str"):
        ops.pad(x, (1, 1), mode="circularx")
    with pytest.raises(ValueError, match="can not set value"):
        ops.pad(x, (1, 1), mode="reflect", value=1.0)
    with pytest.raises(ValueError, match="less than the dimension size"):
        ops.pad(x, (3, 0), mode="reflect")
    for mode in ("reflect", "replicate", "circular"):
        with pytest.raises(ValueError, match="rank"):
            ops.pad(x, (1, 1, 1, 0), mode=mode)
        with pytest.raises(ValueError, match="rank"):
            ops.pad(Tensor(np.ones(3, np.float32)), (1, 1), mode=mode)
    with pytest.raises(ValueError, match="rank"):
        ops.pad(Tensor(np.ones((2,) * 5, np.float32)), (1, 1, 1, 1, 1, 1), mode="reflect")
    assert ops.pad(Tensor(np.ones((2,) * 5, np.float32)), (1, 1, 1, 1, 1, 1), mode="replicate").shape == (2, 2, 4, 4, 4)
    with pytest.raises(ValueError, match="at most as many axes"):
        ops.pad(x, (1, 1, 1, 1, 1, 1))


@pytest.mark.parametrize("mode", ["REFLECT", "SYMMETRIC", "CONSTANT"])
def test_pad_axis_agrees_with_nn_pad(mode):
    """The building block ops.pad uses gives nn.Pad's values (observed on MindSpore 2.10 in nn/test_pad_layer.py)."""
    x = Tensor(X)
    out = pad_ops.pad_axis(pad_ops.pad_axis(x, 0, 1, 1, mode.lower()), 1, 2, 2, mode.lower())
    np.testing.assert_array_equal(out.asnumpy(), nn.Pad(((1, 1), (2, 2)), mode)(x).asnumpy())


# ---- every primitive and class of these modules is covered above ------------------------------------------
def test_every_new_array_name_is_tested():
    covered = {"Slice", "StridedSlice", "Unstack", "ScatterNd", "ScatterNdUpdate", "Unique", "Pad", "Eye", "ReverseV2",
               "UnsortedSegmentSum",  # tested in ops/test_clip_segment_assign_pinv.py
               "MirrorPad",  # tested in ops/test_rsqrt_cdist_mirror_pad.py
               # tested in ops/test_inv_softsign_ger_stacks_segments.py and ops/test_scatter_rows_in_place.py
               "UnsortedSegmentMax", "UnsortedSegmentMin", "UnsortedSegmentProd", "ScatterAdd", "ScatterSub",
               "ScatterMul", "ScatterDiv", "ScatterMax", "ScatterMin", "ScatterUpdate",
               "ScalarToArray"}
    names = {n for m in (slice_ops, pad_ops, scatter_ops, creation_ops) for n in m.__all__ if n[0].isupper()}
    assert names <= covered, names - covered
