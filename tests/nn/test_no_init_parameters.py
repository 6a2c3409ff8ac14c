"""mslab.nn.utils.no_init_parameters and Cell.init_parameters_data, as observed on MindSpore 2.10 CPU
(docs/mindspore_observed/nnlayers.md): parameters built inside the block are drawn on first use."""
import numpy as np
import pytest

import mslab as ms
from mslab import nn
from mslab.common.initializer import Initializer
from mslab.common.tensor import Parameter, Tensor
from mslab.nn.utils import no_init_parameters
from mslab.testing import in_mode

X = Tensor(np.array([[1.0, 2.0]], np.float32))


class Counting(Initializer):
    """Fills with 0.5 and counts its draws, to see *when* a parameter is drawn."""

    calls = 0

    def _initialize(self, arr):
        Counting.calls += 1
        arr.fill(0.5)


def test_parameters_wait_until_the_cell_is_called():
    with no_init_parameters():
        assert Parameter.init_param is False
        net = nn.Dense(2, 3, weight_init="ones", bias_init="zeros")
        q = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="q")
    assert Parameter.init_param is True  # observed on MindSpore 2.10 CPU: these flags and shapes
    assert net.weight.has_init and net.bias.has_init and not q.has_init
    assert net.weight.shape == (3, 2) and net.weight.dtype == ms.float32
    assert repr(net.weight) == "Parameter (name=weight, shape=(3, 2), dtype=Float32, requires_grad=True)"
    assert net.weight.has_init  # printing its description drew nothing
    assert net(X).asnumpy().tolist() == [[3, 3, 3]]
    assert not net.weight.has_init and not net.bias.has_init
    assert type(net.weight) is Parameter


def test_draws_happen_at_first_use_in_parameter_order():
    Counting.calls = 0
    with no_init_parameters():
        net = nn.Dense(2, 3, weight_init=Counting(), bias_init=Counting())
    assert Counting.calls == 0
    assert net.bias.asnumpy().tolist() == [0.5] * 3 and Counting.calls == 1  # asnumpy draws that one
    out = net.init_parameters_data()
    assert Counting.calls == 2 and len(out) == 2 and all(k is v for k, v in out.items())
    assert net.init_parameters_data() and Counting.calls == 2  # drawn once


def test_loading_and_set_data():
    with no_init_parameters():
        net = nn.Dense(2, 3, weight_init=Counting(), bias_init=Counting())
    ms.load_param_into_net(net, {"weight": Parameter(Tensor(np.full((3, 2), 2.0, np.float32)), name="weight"),
                                 "bias": Parameter(Tensor(np.zeros(3, np.float32)), name="bias")})
    assert not net.weight.has_init
    assert net(X).asnumpy().tolist() == [[6, 6, 6]]  # observed on MindSpore 2.10 CPU
    Counting.calls = 0
    with no_init_parameters():
        p = Parameter(ms.common.initializer.initializer(Counting(), (2,)), name="p")
    p.set_data(Tensor(np.array([3.0, 4.0], np.float32)))
    assert Counting.calls == 0 and not p.has_init and p.asnumpy().tolist() == [3, 4]  # set_data draws nothing


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_training_with_the_optimizer_built_inside(mode):
    with no_init_parameters():
        net = nn.Dense(2, 3, weight_init="ones", bias_init="zeros")
        opt = nn.SGD(net.trainable_params(), 0.1)
    assert opt.parameters[0].has_init
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    with in_mode(mode):
        loss = step(X, Tensor(np.zeros((1, 3), np.float32)))
    assert float(loss) == 9.0
    # observed on MindSpore 2.10 CPU, both modes
    np.testing.assert_allclose(net.weight.asnumpy(), [[0.8, 0.6]] * 3, rtol=1e-6)
    np.testing.assert_allclose(net.bias.asnumpy(), [-0.2] * 3, rtol=1e-6)


def test_loading_a_checkpoint_into_undrawn_parameters_draws_nothing(tmp_path):
    """load_param_into_net checks dtypes without reading the numbers: an undrawn parameter is filled from the
    checkpoint and numpy's generator is left where it was (nothing is drawn only to be overwritten)."""
    net = nn.Dense(2, 3)
    path = str(tmp_path / "d.ckpt")
    ms.save_checkpoint(net, path)
    with no_init_parameters():
        lazy = nn.Dense(2, 3)
    np.random.seed(5)
    expected_next = np.random.rand()
    np.random.seed(5)
    ms.load_param_into_net(lazy, ms.load_checkpoint(path))
    assert np.random.rand() == expected_next
    np.testing.assert_array_equal(lazy.weight.asnumpy(), net.weight.asnumpy())
