"""P.LayerNorm and P.BatchNorm / ops.BatchNorm (issue 19): MindSpore's tuple outputs, moving-statistic update and
gradients, as observed on MindSpore 2.10 CPU (docs/mindspore_observed/opsthree.md); central differences and
GRAPH == PYNATIVE."""
import numpy as np
import pytest

from mslab import ops
from mslab.common.tensor import Parameter, Tensor
from mslab.ops import norm_layer_ops
from mslab.ops import operations as P
from mslab.testing import check_grad, check_modes

X = np.array([[1.0, 2.0, 4.0], [2.0, 6.0, 7.0]], np.float32)
G = np.array([1.0, 0.5, 2.0], np.float32)
B = np.array([0.0, 1.0, -1.0], np.float32)
XB = np.array([[[[1.0, 2.0], [3.0, 4.0]], [[2.0, 0.0], [1.0, 5.0]]],
               [[[0.0, 1.0], [2.0, 2.0]], [[3.0, 3.0], [1.0, 0.0]]]], np.float32)
SCALE, BIAS = np.array([1.0, 2.0], np.float32), np.array([0.0, 0.5], np.float32)
MM, MV = np.array([0.5, -1.0], np.float32), np.array([2.0, 0.5], np.float32)
W4 = Tensor(np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2))


def close(t, expected, rtol=1e-5):
    np.testing.assert_allclose(t.asnumpy(), expected, rtol=rtol, atol=1e-6)


def test_layer_norm_matches_mindspore():
    y, mean, var = P.LayerNorm()(Tensor(X), Tensor(G), Tensor(B))
    # observed on MindSpore 2.10 CPU
    close(y, [[-1.0690448, 0.8663694, 1.6726124], [-1.3887302, 1.2314551, 0.8516402]])
    assert mean.shape == var.shape == (2, 1)
    close(mean, [[2.3333333], [5.0]])
    close(var, [[1.5555556], [4.6666665]])
    x3 = Tensor(np.arange(12, dtype=np.float32).reshape(2, 2, 3) ** 1.5)
    ones, zeros = Tensor(np.ones((2, 3), np.float32)), Tensor(np.zeros((2, 3), np.float32))
    y, mean, var = P.LayerNorm(1, 1, 1e-5)(x3, ones, zeros)
    close(y, [[[-1.1977904, -0.9429858, -0.4770943], [0.126213, 0.8406461, 1.6510112]],
              [[-1.4035429, -0.8905931, -0.3395624], [0.2470786, 0.8672863, 1.5193336]]])
    assert mean.shape == (2, 1, 1)
    close(mean.reshape(-1), [4.70082, 25.158377])
    close(var.reshape(-1), [15.402292, 55.55605])
    _, mean, var = P.LayerNorm(-1, -1)(x3, Tensor(np.ones(3, np.float32)), Tensor(np.zeros(3, np.float32)))
    assert mean.shape == (2, 2, 1)
    close(mean.reshape(-1), [1.2761424, 8.125498, 18.614872, 31.701883])
    close(var.reshape(-1), [1.3714606, 5.9762907, 10.486556, 14.990606])
    w = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    gx, gg, gb = ops.grad(lambda a, c, d: (P.LayerNorm()(a, c, d)[0] * w).sum(), (0, 1, 2))(
        Tensor(X), Tensor(G), Tensor(B))
    close(gx, [[0.2863512, -0.429527, 0.1431758], [0.3637152, -1.8185754, 1.4548602]])
    close(gg, [-4.1661906, 1.5843791, 7.301713])
    close(gb, [3.0, 5.0, 7.0])


def test_layer_norm_gradient_and_modes():
    rng = np.random.default_rng(0)
    x, g, b = rng.standard_normal((2, 3, 4)), rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    check_grad(lambda a, c, d: P.LayerNorm(1, 1, 1e-5)(a, c, d), x, g, b)
    check_modes(lambda a, c, d: P.LayerNorm(-1, -1)(a, c[0], d[0]), *(Tensor(v.astype(np.float32)) for v in (x, g, b)))


def test_batch_norm_inference_matches_mindspore():
    outs = P.BatchNorm()(Tensor(XB), Tensor(SCALE), Tensor(BIAS), Tensor(MM), Tensor(MV))
    # observed on MindSpore 2.10 CPU: y, then four zero (C,) tensors
    assert [o.shape for o in outs] == [(2, 2, 2, 2), (2,), (2,), (2,), (2,)]
    close(outs[0], [[[[0.3535525, 1.0606575], [1.7677624, 2.4748673]], [[8.985196, 3.3283987], [6.1567974, 17.470392]]],
                    [[[-0.3535525, 0.3535525], [1.0606575, 1.0606575]],
                     [[11.813595, 11.813595], [6.1567974, 3.3283987]]]])
    assert all(o.asnumpy().tolist() == [0.0, 0.0] for o in outs[1:])
    gx, gs, gb = ops.grad(lambda a, s, c: (P.BatchNorm()(a, s, c, Tensor(MM), Tensor(MV))[0] * W4).sum(), (0, 1, 2))(
        Tensor(XB), Tensor(SCALE), Tensor(BIAS))
    close(gx, [[[[0.0, 0.707104981], [1.41420996, 2.121315]], [[11.3135948, 14.1419935], [16.9703922, 19.79879]]],
               [[[5.65683985, 6.36394501], [7.07104969, 7.77815485]],
                [[33.9407845, 36.7691841], [39.59758, 42.4259796]]]])
    close(gs, [34.6481438, 302.638672])
    close(gb, [44.0, 76.0])


def test_batch_norm_training_matches_mindspore():
    mm, mv = Parameter(Tensor(MM), name="mm"), Parameter(Tensor(MV), name="mv")
    outs = ops.BatchNorm(is_training=True, epsilon=1e-3, momentum=0.2)(Tensor(XB), Tensor(SCALE), Tensor(BIAS), mm, mv)
    # observed on MindSpore 2.10 CPU: outputs 1 and 2 are zeros, 3 and 4 the batch mean and biased variance;
    # momentum weighs the new statistic: 0.8 * 0.5 + 0.2 * 1.875 = 0.775
    close(outs[0], [[[[-0.7502028, 0.1071718], [0.9645465, 1.8219211]],
                     [[0.654735, -1.8210249], [-0.583145, 4.368375]]],
                    [[[-1.6075776, -0.7502028], [0.1071718, 0.1071718]],
                     [[1.892615, 1.892615], [-0.583145, -1.8210249]]]])
    assert outs[1].asnumpy().tolist() == outs[2].asnumpy().tolist() == [0.0, 0.0]
    close(outs[3], [1.875, 1.875])
    close(outs[4], [1.359375, 2.609375])
    close(mm, [0.775, -0.425])
    close(mv, [1.9107144, 0.9964286])
    gx, gs, gb = ops.grad(lambda a, s, c: (P.BatchNorm(is_training=True)(a, s, c, mm, mv)[0] * W4).sum(), (0, 1, 2))(
        Tensor(XB), Tensor(SCALE), Tensor(BIAS))
    close(gx, [[[[-5.51087904, -3.74621916], [-1.98155963, -0.216900319]],
                [[-6.77626944, -6.07195044], [-4.5669384, -2.26123118]]],
               [[[0.44364351, 2.20830297], [3.97296262, 4.83064938]],
                [[3.39554691, 4.63366175], [5.33798027, 6.3091979]]]], rtol=1e-4)
    close(gs, [-9.86339951, -2.7857585], rtol=1e-4)
    close(gb, [44.0, 76.0])


@pytest.mark.parametrize("training", [False, True])
def test_batch_norm_gradient_and_modes(training):
    rng = np.random.default_rng(1)
    x, s, b = rng.standard_normal((3, 2, 2, 2)), rng.standard_normal(2), rng.standard_normal(2)

    def f(a, c, d):
        stats = Parameter(Tensor(np.zeros(2)), name="m"), Parameter(Tensor(np.ones(2)), name="v")
        return P.BatchNorm(training)(a, c, d, *stats)[0]
    check_grad(f, x, s, b)
    check_modes(lambda a, c, d: P.BatchNorm(training)(a, c, d, Tensor(MM), Tensor(MV))[0],
                *(Tensor(v.astype(np.float32)) for v in (x, s, b)))


def test_errors_match_mindspore():
    # observed on MindSpore 2.10 CPU: a ValueError for mismatched gamma/beta; momentum=1.5 is accepted
    with pytest.raises(ValueError, match="gamma or beta shape must match input shape"):
        P.LayerNorm()(Tensor(X), Tensor(G[:2]), Tensor(B))
    assert P.BatchNorm(momentum=1.5).momentum == 1.5


def test_every_norm_layer_name_is_tested():
    source = open(__file__).read().split("def test_every_norm")[0]
    assert all(f"P.{n}" in source for n in norm_layer_ops.__all__)
