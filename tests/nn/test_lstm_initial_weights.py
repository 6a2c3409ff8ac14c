"""nn.LSTM starts from MindSpore's own initial weights.

Observed on MindSpore 2.10 CPU (docs/mindspore_observed/behave.md).
"""
import numpy as np

from mslab import nn


def test_lstm_weights_are_mindspores_numbers():
    np.random.seed(0)
    lstm = nn.LSTM(2, 3, num_layers=2, bidirectional=True)
    got = {p.name: p.asnumpy() for p in lstm.get_parameters()}
    # observed on MindSpore 2.10 CPU after np.random.seed(0): its LSTM draws from np.random.uniform directly
    assert list(got) == ["weight_ih_l0", "weight_ih_l0_reverse", "weight_ih_l1", "weight_ih_l1_reverse",
                         "weight_hh_l0", "weight_hh_l0_reverse", "weight_hh_l1", "weight_hh_l1_reverse",
                         "bias_ih_l0", "bias_ih_l0_reverse", "bias_ih_l1", "bias_ih_l1_reverse",
                         "bias_hh_l0", "bias_hh_l0_reverse", "bias_hh_l1", "bias_hh_l1_reverse"]
    np.testing.assert_allclose(got["weight_ih_l0"].ravel()[:3], [0.056365, 0.248479, 0.118661], atol=1e-6)
    np.testing.assert_allclose(got["weight_hh_l1_reverse"].ravel()[:3], [0.296502, 0.15711, -0.300199], atol=1e-6)
    np.testing.assert_allclose(got["bias_hh_l1_reverse"].ravel()[:3], [0.547624, 0.566202, -0.105015], atol=1e-6)
    np.testing.assert_allclose([got[n].sum() for n in ("weight_ih_l1", "bias_ih_l1_reverse")], [-3.60227, -3.73734],
                               atol=1e-5)
    assert np.random.rand(2).round(6).tolist() == [0.246063, 0.665859]
