"""Ops public MindSpore code uses in 3-4 files (issue 19): ops.clip, ops.amax, ops.gather_elements, ops.meshgrid /
Meshgrid, ops.MaskedFill, P.ReverseV2, P.UnsortedSegmentSum, P.AssignAdd, ops.pinv, ops.Print, C.ones_like,
ops.function, ms.tensor. Values observed on MindSpore 2.10 CPU (snippets and output in
docs/mindspore_observed/opsmore.md); each differentiable one against central differences and GRAPH == PYNATIVE."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import mslab as ms
from mslab import nn, ops
from mslab.common.tensor import Parameter, Tensor
from mslab.nn.optim.optimizer import all_or_nothing
from mslab.ops import assign_ops, broadcast_ops, linalg_ops
from mslab.ops import composite as C
from mslab.ops import operations as P
from mslab.testing import check_grad, check_modes

SETTINGS = settings(max_examples=15, deadline=None)
X = np.array([[1.0, -2.0, 3.5], [4.0, 5.0, -7.0]], np.float32)
W6 = np.arange(6, dtype=np.float32).reshape(2, 3)
FLOATS = st.floats(-10, 10, allow_nan=False, width=64)


def values(t):
    return t.asnumpy().tolist()


# ---- ops.clip / ops.amax / ops.gather_elements ---------------------------------------------------------------
def test_clip_matches_mindspore():
    x = Tensor(X)
    # observed on MindSpore 2.10 CPU
    assert values(ops.clip(x, -1.0, 4.0)) == [[1.0, -1.0, 3.5], [4.0, 4.0, -1.0]]
    assert values(ops.clip(x, 0.0)) == [[1.0, 0.0, 3.5], [4.0, 5.0, 0.0]]
    lo, hi = Tensor(np.zeros(3, np.float32)), Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    assert values(ops.clip(x, lo, hi)) == [[1.0, 0.0, 3.0], [1.0, 2.0, 0.0]]
    xi = ops.clip(Tensor(np.array([1, 5, 9], np.int32)), 2, 6)
    assert values(xi) == [2, 5, 6] and xi.dtype == ms.int32
    assert values(ops.clip(x, 3.0, 1.0)) == [[1.0] * 3] * 2          # min > max: every element is max
    with pytest.raises(ValueError, match="For Clamp, at least one of 'min' or 'max' must not be None"):
        ops.clip(x)
    # grad of sum(clip(x, -1, 4) * arange): dout passes inside [-1, 4], ties at the bound included
    g = ms.grad(lambda t: (ops.clip(t, -1.0, 4.0) * Tensor(W6)).sum())(x)
    assert values(g) == [[0.0, 0.0, 2.0], [3.0, 0.0, 0.0]]
    assert ops.clamp is ops.clip


def test_amax_matches_mindspore():
    x = Tensor(X)
    # observed on MindSpore 2.10 CPU: 5.0, [3.5 5.], [[5.]], [[4. 5. 3.5]]; axis=() is every axis
    assert values(ops.amax(x)) == 5.0 and values(ops.amax(x, axis=())) == 5.0
    assert values(ops.amax(x, 1)) == [3.5, 5.0]
    assert values(ops.amax(x, (0, 1), True)) == [[5.0]]
    assert values(ops.amax(x, axis=0, keepdims=True)) == [[4.0, 5.0, 3.5]]
    assert values(ops.amax(Tensor(np.array([[1, 5], [7, 2]], np.int32)), 0)) == [7, 5]
    # ties split the gradient evenly: [[0 .5 .5] [0 .5 .5]]
    g = ms.grad(lambda t: ops.amax(t, 1).sum())(Tensor(np.array([[1.0, 3.0, 3.0], [4.0, 5.0, 5.0]], np.float32)))
    assert values(g) == [[0.0, 0.5, 0.5], [0.0, 0.5, 0.5]]
    check_modes(lambda t: ops.amax(t, 0, True), x)


def test_gather_elements_matches_mindspore():
    x = Tensor(X)
    # observed on MindSpore 2.10 CPU
    assert values(ops.gather_elements(x, 1, Tensor(np.array([[0, 0], [1, 0]], np.int32)))) == [[1.0, 1.0],
                                                                                               [5.0, 4.0]]
    assert values(ops.gather_elements(x, 0, Tensor(np.array([[1, 0, 1]], np.int64)))) == [[4.0, -2.0, -7.0]]
    # a negative index counts from the end; index may be shorter than x on the other axes
    x2 = Tensor(np.array([[1.0, 2.5], [3.0, 4.0]], np.float32))
    assert values(ops.gather_elements(x2, 1, Tensor(np.array([[-1, 0]], np.int64)))) == [[2.5, 1.0]]
    with pytest.raises(Exception, match=r"For 'GatherD', the value of 'index' must be in \[-3, 3\), but got: 3"):
        ops.gather_elements(x, 1, Tensor(np.array([[0, 3], [0, 0]], np.int32)))
    # grad of sum(gather_elements(x, 1, [[0, 0], [2, 0]]) * 2): [[4 0 0] [2 0 2]]
    g = ms.grad(lambda t: (ops.gather_elements(t, 1, Tensor(np.array([[0, 0], [2, 0]], np.int32))) * 2).sum())(x)
    assert values(g) == [[4.0, 0.0, 0.0], [2.0, 0.0, 2.0]]
    check_grad(lambda t: ops.gather_elements(t, 1, Tensor(np.array([[-1, 0]], np.int32))), X)
    check_modes(lambda t, i: ops.gather_elements(t, 1, i), x, Tensor(np.array([[-1, 0], [2, 1]], np.int32)))


# ---- ops.meshgrid / ops.Meshgrid -------------------------------------------------------------------------
def test_meshgrid_matches_mindspore():
    a, b = Tensor(np.array([1, 2, 3], np.int32)), Tensor(np.array([4, 5], np.int32))
    # observed on MindSpore 2.10 CPU: 'xy' -> shapes (2, 3), 'ij' -> (3, 2)
    gx, gy = ops.meshgrid(a, b)
    assert values(gx) == [[1, 2, 3], [1, 2, 3]] and values(gy) == [[4, 4, 4], [5, 5, 5]] and gx.dtype == ms.int32
    gx, gy = ops.meshgrid(a, b, indexing="ij")
    assert values(gx) == [[1, 1], [2, 2], [3, 3]] and values(gy) == [[4, 5], [4, 5], [4, 5]]
    assert [values(t) for t in ops.Meshgrid(indexing="xy")((a, b))] == [[[1, 2, 3], [1, 2, 3]], [[4, 4, 4], [5, 5, 5]]]
    c = Tensor(np.ones(4, np.int32))
    assert [t.shape for t in ops.meshgrid(a, b, c)] == [(2, 3, 4)] * 3
    assert [t.shape for t in ops.meshgrid(a, b, c, indexing="ij")] == [(3, 2, 4)] * 3
    with pytest.raises(ValueError, match="of input 'indexing' of 'Meshgrid' to enum"):
        ops.meshgrid(a, b, indexing="ji")
    # grad of sum(X * Y) for a = [1 2 3], b = [4 5] (float): (9 9 9), (6 6)
    fa, fb = Tensor(np.array([1.0, 2.0, 3.0], np.float32)), Tensor(np.array([4.0, 5.0], np.float32))
    ga, gb = ms.grad(lambda u, v: (ops.meshgrid(u, v)[0] * ops.meshgrid(u, v)[1]).sum(), grad_position=(0, 1))(fa, fb)
    assert values(ga) == [9.0, 9.0, 9.0] and values(gb) == [6.0, 6.0]
    check_grad(lambda u, v: ops.meshgrid(u, v, indexing="ij"), np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0]))
    check_modes(lambda u, v: ops.meshgrid(u, v), fa, fb)


# ---- ops.MaskedFill --------------------------------------------------------------------------------------
def test_masked_fill_matches_mindspore():
    x = Tensor(W6)
    m = Tensor(np.array([[True, False, True], [False, False, True]]))
    # observed on MindSpore 2.10 CPU
    assert values(ops.MaskedFill()(x, m, Tensor(9.0, ms.float32))) == [[9.0, 1.0, 9.0], [3.0, 4.0, 9.0]]
    assert values(ops.masked_fill(x, m, 9.0)) == [[9.0, 1.0, 9.0], [3.0, 4.0, 9.0]]
    assert values(ops.MaskedFill()(x, Tensor(np.array([True, False, False])), Tensor(-1.0, ms.float32))) == \
        [[-1.0, 1.0, 2.0], [-1.0, 4.0, 5.0]]
    # grads: input gets dout where the mask is False, value the sum of dout where it is True (3)
    gx, gv = ms.grad(lambda t, v: ops.MaskedFill()(t, m, v).sum(), grad_position=(0, 1))(x, Tensor(9.0, ms.float32))
    assert values(gx) == [[0.0, 1.0, 0.0], [1.0, 1.0, 0.0]] and values(gv) == 3.0
    check_grad(lambda t, v: ops.masked_fill(t, m, v), W6, np.array(2.0))
    check_modes(lambda t, v: ops.masked_fill(t, m, v), x, Tensor(9.0, ms.float32))
    with pytest.raises(TypeError, match="'mask' must be a Bool Tensor"):
        ops.masked_fill(x, Tensor(np.ones((2, 3), np.int32)), 1.0)


# ---- P.ReverseV2 -----------------------------------------------------------------------------------------
def test_reverse_v2_matches_mindspore():
    x = Tensor(W6)
    # observed on MindSpore 2.10 CPU
    assert values(P.ReverseV2(axis=[1])(x)) == [[2.0, 1.0, 0.0], [5.0, 4.0, 3.0]]
    assert values(P.ReverseV2(axis=(0, 1))(x)) == [[5.0, 4.0, 3.0], [2.0, 1.0, 0.0]]
    assert values(P.ReverseV2(axis=[-1])(x)) == [[2.0, 1.0, 0.0], [5.0, 4.0, 3.0]]
    g = ms.grad(lambda t: (P.ReverseV2(axis=[1])(t) * Tensor(W6)).sum())(x)
    assert values(g) == [[2.0, 1.0, 0.0], [5.0, 4.0, 3.0]]
    with pytest.raises(ValueError, match=r"the 'axis\[0\]' must be in range of \[-2, 2\), but got 2"):
        P.ReverseV2(axis=[2])(x)
    with pytest.raises(ValueError, match="'axis' cannot contain duplicate dimensions, but got 0"):
        P.ReverseV2(axis=[0, 0])(x)


@SETTINGS
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=4), elements=FLOATS))
def test_reverse_v2_gradient_and_modes(x):
    op = P.ReverseV2(axis=[-1, 0] if x.ndim > 1 else [0])
    check_grad(op, x)
    check_modes(op, Tensor(x))


# ---- P.UnsortedSegmentSum --------------------------------------------------------------------------------
D = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)
SEG = np.array([0, 2, 0], np.int32)


def test_unsorted_segment_sum_matches_mindspore():
    d, seg = Tensor(D), Tensor(SEG)
    # observed on MindSpore 2.10 CPU
    assert values(P.UnsortedSegmentSum()(d, seg, 3)) == [[6.0, 8.0], [0.0, 0.0], [3.0, 4.0]]
    assert values(ops.unsorted_segment_sum(d, seg, 4)) == [[6.0, 8.0], [0.0, 0.0], [3.0, 4.0], [0.0, 0.0]]
    assert values(P.UnsortedSegmentSum()(d, Tensor(np.array([-1, 1, 0], np.int32)), 3)) == [[5.0, 6.0], [3.0, 4.0],
                                                                                            [0.0, 0.0]]
    both = Tensor(np.array([[0, 1], [1, 1], [0, 0]], np.int32))
    assert values(P.UnsortedSegmentSum()(d, both, 2)) == [12.0, 9.0]            # ids cover both axes
    out = P.UnsortedSegmentSum()(Tensor(np.array([1, 2, 3], np.int32)), Tensor(np.array([0, 0, 1], np.int32)), 2)
    assert values(out) == [3, 3] and out.dtype == ms.int32
    # an id >= num_segments: MindSpore's CPU kernel fails ("Launch kernel failed"), a RuntimeError
    with pytest.raises(Exception, match="must be < num_segments"):
        P.UnsortedSegmentSum()(d, Tensor(np.array([0, 1, 3], np.int32)), 3)
    with pytest.raises(Exception, match="the whose shape of 'segment_ids' must equal to the shape of 'input_x'"):
        P.UnsortedSegmentSum()(d, Tensor(np.array([0, 1], np.int32)), 3)
    # grad of sum(out * [[1,2],[3,4],[5,6]]): each row gets its segment's row of the weights
    g = ms.grad(lambda t: (P.UnsortedSegmentSum()(t, seg, 3) * Tensor(D)).sum())(d)
    assert values(g) == [[1.0, 2.0], [5.0, 6.0], [1.0, 2.0]]


def test_unsorted_segment_sum_gradient_and_modes():
    ids = Tensor(np.array([2, -1, 0, 2], np.int32))
    x = np.arange(12, dtype=np.float64).reshape(4, 3) / 7
    check_grad(lambda t: P.UnsortedSegmentSum()(t, ids, 3), x)
    check_modes(lambda t, i: P.UnsortedSegmentSum()(t, i, 3), Tensor(x), ids)


def test_kmeans_step_in_graph_mode():
    """K-means' update (course program): new centres = segment sums / counts of the nearest centre (Argmin)."""
    points = Tensor(np.array([[0.0, 0.0], [0.0, 1.0], [5.0, 5.0], [6.0, 5.0]], np.float32))
    centres = Tensor(np.array([[0.0, 0.5], [5.0, 4.0]], np.float32))

    def step(p, c):
        dist = ((ops.expand_dims(p, 1) - ops.expand_dims(c, 0)) ** 2).sum(-1)
        nearest = P.Argmin(axis=1)(dist)
        sums = P.UnsortedSegmentSum()(p, nearest, 2)
        counts = P.UnsortedSegmentSum()(ops.ones_like(p[:, :1]), nearest, 2)
        return sums / counts

    (out,) = check_modes(step, points, centres)
    assert out.tolist() == [[0.0, 0.5], [5.5, 5.0]]


# ---- P.AssignAdd -----------------------------------------------------------------------------------------
def test_assign_add_matches_mindspore():
    p = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="p")
    # observed on MindSpore 2.10 CPU: [11. 22.], returned and written; an Int32 value adds into Float32
    out = P.AssignAdd()(p, Tensor(np.array([10.0, 20.0], np.float32)))
    assert values(p) == [11.0, 22.0] and values(out) == [11.0, 22.0]
    ops.assign_add(p, Tensor(np.array([1, 2], np.int32)))
    assert values(p) == [12.0, 24.0] and p.dtype == ms.float32
    with pytest.raises(Exception, match="'value' must have the same shape as 'variable'"):
        P.AssignAdd()(p, Tensor(np.array([1.0], np.float32)))
    with pytest.raises(Exception, match="'value' must have the same rank as 'variable'"):
        P.AssignAdd()(p, Tensor(1.0, ms.float32))


class Accumulate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.v = Parameter(Tensor(np.array([0.0], np.float32)), name="v")
        self.aa = P.AssignAdd()

    def construct(self, x):
        self.aa(self.v, x)
        return self.v * 2


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_assign_add_in_a_cell(mode):
    ms.set_context(mode=mode)
    try:
        net = Accumulate()
        x = Tensor(np.array([3.0], np.float32))
        # observed on MindSpore 2.10 CPU, both modes: [6.] then [12.]
        assert values(net(x)) == [6.0] and values(net(x)) == [12.0]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_assign_add_gradients():
    # observed on MindSpore 2.10 CPU: d/dx, d/dy of sum(AssignAdd(q, x * y)) at x=[2 3], y=[5 7] -> [5 7], [2 3];
    # the Parameter written gets dout too (grad of 3 * sum(AssignAdd(q, v)) w.r.t. q is [3 3])
    q = Parameter(Tensor(np.array([1.0, 1.0], np.float32)), name="q")
    gx, gy = ms.grad(lambda x, y: P.AssignAdd()(q, x * y).sum(), grad_position=(0, 1))(
        Tensor(np.array([2.0, 3.0], np.float32)), Tensor(np.array([5.0, 7.0], np.float32)))
    assert values(gx) == [5.0, 7.0] and values(gy) == [2.0, 3.0]
    q2 = Parameter(Tensor(np.array([1.0, 1.0], np.float32)), name="q2")
    (gq,) = ops.GradOperation(get_by_list=True)(lambda v: P.AssignAdd()(q2, v).sum() * 3, [q2])(
        Tensor(np.array([2.0, 3.0], np.float32)))
    assert values(gq) == [3.0, 3.0]
    check_grad(lambda v: P.AssignAdd()(Parameter(Tensor(np.zeros(3)), name="z"), v), np.array([1.0, 2.0, 3.0]))


def test_assign_add_is_journalled():
    """An all-or-nothing step that fails puts the Parameter back (core.state.before_write, as Assign)."""
    p = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="p")
    with pytest.raises(RuntimeError), all_or_nothing():
        P.AssignAdd()(p, Tensor(np.array([10.0, 20.0], np.float32)))
        raise RuntimeError("the step fails after the write")
    assert values(p) == [1.0, 2.0]


# ---- ops.pinv --------------------------------------------------------------------------------------------
A = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)


def test_pinv_matches_mindspore():
    # observed on MindSpore 2.10 CPU (its float32 result is a few ulp from the exact one)
    close = dict(rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(ops.pinv(Tensor(A)).asnumpy(), [[-1.3333349, -0.33333445, 0.6666678],
                                                               [1.0833347, 0.33333424, -0.41666758]], **close)
    assert values(ops.pinv(Tensor(np.array([[2.0, 0.0], [0.0, 0.0]], np.float32)))) == [[0.5, 0.0], [0.0, 0.0]]
    batch = ops.pinv(Tensor(np.arange(12, dtype=np.float32).reshape(2, 3, 2)))
    np.testing.assert_allclose(batch.asnumpy(), [[[-1.0833333, -0.3333333, 0.41666663],
                                                  [0.83333343, 0.33333334, -0.16666667]],
                                                 [[-2.583334, -0.33333042, 1.9166652],
                                                  [2.3333335, 0.33333066, -1.6666651]]], **close)
    herm = ops.pinv(Tensor(np.array([[2.0, 1.0], [1.0, 2.0]], np.float32)), hermitian=True)
    np.testing.assert_allclose(herm.asnumpy(), [[0.6666667, -0.3333333], [-0.3333333, 0.6666667]], **close)
    np.testing.assert_allclose(ops.pinv(Tensor(A), atol=Tensor(3.0, ms.float32)).asnumpy(),
                               [[0.01495147, 0.03413435, 0.05331725], [0.01893925, 0.04323852, 0.06753779]], **close)
    g = ms.grad(lambda t: (ops.pinv(t) * Tensor(W6)).sum())(Tensor(A))
    np.testing.assert_allclose(g.asnumpy(), [[3.50001, -3.375009], [1.0000072, -1.0000063], [-1.500005, 1.3750046]],
                               rtol=1e-4)
    with pytest.raises(TypeError, match=r"For 'pinv', the 'x' should be one of \[mindspore.float32, "
                                        r"mindspore.float64\], but got 'mindspore.int32'"):
        ops.pinv(Tensor(np.array([[1, 2]], np.int32)))


@SETTINGS
@given(st.integers(1, 2), st.integers(1, 4), st.integers(1, 4), st.integers(0, 10 ** 6))
def test_pinv_gradient_and_modes(batch, m, n, seed):
    x = np.random.default_rng(seed).standard_normal((batch, m, n)) + 2 * np.eye(m, n)  # full rank
    check_grad(ops.pinv, x, rtol=1e-4, atol=1e-5)
    check_modes(ops.pinv, Tensor(x.astype(np.float32)))
    check_modes(lambda t: ops.pinv(t, hermitian=True), Tensor((x @ np.swapaxes(x, -1, -2)).astype(np.float32)))


# ---- ops.Print, C.ones_like, ops.function, ms.tensor -------------------------------------------------------
def test_print_pynative_and_graph(capsys):
    x = Tensor(np.array([[1.0, 2.5], [3.0, 4.0]], np.float32))
    assert P.Print is ops.Print
    out = ops.Print()("x is:", x, 3, Tensor(np.array([1, 2], np.int32)), Tensor(2.0, ms.float32),
                      Tensor(np.array([True, False])))
    assert out is None
    # observed on MindSpore 2.10 CPU (PYNATIVE: elements separated by commas)
    assert capsys.readouterr().out == ("x is:\nTensor(shape=[2, 2], dtype=Float32, value=\n"
                                       "[[ 1.00000000e+00,  2.50000000e+00],\n [ 3.00000000e+00,  4.00000000e+00]])\n"
                                       "3\nTensor(shape=[2], dtype=Int32, value= [1, 2])\n"
                                       "Tensor(shape=[], dtype=Float32, value= 2)\n"
                                       "Tensor(shape=[2], dtype=Bool, value= [ True, False])\n")

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = P.Print()

        def construct(self, x):
            self.p("in graph", x)
            return x + 1

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        assert values(Net()(x)) == [[2.0, 3.5], [4.0, 5.0]]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    # observed on MindSpore 2.10 CPU (GRAPH: no commas)
    assert capsys.readouterr().out == ("in graph\nTensor(shape=[2, 2], dtype=Float32, value=\n"
                                       "[[ 1.00000000e+00  2.50000000e+00]\n [ 3.00000000e+00  4.00000000e+00]])\n")
    # a Print in construct leaves the gradient alone: ones
    assert values(ms.grad(lambda t: Net()(t).sum())(x)) == [[1.0, 1.0], [1.0, 1.0]]


def test_ones_like_function_path_and_lowercase_tensor():
    a, b = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3], np.int32))
    # observed on MindSpore 2.10 CPU: C.ones_like maps over a tuple
    ones = C.ones_like((a, b))
    assert values(ones[0]) == [1.0, 1.0] and values(ones[1]) == [1] and ones[1].dtype == ms.int32
    assert values(C.ones_like(Tensor(np.array([[1, 2]], np.int32)))) == [[1, 1]]
    from mslab.ops.function import broadcast_to
    assert broadcast_to(a, (2, 2)).shape == (2, 2)
    assert not hasattr(ops.function, "ReLU") and ops.function.relu is ops.relu  # functions only, as MindSpore's
    # observed: ms.tensor([1, 2]) is Int64, ms.tensor(1.5) Float32, ms.tensor([1.0, 2]) Float32
    assert ms.tensor([1, 2]).dtype == ms.int64 and ms.tensor(1.5).dtype == ms.float32
    assert values(ms.tensor((1, 2), dtype=ms.float16)) == [1.0, 2.0] and isinstance(ms.tensor([1.0]), Tensor)


def test_every_new_primitive_is_tested():
    names = {n for m in (assign_ops, broadcast_ops, linalg_ops) for n in m.__all__ if n[0].isupper()}
    assert names <= {"AssignAdd", "Meshgrid", "MaskedFill"}, names
