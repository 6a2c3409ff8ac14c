"""The engine's speed-ups keep results exact: generated executor code, compile-time folding and kernels,
bprops that skip unwanted gradients, branch-free masks and the non-overlapping MaxPoolGrad path."""
import numpy as np
import pytest
from conftest import LinearNet

import mslab as ms
from mslab import nn, ops
from mslab.common.initializer import Normal
from mslab.common.tensor import Tensor
from mslab.ops import conv_kernels as K
from mslab.ops.unary_ops import keep_where
from mslab.runtime.executor import Executor


class SmallConvNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 3, 3, pad_mode="valid", weight_init=Normal(0.1), has_bias=False)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(3 * 3 * 3, 4, Normal(0.1), Normal(0.1))

    def construct(self, x):
        return self.fc(self.flatten(self.pool(self.relu(self.conv(x)))))


def _linear_step():
    net = LinearNet()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.005, 0.9))
    x = Tensor(np.linspace(-1, 1, 16, dtype=np.float32).reshape(16, 1))
    return train, x, 2 * x + 3


def _conv_step():
    net = SmallConvNet()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal((4, 1, 8, 8), dtype=np.float32))
    y = Tensor(rng.integers(0, 4, 4).astype(np.int32))
    return train, x, y


def test_generated_code_has_a_line_per_scheduled_node_and_folds_constant_chains():
    train, x, y = _linear_step()
    ex = Executor(ms.trace(train, x, y))
    calls = [line for line in ex.code.splitlines() if " = k" in line]
    assert len(calls) == len(ex.schedule)
    assert [line.split("# ")[1].split(" = ")[1] for line in calls] == [s[-1].op for s in ex.schedule]
    # sens (Fill) and what the mean's gradient makes of it are computed once, at compile time
    assert [n.op for n in ex.folded] == ["Fill", "RealDiv", "Reshape", "BroadcastTo"]


def test_folded_outputs_are_copies():
    @ms.jit
    def f(x):
        return ops.depend(ops.fill(ms.float32, (2,), 1.0), x)

    a = f(Tensor(np.zeros(2, np.float32)))
    a.asnumpy()[:] = 7
    np.testing.assert_array_equal(f(Tensor(np.zeros(2, np.float32))).asnumpy(), [1.0, 1.0])


@pytest.mark.parametrize("make", [_linear_step, _conv_step])
def test_training_steps_are_bit_identical_in_both_modes(make):
    losses = {}
    for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
        ms.set_context(mode=mode)
        ms.set_seed(3)
        train, x, y = make()
        losses[mode] = [train(x, y).asnumpy() for _ in range(4)]
        losses[mode].append([p.asnumpy() for p in train.trainable_params()])
    for a, b in zip(losses[ms.GRAPH_MODE], losses[ms.PYNATIVE_MODE]):
        for u, v in zip(a if isinstance(a, list) else [a], b if isinstance(b, list) else [b]):
            assert u.tobytes() == v.tobytes()


def test_weight_gradients_skip_the_image_gradient():
    train, x, y = _conv_step()
    with ms.record() as tape:
        train(x, y)
    ops_run = [n.op for n in tape.graph.nodes]
    assert "Conv2DBackpropFilter" in ops_run
    assert "Conv2DBackpropInput" not in ops_run  # the image batch needs no gradient


def test_input_gradient_still_flows_when_asked():
    net = SmallConvNet()
    x = Tensor(np.random.default_rng(1).standard_normal((4, 1, 8, 8), dtype=np.float32))
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        g = ops.GradOperation()(net)(x)
        assert g.shape == (4, 1, 8, 8) and np.abs(g.asnumpy()).sum() > 0


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int32, np.int64, np.int8, np.bool_])
def test_keep_where_is_np_where_bit_for_bit(dtype):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((5, 7)) * 3).astype(dtype)
    mask = rng.standard_normal((5, 7)) > 0
    if x.dtype.kind == "f":
        x[0, 0], mask[0, 0] = -0.0, True
        x[0, 1], mask[0, 1] = np.nan, True
        x[0, 2], mask[0, 2] = np.nan, False
    for m, v in ((mask, x), (mask.T, x.T), (mask[0, 0], x[0, 0])):
        got, want = keep_where(np.asarray(m), np.asarray(v)), np.where(m, v, np.zeros((), v.dtype))
        assert got.dtype == want.dtype and got.shape == want.shape and got.tobytes() == want.tobytes()


@pytest.mark.parametrize("shape,kernel,stride", [((2, 3, 8, 8), (2, 2), (2, 2)), ((2, 3, 9, 7), (2, 2), (2, 2)),
                                                 ((1, 2, 10, 10), (2, 3), (3, 3)), ((2, 2, 6, 6), (3, 3), (2, 2))])
def test_max_pool_grad_routes_to_the_first_maximum(shape, kernel, stride):
    rng = np.random.default_rng(0)
    x = np.maximum(rng.standard_normal(shape).astype(np.float32), 0)  # ReLU output: many tied zeros
    pads, out_hw = K.window_geometry(shape, kernel, stride, (1, 1), "valid", (0, 0, 0, 0))
    out = K.max_pool(x, kernel, stride, pads, out_hw)
    dout = rng.standard_normal(out.shape).astype(np.float32)
    want = np.zeros_like(x)
    for sl, route in K._routes(x, out, kernel, stride, pads, out_hw):
        want[sl] += np.where(route, dout, 0)
    np.testing.assert_array_equal(K.max_pool_grad(x, out, dout, kernel, stride, pads, out_hw), want)
