"""Course programs (issue 19) that must run on mslab and print MindSpore's numbers: logistic regression trained by
``Model.train`` with a loss Cell built on ``P.SigmoidCrossEntropyWithLogits``; K-means with
``P.UnsortedSegmentSum`` / ``P.Argmin`` / ``P.Assign``; KNN with ``P.TopK`` / ``P.Tile``; PCA with ``P.TopK`` /
``P.Gather``, each in a Cell, in both modes.

Each expected value was printed by the same program on MindSpore 2.10 CPU (docs/mindspore_observed/behave.md).
"""
import numpy as np
import pytest

import mslab as ms
import mslab.dataset as ds
from mslab import Model, Parameter, Tensor, nn
from mslab.ops import operations as P
from mslab.train.callback import Callback

MODES = [ms.PYNATIVE_MODE, ms.GRAPH_MODE]


@pytest.fixture(params=MODES, ids=["pynative", "graph"])
def mode(request):
    ms.set_context(mode=request.param)
    yield request.param
    ms.set_context(mode=ms.PYNATIVE_MODE)


class _SigmoidLoss(nn.Cell):
    def __init__(self):
        super().__init__()
        self.sigmoid_cross_entropy_with_logits = P.SigmoidCrossEntropyWithLogits()
        self.reduce_mean = P.ReduceMean(keep_dims=False)

    def construct(self, x, y):
        return self.reduce_mean(self.sigmoid_cross_entropy_with_logits(x, y), -1)


class _Losses(Callback):
    def __init__(self):
        self.seen = []

    def step_end(self, run_context):
        cb = run_context.original_args()
        self.seen.append((cb.cur_epoch_num, cb.cur_step_num, cb.net_outputs.asnumpy()))


def test_model_train_with_a_sigmoid_cross_entropy_loss_cell(mode):
    rng = np.random.RandomState(0)
    x = rng.randn(16, 2).astype(np.float32)
    y = (x[:, :1] + x[:, 1:] > 0).astype(np.float32)
    net = nn.Dense(2, 1, weight_init="zeros", bias_init="zeros")
    losses = _Losses()
    data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(8)
    Model(net, _SigmoidLoss(), nn.SGD(net.trainable_params(), learning_rate=0.5)).train(
        3, data, callbacks=[losses], dataset_sink_mode=False)
    # observed on MindSpore 2.10 CPU (both modes), rounded to 5 places
    assert [(e, s) for e, s, _ in losses.seen] == [(1, 1), (1, 2), (2, 3), (2, 4), (3, 5), (3, 6)]
    np.testing.assert_allclose(losses.seen[0][2], [0.69315] * 8, atol=1e-5)
    np.testing.assert_allclose(losses.seen[1][2], [0.01288, 1.87992, 0.16507, 0.06138, 0.0114, 2.03809, 0.00244,
                                                   0.06987], atol=1e-5)
    np.testing.assert_allclose(losses.seen[5][2], [0.02098, 0.80422, 0.03877, 0.18777, 0.03579, 1.17923, 0.00104,
                                                   0.12298], atol=1e-5)
    np.testing.assert_allclose(net.weight.asnumpy(), [[2.20755, 1.97115]], atol=1e-5)
    np.testing.assert_allclose(net.bias.asnumpy(), [0.57288], atol=1e-5)
    np.testing.assert_allclose(net(Tensor(x[:4])).asnumpy(), [[5.25588], [7.15064], [2.76924], [2.3719]], atol=1e-4)


def _kmeans_points():
    rng = np.random.RandomState(1)
    return np.concatenate([rng.randn(6, 2), rng.randn(6, 2) + [5, 5], rng.randn(6, 2) + [0, 6]]).astype(np.float32)


class _KMeansStep(nn.Cell):
    """One Lloyd step: assign each point to its nearest centre (Argmin), move each centre to the mean of its
    points (UnsortedSegmentSum), write the centres back (Assign)."""

    def __init__(self, init_centers, k):
        super().__init__()
        self.k = k
        self.centers = Parameter(Tensor(init_centers), name="centers")
        self.expand, self.sub, self.square = P.ExpandDims(), P.Sub(), P.Square()
        self.reduce_sum = P.ReduceSum(keep_dims=False)
        self.argmin = P.Argmin(axis=1)
        self.segment_sum = P.UnsortedSegmentSum()
        self.ones_like, self.div, self.maximum, self.assign = P.OnesLike(), P.RealDiv(), P.Maximum(), P.Assign()

    def construct(self, x):
        dist = self.reduce_sum(self.square(self.sub(self.expand(x, 1), self.expand(self.centers, 0))), 2)
        idx = self.argmin(dist)
        sums = self.segment_sum(x, idx, self.k)
        counts = self.segment_sum(self.ones_like(x), idx, self.k)
        self.assign(self.centers, self.div(sums, self.maximum(counts, 1.0)))
        return idx, dist.min(axis=1).sum()


def test_kmeans_with_unsorted_segment_sum_argmin_assign(mode):
    if not hasattr(P, "UnsortedSegmentSum"):
        pytest.skip("P.UnsortedSegmentSum is added on another branch of issue 19 (opsmore)")
    pts = _kmeans_points()
    step = _KMeansStep(pts[[0, 1, 2]].copy(), 3)
    got = []
    for _ in range(4):
        idx, inertia = step(Tensor(pts))
        assert str(idx.dtype) == "Int32"
        got.append((idx.asnumpy().tolist(), float(inertia.asnumpy())))
    # observed on MindSpore 2.10 CPU (both modes)
    first = [0, 1, 2, 0, 1, 2] + [0] * 12
    later = [2, 1, 2, 2, 1, 2] + [0] * 12
    assert [g[0] for g in got] == [first, later, later, later]
    np.testing.assert_allclose([g[1] for g in got], [525.3489, 112.3862, 100.9941, 100.9941], rtol=1e-5)
    np.testing.assert_allclose(step.centers.asnumpy(), [[2.4118, 5.2937], [-0.1046, -0.6612], [1.4242, -1.4337]],
                               atol=1e-4)


class _KnnNet(nn.Cell):
    def __init__(self, k):
        super().__init__()
        self.tile, self.sum, self.topk, self.k = P.Tile(), P.ReduceSum(), P.TopK(), k

    def construct(self, x, train):
        x = self.tile(x, (train.shape[0], 1))
        dist = P.Sqrt()(self.sum(P.Square()(x - train), 1))
        return self.topk(-dist, self.k)


def test_knn_with_topk_and_tile(mode):
    rng = np.random.RandomState(2)
    train_x = np.concatenate([rng.randn(5, 3), rng.randn(5, 3) + 3]).astype(np.float32)
    train_y = np.array([0] * 5 + [1] * 5, np.int32)
    test_x = np.concatenate([rng.randn(3, 3), rng.randn(3, 3) + 3]).astype(np.float32)
    net = _KnnNet(3)
    rows = []
    for i in range(len(test_x)):
        values, indices = net(Tensor(test_x[i:i + 1]), Tensor(train_x))
        assert str(indices.dtype) == "Int32"
        vote = int(np.bincount(train_y[indices.asnumpy()]).argmax())
        rows.append((-values.asnumpy(), indices.asnumpy().tolist(), vote))
    # observed on MindSpore 2.10 CPU (both modes)
    assert [r[1] for r in rows] == [[0, 2, 4], [3, 4, 9], [4, 2, 1], [5, 8, 7], [5, 6, 8], [8, 7, 6]]
    assert [r[2] for r in rows] == [0, 0, 0, 1, 1, 1]
    np.testing.assert_allclose([r[0] for r in rows], [[2.3118, 3.8182, 4.4898], [1.3951, 1.7011, 2.5612],
                                                      [0.7599, 1.1314, 1.7046], [1.2434, 1.6634, 1.9774],
                                                      [2.1834, 3.1182, 3.2622], [1.0901, 1.1103, 1.1791]], atol=1e-4)


class _PCA(nn.Cell):
    def __init__(self, k):
        super().__init__()
        self.topk, self.gather, self.transpose, self.matmul, self.k = \
            P.TopK(sorted=True), P.Gather(), P.Transpose(), P.MatMul(), k

    def construct(self, x, vals, vecs):
        top_vals, top_idx = self.topk(vals, self.k)
        comps = self.gather(vecs, top_idx, 1)  # the columns of the top eigenvectors
        return top_vals, top_idx, self.transpose(comps, (1, 0)), self.matmul(x, comps)


def test_pca_with_topk_and_gather(mode):
    rng = np.random.RandomState(3)
    mix = np.array([[2, 0, 0, 0], [1, 1, 0, 0], [0, 0, 0.5, 0], [0, 0, 0, 0.1]])
    data = (rng.randn(10, 4) @ mix).astype(np.float32)
    data = data - data.mean(axis=0)
    eigvals, eigvecs = np.linalg.eigh((data.T @ data / (len(data) - 1)).astype(np.float32))
    eigvecs = eigvecs * np.sign(eigvecs[np.abs(eigvecs).argmax(axis=0), range(4)])
    vals, idx, comps, proj = _PCA(2)(Tensor(data), Tensor(eigvals.astype(np.float32)),
                                     Tensor(eigvecs.astype(np.float32)))
    # observed on MindSpore 2.10 CPU (both modes)
    assert idx.asnumpy().tolist() == [3, 2] and str(idx.dtype) == "Int32"
    np.testing.assert_allclose(vals.asnumpy(), [7.47, 0.2344], atol=1e-4)
    np.testing.assert_allclose(comps.asnumpy(), [[0.9603, 0.2749, -0.0468, -0.0074],
                                                 [-0.2511, 0.9255, 0.2694, 0.0887]], atol=1e-4)
    np.testing.assert_allclose(proj.asnumpy(), [[4.9965, -0.6066], [0.0543, -0.116], [0.3794, -0.4684],
                                                [4.8263, 0.7142], [-1.9569, -0.6459], [-1.5421, 0.6593],
                                                [-1.8386, 0.1167], [-0.7568, 0.3495], [-2.1197, 0.0731],
                                                [-2.0423, -0.0758]], atol=1e-4)
