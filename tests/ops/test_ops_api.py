"""The newer ``mindspore.ops`` API (max, sum, where, chunk, bmm, full, cumsum, topk, sort, norm, arange,
linspace, softplus, cross_entropy, mse_loss, binary_cross_entropy_with_logits, mixed_precision_cast) with
MindSpore's numbers, and the primitives behind it (Argsort, GatherD, CumSum, Softplus, Erf): gradients
against central differences (both modes) and GRAPH == PYNATIVE.

Every expected number below was observed on MindSpore 2.10 CPU (docs/mindspore_observed/fidelity.md
sections 4, 10 and 11; the checks noted beside a test are in api_additions.md sections 3 and 6)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import mslab as ms
from mslab import nn, ops
from mslab.common import dtype as mstype
from mslab.common.tensor import Tensor
from mslab.ops import cumulative_ops, sort_ops, special_ops
from mslab.ops import functional as F
from mslab.ops.primitive import Primitive
from mslab.testing import check_grad, check_modes

SETTINGS = settings(max_examples=10, deadline=None)
shapes1 = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)


def T(values, dtype=np.float32):
    return Tensor(np.array(values, dtype))


def distinct(seed, shape):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    return ((rng.permutation(n) - n / 2) * 0.5 + rng.uniform(0, 0.25, n)).reshape(shape)


X = T([[1, 5, 3], [4, 2, 6]])
V = T([3, 1, 4, 1, 5, 9, 2])


# ---- MindSpore's numbers (observed on MindSpore 2.10 CPU) ----------------------------------------------
def test_max_sum_where_chunk_bmm_full():
    value, index = ops.max(X)                                  # no axis: the index is 0, not the flat 5
    assert float(value) == 6.0 and int(index) == 0 and index.dtype == ms.int64 and index.shape == ()
    value, index = ops.max(X, axis=1)
    assert value.asnumpy().tolist() == [5, 6] and index.asnumpy().tolist() == [1, 2] and index.dtype == ms.int64
    value, index = ops.max(X, 1, keepdims=True)
    assert value.shape == (2, 1) and index.asnumpy().tolist() == [[1], [2]]
    assert float(ops.sum(X)) == 21.0 and ops.sum(X, dim=0).asnumpy().tolist() == [5, 7, 9]
    assert ops.sum(X, 1, keepdim=True).asnumpy().tolist() == [[9], [12]]
    assert ops.where(X > 2, X, 0.0).asnumpy().tolist() == [[0, 5, 3], [4, 0, 6]]
    with pytest.raises(TypeError, match="missing 2 required positional arguments: 'input' and 'other'"):
        ops.where(X > 2)
    a, b = ops.chunk(X, 2, axis=1)
    assert a.asnumpy().tolist() == [[1, 5], [4, 2]] and b.asnumpy().tolist() == [[3], [6]]
    assert [c.shape for c in ops.chunk(Tensor(np.arange(5, dtype=np.float32)), 2)] == [(3,), (2,)]
    out = ops.bmm(Tensor(np.arange(12, dtype=np.float32).reshape(2, 2, 3)), Tensor(np.ones((2, 3, 1), np.float32)))
    assert out.asnumpy().ravel().tolist() == [3, 12, 21, 30] and out.shape == (2, 2, 1)
    full = ops.full((2, 2), 7)
    assert full.dtype == ms.int64 and full.asnumpy().tolist() == [[7, 7], [7, 7]]
    half = ops.full((2,), 0.5)                                 # dtype None is Int64: 0.5 becomes 0
    assert half.dtype == ms.int64 and half.asnumpy().tolist() == [0, 0]
    three = ops.full((2,), 3, dtype=ms.float32)
    assert three.dtype == ms.float32 and three.asnumpy().tolist() == [3.0, 3.0]


def test_cumsum_topk_sort():
    assert ops.cumsum(X, axis=1).asnumpy().tolist() == [[1, 6, 9], [4, 6, 12]]
    assert ops.cumsum(X, 0).asnumpy().tolist() == [[1, 5, 3], [5, 7, 9]]
    c = ops.cumsum(T([3, 1, 2], np.int32), 0)                  # checked on MindSpore 2.10 CPU: [3 4 6] Int32
    assert c.dtype == ms.int32 and c.asnumpy().tolist() == [3, 4, 6]
    cases = [(ops.topk(V, 3), [9, 5, 4], [5, 4, 2]),
             (ops.topk(V, 2, largest=False), [1, 1], [1, 3]),
             (ops.topk(X, 2, dim=1), [[5, 3], [6, 4]], [[1, 2], [2, 0]]),
             (ops.sort(V), [1, 1, 2, 3, 4, 5, 9], [1, 3, 6, 0, 2, 4, 5]),
             (ops.sort(V, descending=True), [9, 5, 4, 3, 2, 1, 1], [5, 4, 2, 0, 6, 1, 3])]
    for (values, indices), want_v, want_i in cases:
        assert values.dtype == ms.float32 and indices.dtype == ms.int32
        assert values.asnumpy().tolist() == want_v and indices.asnumpy().tolist() == want_i
    values, indices = ops.sort(T([3, 1, 2], np.int32))         # checked on MindSpore 2.10 CPU
    assert values.dtype == ms.int32 and values.asnumpy().tolist() == [1, 2, 3]
    assert indices.asnumpy().tolist() == [1, 2, 0]
    argsort = ops.argsort(T([3.0, 1, 2]))                       # checked on MindSpore 2.10 CPU: [1 2 0] Int32
    assert argsort.dtype == ms.int32 and argsort.asnumpy().tolist() == [1, 2, 0]


def test_norm_arange_linspace():
    np.testing.assert_allclose(float(ops.norm(X)), 9.539392, rtol=1e-6)
    assert float(ops.norm(X, 1)) == 9.0                        # a matrix norm: the largest column sum
    np.testing.assert_allclose(ops.norm(X, dim=1).asnumpy(), [5.91608, 7.483315], rtol=1e-6)
    xx = T([[1, -5, 3], [4, 2, -6]])                           # checked on MindSpore 2.10 CPU
    assert ops.norm(xx, float("inf"), dim=1).asnumpy().tolist() == [5, 6]
    assert float(ops.norm(xx, float("inf"))) == 12.0
    np.testing.assert_allclose(ops.norm(xx, 3, dim=1).asnumpy(), [5.3484817, 6.6038547], rtol=1e-6)
    assert ops.norm(xx, 0, dim=1).asnumpy().tolist() == [3, 3]
    np.testing.assert_allclose(float(ops.norm(xx, "fro")), 9.539392, rtol=1e-6)
    r = ops.arange(5)
    assert r.dtype == ms.int64 and r.asnumpy().tolist() == [0, 1, 2, 3, 4]
    r = ops.arange(0, 1, 0.25)
    assert r.dtype == ms.float32 and r.asnumpy().tolist() == [0, 0.25, 0.5, 0.75]
    r = ops.arange(1.0, 4)
    assert r.dtype == ms.float32 and r.asnumpy().tolist() == [1, 2, 3]
    r = ops.linspace(0, 1, 5)
    assert r.dtype == ms.float32 and r.asnumpy().tolist() == [0, 0.25, 0.5, 0.75, 1]


def test_softplus_and_losses():
    np.testing.assert_allclose(ops.softplus(T([-2.0, 0.0, 2.0, 30.0])).asnumpy(),
                               [0.12692794, 0.693147, 2.126928, 30.0], rtol=1e-6)
    np.testing.assert_allclose(ops.softplus(T([-1.0, 0.0, 5.0, 11.0]), beta=2, threshold=20).asnumpy(),
                               [0.06346397, 0.3465735, 5.000022, 11.0], rtol=1e-6)  # checked on MindSpore 2.10 CPU
    logits = T([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]])
    tgt = T([0, 1], np.int32)
    close = lambda got, want: np.testing.assert_allclose(np.asarray(got.asnumpy()), want, rtol=2e-6)  # noqa: E731
    close(ops.cross_entropy(logits, tgt), 0.3185395)
    close(ops.cross_entropy(logits, tgt, reduction="none"), [0.41702962, 0.22004938])
    close(ops.cross_entropy(logits, tgt, label_smoothing=0.1), 0.43687284)
    close(ops.cross_entropy(logits, T([[1.0, 0.0, 0.0], [0.0, 0.5, 0.5]])), 0.8685395)
    close(ops.mse_loss(T([1.0, 2.0, 3.0]), T([1.5, 2.0, 5.0])), 1.4166666)
    close(ops.mse_loss(T([1.0, 2.0, 3.0]), T([1.5, 2.0, 5.0]), reduction="sum"), 4.25)
    z, zl = T([0.0, 2.0, -1.0]), T([1.0, 0.0, 1.0])
    close(ops.binary_cross_entropy_with_logits(z, zl), 1.377779)
    close(ops.binary_cross_entropy_with_logits(z, zl, T([1.0, 1.0, 1.0]), T([2.0, 2.0, 2.0])), 2.046582)


def test_cross_entropy_weights_ignore_index_and_spatial_targets():
    """Checked on MindSpore 2.10 CPU with nn.CrossEntropyLoss / nn.NLLLoss (which call these ops)."""
    logits = T([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3], [1.0, 1.0, 1.0]])
    tgt, w = T([0, 1, 2], np.int32), T([1.0, 2.0, 0.5])
    close = lambda got, want: np.testing.assert_allclose(got.asnumpy(), want, rtol=5e-6)  # noqa: E731
    close(ops.cross_entropy(logits, tgt, w), 0.40183845)
    close(ops.cross_entropy(logits, tgt, w, label_smoothing=0.2), 0.5524216)
    close(ops.cross_entropy(logits, tgt, ignore_index=1), 0.75782096)
    close(ops.cross_entropy(logits, tgt, w, 1, "sum", 0.2), 1.323385)
    close(ops.cross_entropy(logits, tgt, w, 1, "none", 0.2), [0.62759733, 0.0, 0.6957878])
    close(ops.nll_loss(ops.log_softmax(logits, 1), tgt, w, 1), 0.64422184)
    close(ops.cross_entropy(logits, T([[1.0, 0, 0], [0, 0.5, 0.5], [0.2, 0.3, 0.5]]), w, label_smoothing=0.2),
          0.90827847)
    x4 = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10)
    close(ops.cross_entropy(x4, T([[0, 1, 2, 1], [2, 2, 0, 1]], np.int32)), 1.10125)


def test_mixed_precision_cast():
    """Checked on MindSpore 2.10 CPU: floats are cast, ints are left alone, a tuple stays a tuple."""
    half, ints = T([1.5, 2.5], np.float16), T([1, 2], np.int32)
    r = F.mixed_precision_cast(ms.float32, half)
    assert r.dtype == ms.float32 and r.asnumpy().tolist() == [1.5, 2.5]
    assert F.mixed_precision_cast(ms.float32, ints).dtype == ms.int32
    r = F.mixed_precision_cast(ms.float16, (T([1.5]), ints))
    assert isinstance(r, tuple) and [t.dtype for t in r] == [ms.float16, ms.int32]


def test_tensor_methods():
    """Observed on MindSpore 2.10 CPU (fidelity.md section 3)."""
    x = T([[1, 2, 3], [4, 5, 6]])
    assert float(x.prod()) == 720.0 and x.prod(1).asnumpy().tolist() == [6, 120]
    assert x.prod(dim=1).asnumpy().tolist() == [6, 120]
    with pytest.raises(TypeError, match="prod"):
        x.prod(axis=1)
    np.testing.assert_allclose(float(x.std()), 1.7078252, rtol=1e-6)
    np.testing.assert_allclose(float(x.var()), 2.9166667, rtol=1e-6)
    assert x.std(axis=0).asnumpy().tolist() == [1.5, 1.5, 1.5]
    assert x.var(axis=1, ddof=1).asnumpy().tolist() == [1.0, 1.0]
    assert x.swapaxes(0, 1).asnumpy().tolist() == [[1, 4], [2, 5], [3, 6]]
    assert x.unsqueeze(0).shape == (1, 2, 3)
    assert x.nelement() == 6 and isinstance(x.nelement(), int)
    with pytest.warns(DeprecationWarning):
        assert ms.dtype_to_nptype(ms.float32) is np.float32


# ---- the primitives: gradients and GRAPH == PYNATIVE ----------------------------------------------------
@SETTINGS
@given(data=st.data(), shape=shapes1, seed=st.integers(0, 2**31 - 1), descending=st.booleans())
def test_sort_and_topk(data, shape, seed, descending):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    x = distinct(seed, shape)
    values, index = check_modes(lambda x: ops.sort(x, axis, descending), Tensor(x.astype(np.float32)))
    want = np.sort(x.astype(np.float32), axis)
    np.testing.assert_array_equal(values, np.flip(want, axis) if descending else want)
    assert index.dtype == np.int32
    check_grad(lambda x: ops.sort(x, axis, descending)[0], x)
    k = data.draw(st.integers(0, shape[axis]))
    check_modes(lambda x: ops.topk(x, k, axis, descending), Tensor(x.astype(np.float32)))
    check_grad(lambda x: ops.topk(x, k, axis, descending)[0], x)


def test_argsort_and_gather_d():
    x = np.array([[3.0, 1.0, 2.0], [0.5, 0.5, -1.0]])
    (index,) = check_modes(lambda x: ops.Argsort(1, True)(x), Tensor(x))
    assert index.tolist() == [[0, 2, 1], [0, 1, 2]]            # ties keep their order, also descending
    picks = np.array([[2, 2, 0], [1, 0, 1]], np.int32)
    (out,) = check_modes(lambda x, i: ops.GatherD()(x, 1, i), Tensor(x), Tensor(picks))
    np.testing.assert_array_equal(out, np.take_along_axis(x, picks, 1))
    check_grad(lambda x: ops.GatherD()(x, 1, Tensor(picks)), x)      # a repeated index sums its gradients
    check_grad(lambda x: ops.gather_d(x, 0, Tensor(np.array([[1, 0, 1]], np.int32))), x)
    with pytest.raises(Exception, match=r"the value of .index. must be in \[-3, 3\)"):
        ops.gather_d(Tensor(x), 1, Tensor(np.array([[3, 0, 0], [0, 0, 0]], np.int32)))


@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_cumsum_primitive(exclusive, reverse, axis):
    x = np.random.default_rng(0).uniform(-2, 2, (2, 3, 4))
    (out,) = check_modes(lambda x: ops.CumSum(exclusive, reverse)(x, axis), Tensor(x))
    v = np.flip(x, axis) if reverse else x
    want = np.cumsum(v, axis) - (v if exclusive else 0)
    np.testing.assert_allclose(out, np.flip(want, axis) if reverse else want)
    check_grad(lambda x: ops.CumSum(exclusive, reverse)(x, axis), x)


@pytest.mark.parametrize("fn", [ops.softplus, lambda x: ops.softplus(x, 2, 3), ops.erf, ops.Softplus(), ops.Erf()])
def test_softplus_erf_grad_and_modes(fn):
    x = np.array([[-30.0, -2.0, 0.0], [0.5, 1.7, 40.0]])
    check_grad(fn, x)
    for dtype in (np.float16, np.float32, np.float64):
        check_modes(fn, Tensor(x.astype(dtype)))
    g = ops.GradOperation()(lambda x: ops.softplus(x))(T([0.0, 100.0])).asnumpy()
    assert g.tolist() == [0.5, 1.0]                             # sigmoid(x): exact at 0, no overflow at 100


def test_composed_ops_grad_and_modes():
    x = np.array([[1.0, -5.0, 3.0], [4.0, 2.0, -6.0]])
    t = np.array([[0.5, -4.0, 3.5], [4.0, 1.0, -6.3]])
    for fn in (lambda x: ops.norm(x), lambda x: ops.norm(x, 3, dim=1), lambda x: ops.norm(x, 1),
               lambda x: ops.std(x, 1), lambda x: ops.var(x, None, 1), lambda x: ops.max(x, 1)[0],
               lambda x: ops.where(Tensor(np.array([True, False, True])), x, 0.0),
               lambda x: ops.chunk(x, 2, 1)[1], lambda x: ops.cross_entropy(x, Tensor(np.array([0, 2], np.int32))),
               lambda x: ops.binary_cross_entropy_with_logits(x, Tensor(t > 0).astype(ms.float64)),
               lambda x: ops.smooth_l1_loss(x, Tensor(t)), lambda x: ops.huber_loss(x, Tensor(t), "sum", 0.5)):
        check_grad(fn, x)
        check_modes(fn, Tensor(x.astype(np.float32)))


def test_class_forms():
    """ops.TopK / ops.Sort / P.SmoothL1Loss / P.SigmoidCrossEntropyWithLogits (observed on MindSpore 2.10 CPU)."""
    values, index = ops.TopK()(V, 3)
    assert values.asnumpy().tolist() == [9, 5, 4] and index.dtype == ms.int32 and index.asnumpy().tolist() == [5, 4, 2]
    values, index = ops.Sort(axis=0, descending=True)(X)
    assert values.asnumpy().tolist() == [[4, 5, 6], [1, 2, 3]] and index.asnumpy().tolist() == [[1, 0, 1], [0, 1, 0]]
    p, t = T([0.0, 1.0, 3.0]), T([0.5, 3.0, 3.2])
    np.testing.assert_allclose(ops.SmoothL1Loss()(p, t).asnumpy(), [0.125, 1.5, 0.02000001], rtol=1e-6)
    np.testing.assert_allclose(ops.SmoothL1Loss(beta=0.5)(p, t).asnumpy(), [0.25, 1.75, 0.04000002], rtol=1e-6)
    np.testing.assert_allclose(ops.SmoothL1Loss(reduction="sum")(p, t).asnumpy(), 1.645, rtol=1e-6)
    out = ops.SigmoidCrossEntropyWithLogits()(T([[0.0, 2.0, -1.0]]), T([[1.0, 0.0, 1.0]]))
    np.testing.assert_allclose(out.asnumpy(), [[0.6931472, 2.126928, 1.3132617]], rtol=1e-6)


def test_every_new_primitive_is_tested():
    primitives = {n for m in (sort_ops, cumulative_ops, special_ops) for n in m.__all__
                  if n[0].isupper() and isinstance(getattr(m, n), type) and issubclass(getattr(m, n), Primitive)}
    # CumProd is tested in ops/test_cumprod.py, TopKIndices in ops/test_observed_ties_orders_values.py
    assert primitives == {"Argsort", "GatherD", "TopKIndices", "CumSum", "CumProd", "Softplus", "Erf"}


class SeedWithEvalCell(nn.Cell):
    """Seed 003 [9]'s WithEvalCell, as printed there (plus the ``self.add_cast_fp32`` assignment it leaves out)."""

    def __init__(self, network, loss_fn, add_cast_fp32=False):
        super(SeedWithEvalCell, self).__init__(auto_prefix=False)
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = add_cast_fp32

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:
            label = F.mixed_precision_cast(mstype.float32, label)
            outputs = F.cast(outputs, mstype.float32)
        loss = self._loss_fn(outputs, label)
        return loss, outputs, label


class RowSum(nn.Cell):
    """A float16 network stand-in: each row's sum, in the input's dtype."""

    def construct(self, x):
        return x.sum(1, True)


def test_seed003_with_eval_cell_mixed_precision_cast():
    eval_net = SeedWithEvalCell(RowSum(), nn.MSELoss(), True)
    eval_net.set_train(False)
    data, label = T([[1.0, 2.0], [3.0, -1.0]], np.float16), T([[2.0], [2.5]], np.float16)
    loss, outputs, label32 = check_modes(lambda d, y: eval_net(d, y), data, label)
    assert outputs.dtype == np.float32 and label32.dtype == np.float32
    assert outputs.tolist() == [[3.0], [2.0]] and float(loss) == 0.625
