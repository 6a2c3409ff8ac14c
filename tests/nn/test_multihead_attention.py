"""nn.MultiheadAttention (issue 19) against numbers observed on MindSpore 2.10 CPU
(docs/mindspore_observed/nnlayers.md)."""
import numpy as np
import pytest

import mslab as ms
from mslab import nn
from mslab.common.tensor import Tensor
from mslab.testing import check_grad, check_modes

Q = Tensor(np.sin(np.arange(3 * 2 * 4, dtype=np.float32)).reshape(3, 2, 4))
K = Tensor(np.cos(np.arange(5 * 2 * 4, dtype=np.float32)).reshape(5, 2, 4))
TOL = dict(rtol=1e-5, atol=1e-6)


def _mha(**kwargs):
    m = nn.MultiheadAttention(4, 2, **kwargs)
    for i, p in enumerate(m.get_parameters()):
        p.set_data(Tensor(np.cos(np.arange(np.prod(p.shape), dtype=np.float32) * 0.3 + i).reshape(p.shape) / 2))
    return m


def test_parameters_outputs_and_weights():
    m = _mha()
    assert [(p.name, p.shape) for p in m.get_parameters()] == [  # observed on MindSpore 2.10 CPU
        ("in_proj_weight", (12, 4)), ("in_proj_bias", (12,)), ("out_proj.weight", (4, 4)), ("out_proj.bias", (4,))]
    assert repr(m) == "MultiheadAttention(\n  (out_proj): Dense(input_channels=4, output_channels=4, has_bias=True)\n)"
    out, w = m(Q, K, K)
    assert out.shape == (3, 2, 4) and w.shape == (2, 3, 5)
    np.testing.assert_allclose(out.asnumpy()[1], [[-0.05188647, 0.18622327, -0.39870912, -1.0069327],
                                                  [-0.15780738, 0.01671022, -0.41563693, -0.8496876]], **TOL)
    np.testing.assert_allclose(w.asnumpy()[0], [[0.14390546, 0.15538639, 0.32943323, 0.24549983, 0.12577504],
                                                [0.19242837, 0.13015476, 0.23217624, 0.29278332, 0.15245725],
                                                [0.23795706, 0.20507267, 0.13342312, 0.1741257, 0.24942145]], **TOL)
    r = m(Q, K, K, need_weights=False)  # MindSpore 2.10 returns a 1-tuple here
    assert isinstance(r, tuple) and len(r) == 1 and r[0].shape == (3, 2, 4)
    assert m(Q, K, K, average_attn_weights=False)[1].shape == (2, 2, 3, 5)
    check_modes(m, Q, K, K)


def test_masks_and_gradients():
    m = _mha()
    mask = Tensor(np.array([[False, False, True, False, True], [False, True, False, False, False]]))
    out, w = m(Q, K, K, key_padding_mask=mask)  # observed on MindSpore 2.10 CPU
    np.testing.assert_allclose(out.asnumpy()[2], [[0.005768, 0.25012237, -0.41005495, -1.0790544],
                                                  [-0.20782113, -0.03867364, -0.40576077, -0.7871463]], **TOL)
    np.testing.assert_allclose(w.asnumpy()[1], [[0.19342367, 0, 0.36652142, 0.23889814, 0.20115681],
                                                [0.29317647, 0, 0.16893986, 0.27963087, 0.2582528],
                                                [0.33674586, 0, 0.11189574, 0.2084921, 0.34286633]], **TOL)
    causal = Tensor(np.triu(np.ones((3, 5), np.bool_), 1))
    np.testing.assert_allclose(m(Q, K, K, attn_mask=causal)[0].asnumpy()[0],
                               [[-0.02050507, 0.38801044, -0.28385222, -1.1254814],
                                [-0.41387874, -0.21739647, -0.3292264, -0.5529577]], **TOL)
    gq, gk = ms.grad(lambda a, b: (m(a, b, b)[0] ** 2).sum(), (0, 1))(Q, K)
    np.testing.assert_allclose(gq.asnumpy()[0], [[-0.10257848, -0.07423331, -0.03925704, -0.00077414],
                                                 [-0.14116026, -0.10544234, -0.06030549, -0.00978184]], **TOL)
    np.testing.assert_allclose(gk.asnumpy()[0], [[-0.3362554, -0.399414, -0.42689452, -0.4162412],
                                                 [-0.26750565, -0.33732885, -0.37701973, -0.38303214]], **TOL)
    m64 = _mha(dtype=ms.float64)
    check_grad(lambda a, b: m64(a, b, b, attn_mask=causal)[0], Q.asnumpy(), K.asnumpy())
    check_modes(lambda a, b: m(a, b, b, key_padding_mask=mask), Q, K)


def test_batch_first_unbatched_and_errors():
    mb = nn.MultiheadAttention(4, 2, batch_first=True, has_bias=False)
    assert [(p.name, p.shape) for p in mb.get_parameters()] == [("in_proj_weight", (12, 4)),
                                                                ("out_proj.weight", (4, 4))]
    m, mf = _mha(), _mha(batch_first=True)
    out, w = mf(Tensor(Q.asnumpy().swapaxes(0, 1)), Tensor(K.asnumpy().swapaxes(0, 1)),
                Tensor(K.asnumpy().swapaxes(0, 1)))
    ref, ref_w = m(Q, K, K)
    np.testing.assert_allclose(out.asnumpy(), ref.asnumpy().swapaxes(0, 1), rtol=1e-6)
    one, one_w = m(Tensor(Q.asnumpy()[:, 0]), Tensor(K.asnumpy()[:, 0]), Tensor(K.asnumpy()[:, 0]))
    np.testing.assert_allclose(one.asnumpy(), ref.asnumpy()[:, 0], rtol=1e-5)
    assert one_w.shape == (3, 5)
    with pytest.raises(ValueError, match="The init argument 'embed_dim' must be divisible by 'num_heads'."):
        nn.MultiheadAttention(5, 2)
