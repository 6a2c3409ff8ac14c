"""Conv2d(group > 1), Conv1d, LayerNorm and Embedding: MindSpore's numbers, parameter names and reprs
(observed on MindSpore 2.10 CPU with the same inputs: docs/mindspore_observed/api_additions.md
section 1), GRAPH == PYNATIVE, gradients."""
import numpy as np
import pytest

from mslab import Tensor, nn, ops
from mslab.testing import check_grad, check_modes


def with_weights(layer, names):
    """``fn(x, *weights)``: ``layer(x)`` with the named Parameters replaced (to differentiate them too)."""
    initial = [getattr(layer, n).asnumpy().astype(np.float64) for n in names]

    def fn(x, *ws):
        for n, w in zip(names, ws):
            setattr(layer, n, w)
        return layer(x)
    return fn, initial


def test_grouped_conv2d_as_mindspore():
    w = np.arange(8, dtype=np.float32).reshape(2, 1, 2, 2)
    conv = nn.Conv2d(2, 2, 2, group=2, weight_init=Tensor(w), has_bias=False, pad_mode="valid")
    x = Tensor(np.arange(18, dtype=np.float32).reshape(1, 2, 3, 3))
    assert conv(x).asnumpy().tolist() == [[[[19, 25], [37, 43]], [[249, 271], [315, 337]]]]
    assert conv.weight.shape == (2, 1, 2, 2) and [p.name for p in conv.get_parameters()] == ["weight"]


@pytest.mark.parametrize("group, pad_mode", [(2, "same"), (3, "pad"), (6, "valid")])
def test_grouped_conv2d_matches_per_group_convolutions(group, pad_mode):
    rng = np.random.default_rng(group)
    conv = nn.Conv2d(6, 6, 3, pad_mode=pad_mode, padding=1 if pad_mode == "pad" else 0, group=group, has_bias=True)
    x = rng.standard_normal((2, 6, 5, 5))
    out = conv(Tensor(x.astype(np.float32))).asnumpy()
    w = conv.weight.asnumpy()
    k = 6 // group
    parts = [ops.conv2d(Tensor(x[:, i * k:(i + 1) * k].astype(np.float32)), Tensor(w[i * k:(i + 1) * k]),
                        pad_mode=pad_mode, padding=1 if pad_mode == "pad" else 0).asnumpy() for i in range(group)]
    want = np.concatenate(parts, 1) + conv.bias.asnumpy()[:, None, None]
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)
    check_modes(lambda x: conv(x), Tensor(x.astype(np.float32)))
    fn, ws = with_weights(conv, ["weight", "bias"])  # last: it leaves the layer holding other tensors
    check_grad(fn, x[:1, :, :4, :4], *ws, rtol=1e-4, atol=1e-6)


def test_grouped_conv2d_errors():
    with pytest.raises(ValueError, match="divisible by group"):
        nn.Conv2d(3, 4, 3, group=2)
    with pytest.raises(ValueError, match="groups=2"):
        ops.conv2d(Tensor(np.ones((1, 4, 3, 3), np.float32)), Tensor(np.ones((2, 4, 1, 1), np.float32)), groups=2)


def test_conv1d_as_mindspore():
    conv = nn.Conv1d(2, 3, 2, weight_init="ones", has_bias=True, bias_init="zeros")
    assert conv.weight.shape == (3, 2, 1, 2) and [p.name for p in conv.get_parameters()] == ["weight", "bias"]
    x = Tensor(np.arange(8, dtype=np.float32).reshape(1, 2, 4))
    assert conv(x).asnumpy().tolist() == [[[10, 14, 18, 10], [10, 14, 18, 10], [10, 14, 18, 10]]]
    valid = nn.Conv1d(2, 3, 2, pad_mode="valid", weight_init="ones")
    assert valid(x).asnumpy().tolist() == [[[10, 14, 18], [10, 14, 18], [10, 14, 18]]]
    assert "kernel_size=(1, 2), stride=(1, 1), pad_mode=same, padding=(0, 0, 0, 0), dilation=(1, 1)" in repr(conv)


def test_conv1d_gradients_and_modes():
    conv = nn.Conv1d(4, 2, 3, stride=2, pad_mode="pad", padding=1, group=2, has_bias=True)
    x = np.random.default_rng(0).standard_normal((2, 4, 7))
    check_modes(lambda x: conv(x), Tensor(x.astype(np.float32)))
    assert conv(Tensor(x.astype(np.float32))).shape == (2, 2, 4)
    with pytest.raises(ValueError, match=r"\(N, C, L\)"):
        conv(Tensor(np.ones((1, 4, 3, 3), np.float32)))
    fn, ws = with_weights(conv, ["weight", "bias"])  # last: it leaves the layer holding other tensors
    check_grad(fn, x, *ws, rtol=1e-4)


def test_layer_norm_as_mindspore():
    ln = nn.LayerNorm((3,))
    assert [(p.name, p.shape) for p in ln.get_parameters()] == [("gamma", (3,)), ("beta", (3,))]
    x = Tensor(np.array([[1.0, 2.0, 4.0], [0.0, 0.0, 3.0]], np.float32))
    np.testing.assert_allclose(ln(x).asnumpy(), [[-1.0690448, -0.26726115, 1.3363062],
                                                 [-0.70710677, -0.70710677, 1.4142135]], rtol=1e-6)
    assert repr(ln) == ("LayerNorm(normalized_shape=(3,), begin_norm_axis=-1, begin_params_axis=-1, "
                        "gammaParameter (name=gamma, shape=(3,), dtype=Float32, requires_grad=True), "
                        "beta=Parameter (name=beta, shape=(3,), dtype=Float32, requires_grad=True))")
    ln2 = nn.LayerNorm((2, 3), begin_norm_axis=1, begin_params_axis=1, epsilon=1e-5)
    np.testing.assert_allclose(ln2(x.reshape(1, 2, 3)).asnumpy(), [[[-0.44721255, 0.22360632, 1.5652441],
                                                                     [-1.1180314, -1.1180314, 0.89442515]]],
                               rtol=1e-6)
    assert [p.shape for p in ln2.get_parameters()] == [(2, 3), (2, 3)]


def test_layer_norm_gradients_and_modes():
    ln = nn.LayerNorm((4,), gamma_init="normal", beta_init="normal")
    x = np.random.default_rng(1).standard_normal((3, 4))
    check_modes(lambda x: ln(x), Tensor(x.astype(np.float32)))
    with pytest.raises(ValueError, match="gamma/beta have shape"):
        ln(Tensor(np.ones((2, 3), np.float32)))
    fn, ws = with_weights(ln, ["gamma", "beta"])  # last: it leaves the layer holding other tensors
    check_grad(fn, x, *ws, rtol=1e-4)


def test_embedding_as_mindspore():
    emb = nn.Embedding(5, 3, embedding_table="ones")
    assert [(p.name, p.shape) for p in emb.get_parameters()] == [("embedding_table", (5, 3))]
    assert emb(Tensor(np.array([[0, 4]], np.int32))).shape == (1, 2, 3)
    assert repr(emb) == ("Embedding(vocab_size=5, embedding_size=3, use_one_hot=False, embedding_table=Parameter "
                         "(name=embedding_table, shape=(5, 3), dtype=Float32, requires_grad=True), dtype=Float32, "
                         "padding_idx=None)")
    assert nn.Embedding(5, 2, padding_idx=1).embedding_table.asnumpy()[1].tolist() == [0.0, 0.0]


@pytest.mark.parametrize("one_hot", [False, True])
def test_embedding_gradients_and_modes(one_hot):
    emb = nn.Embedding(4, 3, use_one_hot=one_hot)
    ids = Tensor(np.array([[0, 2], [2, 3]], np.int32))
    table = emb.embedding_table.asnumpy()
    out = emb(ids).asnumpy()
    np.testing.assert_array_equal(out, table[[[0, 2], [2, 3]]])
    check_modes(lambda i: emb(i), ids)
    g = ops.GradOperation(get_by_list=True)(lambda i: emb(i).sum(), [emb.embedding_table])(ids)[0].asnumpy()
    assert g.tolist() == [[1, 1, 1], [0, 0, 0], [2, 2, 2], [1, 1, 1]]   # a row read twice gets twice the gradient
