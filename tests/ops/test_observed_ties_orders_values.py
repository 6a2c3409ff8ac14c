"""Values mslab used to get wrong with no error (issue 28), each kept by MindSpore 2.10 CPU's own numbers:
gradients at ties (Maximum/Minimum, clip vs clip_by_value), the order AvgPoolGrad adds in, TopK's order
(sorted=False, and ties when sorted), MaskedFill's broadcasting, KLDivLoss where labels <= 0, and which inputs
of the BCE-with-logits ops get a gradient. Snippets and outputs: docs/mindspore_observed/wrongvals.md."""
import numpy as np
import pytest

import mslab as ms
from mslab import nn, ops
from mslab.common.tensor import Tensor
from mslab.testing import check_grad, check_modes

MODES = [ms.PYNATIVE_MODE, ms.GRAPH_MODE]


def values(t):
    return t.asnumpy().tolist()


def grads_in(mode, fn, positions, *args):
    ms.set_context(mode=mode)
    try:
        g = ms.grad(fn, positions)(*args)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    return [values(t) for t in g] if isinstance(g, tuple) else values(g)


# ---- Maximum / Minimum: a tie splits the gradient evenly ------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_maximum_and_minimum_split_a_tie_evenly(mode):
    a = Tensor(np.array([1.0, 2.0, 3.0, 0.0], np.float32))
    b = Tensor(np.array([1.0, 1.0, 4.0, 0.0], np.float32))

    def fmax(x, y):
        return ops.maximum(x, y).sum()

    def fmin(x, y):
        return ops.minimum(x, y).sum()

    def same(x):
        return ops.maximum(x, x).sum()

    # observed on MindSpore 2.10 CPU, both modes
    assert grads_in(mode, fmax, (0, 1), a, b) == [[0.5, 1.0, 0.0, 0.5], [0.5, 0.0, 1.0, 0.5]]
    assert grads_in(mode, fmin, (0, 1), a, b) == [[0.5, 0.0, 1.0, 0.5], [0.5, 1.0, 0.0, 0.5]]
    assert grads_in(mode, same, 0, a) == [1.0, 1.0, 1.0, 1.0]


def test_maximum_minimum_gradients_match_central_differences_also_at_ties():
    x = np.array([[1.0, -2.0, 3.0], [0.5, 0.5, -1.0]])
    y = np.array([[1.0, 0.0, 3.0], [0.5, 2.0, -1.5]])   # ties at 4 places: central differences give 0.5 there
    check_grad(lambda p, q: ops.maximum(p, q) * 1.0, x, y)
    check_grad(lambda p, q: ops.minimum(p, q) * 1.0, x, y)


@pytest.mark.parametrize("mode", MODES)
def test_clip_passes_the_whole_gradient_on_a_bound_clip_by_value_half(mode):
    x = Tensor(np.array([-1.0, 0.0, 0.5, 1.0, 2.0], np.float32))
    lo, hi = Tensor(np.zeros(5, np.float32)), Tensor(np.ones(5, np.float32))

    def by_value(t):
        return ops.clip_by_value(t, 0.0, 1.0).sum()

    def by_value_tensors(t):
        return ops.clip_by_value(t, lo, hi).sum()

    def clamp(t):
        return ops.clamp(t, lo, hi).sum()

    def method(t):
        return t.clip(0.0, 1.0).sum()

    def lower_only(t):
        return ops.clip(t, 0.0).sum()

    # observed on MindSpore 2.10 CPU, both modes
    assert grads_in(mode, by_value, 0, x) == [0.0, 0.5, 1.0, 0.5, 0.0]
    assert grads_in(mode, by_value_tensors, 0, x) == [0.0, 0.5, 1.0, 0.5, 0.0]
    assert grads_in(mode, clamp, 0, x) == [0.0, 1.0, 1.0, 1.0, 0.0]
    assert grads_in(mode, method, 0, x) == [0.0, 1.0, 1.0, 1.0, 0.0]
    assert grads_in(mode, lower_only, 0, x) == [0.0, 1.0, 1.0, 1.0, 1.0]


def test_clip_values_dtypes_and_gradient_away_from_the_bounds():
    x = np.array([[1.0, -2.0, 3.5], [4.0, 5.0, -7.0]])
    assert values(ops.clip(Tensor(x.astype(np.float32)), 3.0, 1.0)) == [[1.0] * 3] * 2   # min > max: all max
    xi = ops.clip(Tensor(np.array([1, 5, 9], np.int32)), 2, 6)
    assert values(xi) == [2, 5, 6] and xi.dtype == ms.int32
    check_grad(lambda t: ops.clip(t, -1.5, 3.9) * 1.0, x)
    check_modes(lambda t: ops.clip(t, -1.0, 4.0), Tensor(x.astype(np.float32)))


# ---- AvgPoolGrad adds in MindSpore's order ------------------------------------------------------------------
# MindSpore 2.10 CPU, nn.AvgPool2d(3, 1, "valid") on zeros (1, 1, 5, 5), GradOperation(sens_param=True) with this
# sens, both modes: the float32 numbers below, printed with .tolist(). Adding the windows' shares in another order
# gives 0.5 where MindSpore has 0.4999999701976776 (a test of MindSpore's checks the gradient for equality).
AVG_SENS = [[[[0.1, 0.7, 0.3], [0.9, 0.2, 0.6], [0.4, 0.8, 0.5]]]]
AVG_DX = [[[[0.011111111380159855, 0.08888888359069824, 0.12222221493721008, 0.1111111044883728, 0.03333333507180214],
            [0.1111111044883728, 0.21111109852790833, 0.31111109256744385, 0.19999998807907104, 0.10000000894069672],
            [0.15555554628372192, 0.3444444239139557, 0.4999999701976776, 0.3444444239139557, 0.15555556118488312],
            [0.14444443583488464, 0.25555554032325745, 0.37777775526046753, 0.23333334922790527,
             0.12222222983837128],
            [0.04444444552063942, 0.13333334028720856, 0.18888889253139496, 0.14444445073604584,
             0.0555555559694767]]]]


@pytest.mark.parametrize("mode", MODES)
def test_avg_pool_gradient_is_mindspores_to_the_last_bit(mode):
    ms.set_context(mode=mode)
    try:
        net = nn.AvgPool2d(3, 1, "valid")
        dx = ops.GradOperation(sens_param=True)(net)(Tensor(np.zeros((1, 1, 5, 5), np.float32)),
                                                     Tensor(np.array(AVG_SENS, np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert dx.asnumpy().tolist() == AVG_DX


# ---- TopK: MindSpore's order --------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_topk_unsorted_gives_the_order_mindspores_kernel_leaves(mode):
    x = Tensor(np.array([[1, 5, 3, 9, 2, 7], [6, 0, 4, 8, 3, 1]], np.float32))
    x1 = Tensor(np.array([4.0, 1.0, 9.0, 2.0, 9.0, 3.0, 7.0], np.float32))

    def run(t, t1):
        return (ops.TopK(sorted=False)(t, 3) + ops.TopK(sorted=True)(t, 3) + ops.TopK(sorted=False)(t1, 4)
                + ops.topk(t1, 4, dim=0, largest=False, sorted=False))

    ms.set_context(mode=mode)
    try:
        out = [values(t) for t in (run(x, x1) if mode == ms.PYNATIVE_MODE else ms.jit(run)(x, x1))]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    # observed on MindSpore 2.10 CPU
    assert out == [[[7.0, 9.0, 5.0], [4.0, 6.0, 8.0]], [[5, 3, 1], [2, 0, 3]],
                   [[9.0, 7.0, 5.0], [8.0, 6.0, 4.0]], [[3, 5, 1], [3, 0, 2]],
                   [4.0, 7.0, 9.0, 9.0], [0, 6, 2, 4],
                   [2.0, 1.0, 3.0, 4.0], [3, 1, 5, 0]]


def test_topk_sorted_ties_follow_mindspores_selection():
    # ties, k <= n // 2: nth_element first, then a stable sort of the k (observed: [1 2], not [0 1]); k > n // 2:
    # a stable sort of the whole row
    x = Tensor(np.array([2.0, 2.0, 2.0, 0.0], np.float32))
    assert values(ops.TopK()(x, 2)[1]) == [1, 2]
    assert values(ops.TopK()(x, 3)[1]) == [0, 1, 2]
    row = np.array([1, 2, 2, 4, 5, 0, 5, 3, 2, 4, 3, 1, 1, 4, 3, 3, 2, 4, 2, 1, 5], np.float32)
    assert values(ops.TopK()(Tensor(row), 8)[1]) == [20, 6, 4, 9, 13, 3, 17, 15]   # observed


def test_topk_gradient_goes_back_to_the_picked_places():
    x = np.array([[0.3, -1.2, 2.5, 0.7, 1.1], [1.5, 0.2, -0.4, 2.2, 0.9]])
    check_grad(lambda t: ops.TopK(sorted=False)(t, 3)[0] * 1.0, x)


# ---- MaskedFill broadcasts input and mask against each other ------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_masked_fill_broadcasts_input_against_mask(mode):
    x = Tensor(np.array([[1.0], [2.0]], np.float32))
    m = Tensor(np.array([[True, False]]))

    def fill(t):
        return ops.masked_fill(t, m, 5.0)

    def fill_sum(t):
        return fill(t).sum()

    # observed on MindSpore 2.10 CPU: [[5 1] [5 2]], gradient [[1] [1]]
    assert values(fill(x)) == [[5.0, 1.0], [5.0, 2.0]]
    assert grads_in(mode, fill_sum, 0, x) == [[1.0], [1.0]]
    x2 = Tensor(np.array([[1.0, 2.0]], np.float32))
    assert values(ops.masked_fill(x2, Tensor(np.array([[True], [False]])), 5.0)) == [[5.0, 5.0], [1.0, 2.0]]
    check_modes(fill, x)
    check_grad(lambda t: ops.masked_fill(t, m, 5.0), np.array([[1.5], [-2.0]]))
    with pytest.raises(ValueError, match="do not broadcast"):
        ops.masked_fill(Tensor(np.ones((2, 3), np.float32)), m, 1.0)


# ---- KLDivLoss: 0 where labels <= 0, the logits' gradient -labels everywhere ----------------------------------
KL_X = np.array([[0.2, 0.7, 0.1], [-0.5, 0.3, 1.2]], np.float32)
KL_T = np.array([[0.0, 1.0, -0.5], [0.3, -1.0, 0.4]], np.float32)


def test_kl_div_is_zero_where_labels_are_not_positive():
    x, t = Tensor(KL_X), Tensor(KL_T)
    # observed on MindSpore 2.10 CPU (ops.KLDivLoss and ops.kl_div alike)
    np.testing.assert_allclose(values(ops.KLDivLoss("none")(x, t)), [[0.0, -0.7, 0.0], [-0.21119185, 0.0, -0.8465163]],
                               rtol=2e-6)
    for reduction, expected in (("mean", -0.29295138), ("sum", -1.7577082), ("batchmean", -0.8788541)):
        np.testing.assert_allclose(values(ops.KLDivLoss(reduction)(x, t)), expected, rtol=2e-6)
        np.testing.assert_allclose(values(ops.kl_div(x, t, reduction)), expected, rtol=2e-6)
    np.testing.assert_allclose(values(nn.KLDivLoss()(x, t)), -0.29295138, rtol=2e-6)
    with pytest.raises(ValueError, match="'reduction' must be str"):
        ops.KLDivLoss("avg")


@pytest.mark.parametrize("mode", MODES)
def test_kl_div_gradient_is_minus_labels_even_where_the_loss_is_zero(mode):
    def loss(a, b):
        return ops.KLDivLoss("sum")(a, b)

    # observed on MindSpore 2.10 CPU: [[-0 -1 0.5] [-0.3 1 -0.4]] for logits, zeros for labels
    gx, gt = grads_in(mode, loss, (0, 1), Tensor(KL_X), Tensor(KL_T))
    np.testing.assert_allclose(gx, [[0.0, -1.0, 0.5], [-0.3, 1.0, -0.4]], rtol=1e-6)
    assert gt == [[0.0] * 3] * 2


def test_kl_div_modes_agree_and_match_central_differences_where_labels_are_positive():
    check_modes(lambda a, b: ops.kl_div(a, b, "none"), Tensor(KL_X), Tensor(KL_T))
    labels = np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]])
    check_grad(lambda a, b: ops.kl_div(a, b, "none"), KL_X.astype(np.float64), labels, positions=[0])


# ---- BCE with logits: which inputs get a gradient -------------------------------------------------------------
BCE_X = np.array([[0.0, -1.5, 2.0], [0.5, 0.0, -0.3]], np.float32)
BCE_Y = np.array([[1.0, 0.0, 1.0], [0.3, 0.5, 0.0]], np.float32)


@pytest.mark.parametrize("mode", MODES)
def test_bce_with_logits_weights_get_no_gradient(mode):
    w, pw = Tensor(np.array([1.0, 2.0, 0.5], np.float32)), Tensor(np.array([2.0, 1.0, 3.0], np.float32))

    def loss(a, b, c, d):
        return ops.binary_cross_entropy_with_logits(a, b, c, d, "mean")

    gx, gy, gw, gpw = grads_in(mode, loss, (0, 1, 2, 3), Tensor(BCE_X), Tensor(BCE_Y), w, pw)
    # observed on MindSpore 2.10 CPU, both modes
    np.testing.assert_allclose(gx, [[-1.66666672e-01, 6.08084947e-02, -2.98007131e-02],
                                    [3.48661952e-02, 0.0, 3.54631394e-02]], rtol=2e-6, atol=1e-8)
    np.testing.assert_allclose(gy, [[1.15524501e-01, 5.0e-01, -1.45512030e-01],
                                    [-4.32053208e-03, 0.0, 1.67392477e-01]], rtol=2e-5, atol=1e-7)
    assert gw == [0.0, 0.0, 0.0] and gpw == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("mode", MODES)
def test_sigmoid_cross_entropy_with_logits_labels_get_no_gradient(mode):
    def loss(a, b):
        return ops.SigmoidCrossEntropyWithLogits()(a, b).sum()

    gx, gy = grads_in(mode, loss, (0, 1), Tensor(BCE_X), Tensor(BCE_Y))
    # observed on MindSpore 2.10 CPU: sigmoid(x) - y, and zeros for the labels
    np.testing.assert_allclose(gx, [[-0.5, 0.182425514, -0.119202971], [0.32245934, 0.0, 0.425557464]], rtol=2e-6)
    assert gy == [[0.0] * 3] * 2
