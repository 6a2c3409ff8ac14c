"""GRAPH mode's kernel fusion (mslab.fast.fusion): MaxPoolGrad with the ReluGrad after it, BatchNormGrad with
BatchNormScaleGrad, Conv2DBackpropInput with Conv2DBackpropFilter. A fused line must give the unfused nodes'
results bit for bit (PYNATIVE runs them one by one), and fuse only where nothing else reads the intermediate
value."""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, fast, nn, ops
from mslab.ops import conv_kernels as K
from mslab.ops.batch_norm_ops import BatchNormGrad, BatchNormScaleGrad
from mslab.ops.conv_ops import Conv2DBackpropFilter, Conv2DBackpropInput
from mslab.ops.pool_ops import MaxPoolGrad
from mslab.ops.unary_ops import ReluGrad
from mslab.runtime.executor import Executor
from mslab.testing import check_modes

pytestmark = pytest.mark.skipif(not fast.enabled(), reason="the speed layer is off (MSLAB_PLAIN)")


def nasty(shape, seed, dtype=np.float32):
    """Small integers (ties in most windows), some NaN, some -0.0."""
    rng = np.random.default_rng(seed)
    x = rng.integers(-2, 3, shape).astype(dtype)
    x[rng.random(shape) < 0.1] = np.nan
    x[(x == 0) & (rng.random(shape) < 0.5)] = -0.0
    return x


def tap_loop(x, out, dout):
    """MaxPoolGrad for 2x2 windows at stride 2 by the general kernel-position loop."""
    want = np.zeros_like(x)
    for sl, route in K._routes(x, out, (2, 2), (2, 2), (0,) * 4, out.shape[2:]):
        want[sl] = np.where(route, dout, 0)
    return want


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("seed", range(6))
def test_the_2x2_path_routes_to_the_first_hit_bit_for_bit(seed, dtype):
    rng = np.random.default_rng(seed)
    x = nasty((2, 3, 6, 8), seed, dtype)
    out = K.max_pool(x, (2, 2), (2, 2), (0,) * 4, (3, 4))
    if seed % 2:
        out = nasty(out.shape, seed + 10, dtype)  # not the window maxima: windows with no hit, or several
    dout = nasty(out.shape, seed + 20, dtype) * rng.standard_normal(out.shape).astype(dtype)
    got = K.max_pool_grad(x, out, dout, (2, 2), (2, 2), (0,) * 4, (3, 4))
    assert got.tobytes() == tap_loop(x, out, dout).tobytes()


def pool_then_relu_grad(x, out, dout):
    return ReluGrad()(MaxPoolGrad(2, 2)(x, out, dout), x)


def code_of(fn, *args):
    return Executor(ms.trace(ms.jit(fn), *args)).code


@pytest.mark.parametrize("seed", range(4))
def test_max_pool_grad_and_relu_grad_fuse_bit_for_bit(seed):
    x = nasty((2, 3, 6, 8), seed)
    out = K.max_pool(x, (2, 2), (2, 2), (0,) * 4, (3, 4))
    if seed % 2:
        out = nasty(out.shape, seed + 10)
    args = [Tensor(a) for a in (x, out, nasty(out.shape, seed + 20))]
    assert "MaxPoolGrad, " in code_of(pool_then_relu_grad, *args)
    eager, = check_modes(pool_then_relu_grad, *args)
    graph = ms.jit(pool_then_relu_grad)(*args).asnumpy()
    assert graph.tobytes() == eager.tobytes()  # signed zeros too


def test_no_fusion_where_the_pooled_gradient_is_read_again_or_windows_overlap():
    x = Tensor(nasty((2, 3, 6, 8), 0))
    out = Tensor(K.max_pool(x.asnumpy(), (2, 2), (2, 2), (0,) * 4, (3, 4)))
    d = Tensor(nasty((2, 3, 3, 4), 1))

    def both(x, out, dout):
        g = MaxPoolGrad(2, 2)(x, out, dout)
        return ReluGrad()(g, x), g

    def other_mask(x, out, dout):  # ReluGrad of another tensor than the pooled one
        return ReluGrad()(MaxPoolGrad(2, 2)(x, out, dout), x * 2)

    for fn in (both, other_mask):
        assert "MaxPoolGrad, " not in code_of(fn, x, out, d)
        check_modes(fn, x, out, d)
    xo = Tensor(nasty((2, 3, 7, 7), 2))
    out3 = Tensor(K.max_pool(xo.asnumpy(), (3, 3), (2, 2), (0,) * 4, (3, 3)))

    def overlapping(x, out, dout):
        return ReluGrad()(MaxPoolGrad(3, 2)(x, out, dout), x)

    assert "MaxPoolGrad, " not in code_of(overlapping, xo, out3, Tensor(nasty((2, 3, 3, 3), 3)))


def test_batch_norm_grad_and_scale_grad_fuse_bit_for_bit():
    rng = np.random.default_rng(0)
    args = [Tensor(rng.standard_normal(s).astype(np.float32)) for s in ((4, 3, 5, 5), (4, 3, 5, 5), (3,))]

    def grads(dout, x, scale):
        return BatchNormGrad(1e-5)(dout, x, scale), BatchNormScaleGrad(1e-5)(dout, x)

    def other_eps(dout, x, scale):
        return BatchNormGrad(1e-5)(dout, x, scale), BatchNormScaleGrad(1e-3)(dout, x)

    assert "BatchNormGrad, " in code_of(grads, *args)
    assert "BatchNormGrad, " not in code_of(other_eps, *args)
    for fn in (grads, other_eps):
        eager = check_modes(fn, *args)
        graph = [t.asnumpy() for t in ms.jit(fn)(*args)]
        assert [a.tobytes() for a in graph] == [a.tobytes() for a in eager]


@pytest.mark.parametrize("channels, stride, pad_mode", [((2, 5), 1, "valid"), ((3, 2), 1, "same"), ((2, 5), 2, "same")])
def test_conv_input_and_filter_grads_fuse_bit_for_bit(channels, stride, pad_mode):
    """With more filters than channels (col2im), fewer (dX a convolution of its own) and stride 2: the fused line
    (dout rearranged once per chunk for both GEMMs) gives the two nodes' results; another dout is not fused."""
    (C, O), rng = channels, np.random.default_rng(stride)
    x, w = rng.standard_normal((3, C, 9, 8)).astype(np.float32), rng.standard_normal((O, C, 3, 3)).astype(np.float32)
    attrs = dict(pad_mode=pad_mode, stride=stride)
    dout = Tensor(rng.standard_normal(tuple(ops.conv2d(Tensor(x), Tensor(w), **attrs).shape)).astype(np.float32))

    def grads(dout, w, x):
        return (Conv2DBackpropInput(O, 3, **attrs)(dout, w, x.shape),
                Conv2DBackpropFilter(O, 3, **attrs)(dout, x, w.shape))

    def other_dout(dout, w, x):
        return (Conv2DBackpropInput(O, 3, **attrs)(dout, w, x.shape),
                Conv2DBackpropFilter(O, 3, **attrs)(dout * 2, x, w.shape))

    def x_made_after(dout, w, x):  # the fused line would stand where the filter gradient's x does not exist yet
        dx = Conv2DBackpropInput(O, 3, **attrs)(dout, w, x.shape)
        return dx, Conv2DBackpropFilter(O, 3, **attrs)(dout, x * 2, w.shape)

    args = (dout, Tensor(w), Tensor(x))
    assert "= Conv2DBackpropInput, " in code_of(grads, *args)
    assert "= Conv2DBackpropInput, " not in code_of(other_dout, *args)
    assert "= Conv2DBackpropInput, " not in code_of(x_made_after, *args)
    for fn in (grads, other_dout, x_made_after):
        eager = check_modes(fn, *args)
        graph = [t.asnumpy() for t in ms.jit(fn)(*args)]
        assert [a.tobytes() for a in graph] == [a.tobytes() for a in eager]


class BlockNet(nn.Cell):
    """conv -> BatchNorm -> ReLU -> MaxPool, as the benchmark CNN's blocks."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, pad_mode="same", has_bias=False)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.fc = nn.Dense(4 * 3 * 3, 3)

    def construct(self, x):
        return self.fc(ops.flatten(self.pool(self.relu(self.bn(self.conv(x))))))


def test_a_training_step_with_fused_lines_is_bit_identical_in_both_modes():
    rng = np.random.default_rng(0)
    x, y = Tensor(rng.standard_normal((4, 2, 6, 6), dtype=np.float32)), Tensor(rng.integers(0, 3, 4).astype(np.int32))
    results = {}
    for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
        ms.set_context(mode=mode)
        ms.set_seed(1)
        net = BlockNet()
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
        train.set_train()
        if mode == ms.GRAPH_MODE:
            code = Executor(ms.trace(train, x, y)).code
            assert "= MaxPoolGrad, " in code and "= BatchNormGrad, " in code
        results[mode] = [train(x, y).asnumpy().tobytes() for _ in range(3)]
        results[mode] += [p.asnumpy().tobytes() for p in net.get_parameters()]
    ms.set_context(mode=ms.PYNATIVE_MODE)
    assert results[ms.GRAPH_MODE] == results[ms.PYNATIVE_MODE]


def test_no_fusion_across_an_in_place_write():
    """BatchNormScaleGrad after an Assign to x must read the new x: its work may not move before the write."""
    rng = np.random.default_rng(2)
    x = ms.Parameter(Tensor(rng.standard_normal((4, 3, 2, 2)).astype(np.float32)), name="x")
    dout, scale = Tensor(rng.standard_normal((4, 3, 2, 2)).astype(np.float32)), Tensor(np.ones(3, np.float32))

    def fn(dout, scale):
        dx = BatchNormGrad(1e-5)(dout, x, scale)
        written = ops.assign(x, x * 2)
        return dx, ops.depend(BatchNormScaleGrad(1e-5)(dout, x), written)

    code = code_of(fn, dout, scale)
    assert "BatchNormGrad, " not in code and "= Assign" in code
    x.set_data(Tensor(rng.standard_normal((4, 3, 2, 2)).astype(np.float32)))
    start = x.asnumpy().copy()
    graph = [t.asnumpy() for t in ms.jit(fn)(dout, scale)]
    x.set_data(Tensor(start))
    eager = [t.asnumpy() for t in fn(dout, scale)]
    assert [a.tobytes() for a in graph] == [a.tobytes() for a in eager]
