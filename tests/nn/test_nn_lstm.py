"""nn.LSTM against MindSpore 2.10 CPU (same deterministic weights and inputs; docs/mindspore_observed/
api_additions.md section 7): outputs, final states, parameter names and order; GRAPH == PYNATIVE; gradients."""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, nn
from mslab.testing import check_grad, check_modes


def fill(lstm, modulus, scale):
    """MindSpore's test weights: (arange % modulus - modulus // 2) * scale, shaped like each parameter."""
    for p in lstm.get_parameters():
        n = int(np.prod(p.shape))
        p.set_data(Tensor((np.arange(n, dtype=np.float32).reshape(p.shape) % modulus - modulus // 2) * scale))


def test_one_layer_batch_first():
    lstm = nn.LSTM(2, 3, num_layers=1, has_bias=True, batch_first=True)
    assert [(p.name, p.shape) for p in lstm.get_parameters()] == [
        ("weight_ih_l0", (12, 2)), ("weight_hh_l0", (12, 3)), ("bias_ih_l0", (12,)), ("bias_hh_l0", (12,))]
    fill(lstm, 7, 0.1)
    x = Tensor((np.arange(16, dtype=np.float32).reshape(2, 4, 2) % 5 - 2) / 4)
    out, (h, c) = lstm(x)
    assert out.shape == (2, 4, 3) and h.shape == (1, 2, 3) and c.shape == (1, 2, 3)
    np.testing.assert_allclose(out.asnumpy()[:, 0], [[0.06792061, -0.07497304, -0.08253995],
                                                     [0.09934469, -0.12098111, -0.10010641]], rtol=2e-6, atol=1e-7)
    np.testing.assert_allclose(h.asnumpy()[0], [[0.14397505, -0.18043712, -0.22551994],
                                                [0.14766255, -0.22627082, -0.22458056]], rtol=2e-6)
    np.testing.assert_allclose(c.asnumpy()[0], [[0.30973, -0.40187126, -0.42007157],
                                                [0.3242325, -0.4232865, -0.43706855]], rtol=2e-6)


def test_two_layers_bidirectional_with_initial_state():
    lstm = nn.LSTM(2, 3, num_layers=2, bidirectional=True)
    names = [p.name for p in lstm.get_parameters()]
    assert names[:4] == ["weight_ih_l0", "weight_ih_l0_reverse", "weight_ih_l1", "weight_ih_l1_reverse"]
    assert names[4::4] == ["weight_hh_l0", "bias_ih_l0", "bias_hh_l0"] and len(names) == 16
    assert lstm.weight_ih_l1.shape == (12, 6)
    fill(lstm, 5, 0.125)
    x = Tensor((np.arange(12, dtype=np.float32).reshape(3, 2, 2) % 5 - 2) / 3)
    hx = (Tensor(np.full((4, 2, 3), 0.1, np.float32)), Tensor(np.full((4, 2, 3), -0.2, np.float32)))
    out, (h, c) = lstm(x, hx)
    assert out.shape == (3, 2, 6) and h.shape == (4, 2, 3)
    np.testing.assert_allclose(out.asnumpy()[0, 0], [-0.1281573, -0.04068105, 0.01693358, -0.14483665, 0.00059869,
                                                     0.06384624], rtol=3e-6, atol=1e-7)
    np.testing.assert_allclose(out.asnumpy()[2, 1], [-0.13560879, 0.00443199, 0.06050739, -0.11884612, -0.03651646,
                                                     0.01359611], rtol=3e-6, atol=1e-7)
    np.testing.assert_allclose(h.asnumpy()[:2, 0], [[-0.13500501, 0.00139523, 0.05190731],
                                                    [-0.14616491, -0.00315278, 0.07558466]], rtol=3e-6, atol=1e-7)
    np.testing.assert_allclose(c.asnumpy()[1:3, 1], [[-0.23029917, -0.1029314, 0.16230229],
                                                     [-0.22381097, 0.01145908, 0.14106533]], rtol=3e-6, atol=1e-7)


@pytest.mark.parametrize("bidirectional", [False, True])
def test_lstm_modes_and_gradients(bidirectional):
    lstm = nn.LSTM(2, 2, num_layers=2, batch_first=True, bidirectional=bidirectional, dtype=ms.float64)
    x = np.random.default_rng(0).standard_normal((2, 3, 2))
    flat = lambda x: (lambda out, hc: (out, hc[0], hc[1]))(*lstm(x))  # noqa: E731 - output, h_n, c_n
    check_modes(flat, Tensor(x))
    check_grad(flat, x, rtol=1e-4)


def test_lstm_errors():
    with pytest.raises(ValueError, match=r"\(seq_len, batch, 2\)"):
        nn.LSTM(2, 3)(Tensor(np.ones((3, 4, 5), np.float32)))
    with pytest.raises(ValueError, match="hidden_size"):
        nn.LSTM(2, 0)
