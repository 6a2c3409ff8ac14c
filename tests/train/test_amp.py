"""Issue #19: amp.build_train_network at O0-O3 on CPU. Observed on MindSpore 2.10 CPU
(docs/mindspore_observed/fwthree.md)."""
import numpy as np
import pytest

import mslab as ms
from mslab import amp, nn

W = np.array([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]], np.float32)


def _train(level, steps=3, **kwargs):
    np.random.seed(0)
    x = ms.Tensor(np.random.randn(4, 3).astype(np.float32))
    y = ms.Tensor(np.random.randn(4, 2).astype(np.float32))
    net = nn.Dense(3, 2, weight_init=ms.Tensor(W), bias_init="zeros")
    step = amp.build_train_network(net, nn.Momentum(net.trainable_params(), 0.1, 0.9), nn.MSELoss(), level=level,
                                   **kwargs)
    assert type(step).__name__ == "TrainOneStepCell"  # observed at every level
    return [float(step(x, y).asnumpy()) for _ in range(steps)], net.weight.asnumpy()


def test_o0_is_plain_float32_training():
    losses, weight = _train("O0")
    # observed on MindSpore 2.10 CPU
    np.testing.assert_allclose(losses, [0.95650923, 0.5260337, 0.22776249], rtol=1e-6)
    np.testing.assert_allclose(weight, [[0.49119898676872253, -0.06615900248289108, 0.18685699999332428],
                                        [-0.15084099769592285, 0.09113399684429169, -0.39772799611091614]], rtol=1e-5)


@pytest.mark.parametrize("level, expected, rtol", [
    # observed on MindSpore 2.10 CPU (loss_scale_manager=None). MindSpore's O1 (its rewritten "DenseOpt")
    # drifts from its own O2 by 7e-4 at the third step; mslab's O1 follows O2 there (not chased further).
    ("O1", [0.95624965, 0.52606857, 0.22769122], 1e-3),
    ("O2", [0.95624965, 0.5259297, 0.2278874], 2e-4),
    ("O3", [0.95624965, 0.5259297, 0.2278874], 2e-4),
])
def test_float16_levels(level, expected, rtol):
    losses, _ = _train(level, loss_scale_manager=None)
    # the first loss (float16 forward) matches to float32 rounding; later steps follow float16 gradients, whose
    # rounding differs from MindSpore's CPU kernels in the last float16 bits
    np.testing.assert_allclose(losses[0], expected[0], rtol=1e-6)
    np.testing.assert_allclose(losses, expected, rtol=rtol)


def test_fixed_loss_scale_needs_the_optimizer_to_divide_it_out():
    losses, weight = _train("O2", loss_scale_manager=ms.FixedLossScaleManager(128.0, drop_overflow_update=False))
    # observed on MindSpore 2.10 CPU: 0.95624965 1482.2665 3115473.2, weights inf/nan (the optimizer's
    # loss_scale stayed 1, so each step was 128 times too large)
    np.testing.assert_allclose(losses, [0.95624965, 1482.2665, 3115473.2], rtol=5e-4)
    assert not np.isfinite(weight).any()


@pytest.mark.parametrize("kwargs, kind, message", [
    # observed on MindSpore 2.10 CPU, each in its own process
    ({"level": "O9"}, ValueError, "The 'level' should be in : ['O0', 'O1', 'O2', 'O3', 'auto'], but got O9."),
    ({"level": 2}, TypeError,
     "The argument `level` must be a string in ['O0', 'O1', 'O2', 'O3', 'auto'],but got type <class 'int'>."),
    ({"level": "O2"}, ValueError, "Only `loss_scale_manager=None` or `loss_scale_manager=FixedLossScaleManager("
                                  "drop_overflow_update=False)`are supported on device `CPU`. "),
    ({"loss_scale_manager": "fixed-dropping"}, ValueError, "Only `loss_scale_manager=None` or "
     "`loss_scale_manager=FixedLossScaleManager(drop_overflow_update=False)`are supported on device `CPU`. "),
    ({"foo": 1}, ValueError, "Unsupported arg 'foo'"),
    ({"optimizer": 3}, TypeError, "The type of 'optimizer' should be one of '['Optimizer', 'FreezeOpt', "
                                  "'AdaSumByGradWrapCell', 'AdaSumByDeltaWeightWrapCell']', but got type 'int'."),
])
def test_build_train_network_errors(kwargs, kind, message):
    net = nn.Dense(3, 2)
    optimizer = kwargs.pop("optimizer", nn.SGD(net.trainable_params()))
    if kwargs.get("loss_scale_manager") == "fixed-dropping":
        kwargs["loss_scale_manager"] = ms.FixedLossScaleManager(128.0)  # drop_overflow_update=True by default
    with pytest.raises(kind) as err:
        amp.build_train_network(net, optimizer, nn.MSELoss(), **kwargs)
    assert str(err.value) == message


def test_auto_mixed_precision_o1_converts_a_white_list_cell_on_its_own():
    np.random.seed(0)
    x = ms.Tensor(np.random.randn(4, 3).astype(np.float32))
    net = amp.auto_mixed_precision(nn.Dense(3, 2, weight_init=ms.Tensor(W), bias_init="zeros"), "O1")
    out = net(x)
    # observed on MindSpore 2.10 CPU: Float32 output with float16 values
    assert out.dtype == ms.float32
    np.testing.assert_array_equal(out.asnumpy(), np.array([[0.389892578125, 0.318115234375],
                                                           [-0.442626953125, 2.416015625],
                                                           [0.09429931640625, 0.3662109375],
                                                           [0.448486328125, -0.63623046875]], np.float32))
