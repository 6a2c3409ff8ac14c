"""Initial weights are MindSpore 2.10's own numbers: one seed from numpy's global generator per array, then
MindSpore's Philox stream and distributions (mslab.core.philox).

Every expected value was printed by MindSpore 2.10 on CPU (docs/mindspore_observed/behave.md): the first
block by ``mindspore._c_expression._random_uniform / _random_normal / _truncated_normal`` for one seed, the rest
by building the same layers and initialisers after ``ms.set_seed(1)`` / ``np.random.seed(4)``.
"""
import numpy as np
import pytest

import mslab as ms
from mslab import nn
from mslab.common.initializer import (
    HeNormal,
    HeUniform,
    Normal,
    TruncatedNormal,
    Uniform,
    XavierNormal,
    XavierUniform,
    initializer,
)
from mslab.core import philox

SEED = 1234567890123456789


@pytest.mark.parametrize("draw, args, first5, sum3000, last", [
    (philox.uniform, (-0.5, 0.25), [-0.0321272574365139, -0.32049980759620667, -0.13345426321029663,
                                    -0.2610308825969696, 0.1598179191350937], -367.77070554648526, -0.333304226398468),
    (philox.normal, (0.1, 2.0), [-2.5233583450317383, -0.552549421787262, 2.3521413803100586, 2.695324420928955,
                                 2.0254175662994385], 334.12927218485856, -3.8766520023345947),
    (philox.truncated_normal, (-1.0, 0.5, 0.0, 1.0), [-0.022469934076070786, -0.5645970702171326,
                                                      -0.20431706309318542, -0.4442768692970276, 0.32496505975723267],
     -607.1199192418717, -0.5915453433990479),
])
def test_philox_distributions_give_mindspores_float32_numbers(draw, args, first5, sum3000, last):
    assert draw(SEED, 5, *args).tolist() == first5  # bit for bit
    many = draw(SEED, 3000, *args)  # more than one of MindSpore's parallel tasks: the same stream
    assert many.dtype == np.float32 and many[2999].item() == last
    assert float(many.astype(np.float64).sum()) == pytest.approx(sum3000, abs=1e-9)


def _head_and_sum(arr):
    return arr.ravel()[:2].tolist(), float(arr.astype(np.float64).sum())


def test_layers_start_from_mindspores_weights():
    ms.set_seed(1)
    dense, conv, emb = nn.Dense(3, 2), nn.Conv2d(3, 4, 3, has_bias=True), nn.Embedding(7, 3)
    assert _head_and_sum(dense.weight.asnumpy()) == ([0.3366193473339081, -0.29502370953559875], -0.953400269150734)
    assert _head_and_sum(dense.bias.asnumpy()) == ([-0.23104941844940186, -0.019286174327135086],
                                                   -0.25033559277653694)
    assert _head_and_sum(conv.weight.asnumpy())[0] == [0.14323848485946655, 0.04661434888839722]
    assert _head_and_sum(conv.bias.asnumpy())[0] == [0.08373378962278366, 0.02626238763332367]
    assert _head_and_sum(emb.embedding_table.asnumpy())[0] == [0.00806151982396841, -0.014374081045389175]


INITS = [
    (Normal(0.02), [-0.009617478586733341, -0.0017707841470837593], 0.3418732761292631),
    (TruncatedNormal(0.02), [0.022855164483189583, -0.011862647719681263], 1.9639115119680355),
    (HeUniform(), [0.3832108974456787, -0.2893647253513336], -8.491666301000805),
    (HeNormal(), [0.00040700723184272647, -0.055420465767383575], -3.7505142202644492),
    (XavierUniform(), [0.11570451408624649, -0.16134102642536163], -1.1562626890590764),
    (XavierNormal(), [0.07161029428243637, 0.015896154567599297], -0.36208879553942097),
    (Uniform(), [-0.030239112675189972, -0.0005629908409900963], 1.5470822180250252),
    ("normal", [0.02472000941634178, -0.0002802350791171193], 1.0030374432394638),
    ("truncatednormal", [-0.024766109883785248, -0.002838702406734228], 0.40555630417134125),
    ("he_uniform", [0.4080667495727539, -0.10773719847202301], 14.003783315085457),
    ("he_normal", [-0.15451346337795258, 0.01584615372121334], 0.8339231150457636),
    ("xavier_uniform", [0.18193955719470978, 0.059735771268606186], -6.050892375380954),
    ("uniform", [-0.028536897152662277, -0.004883910063654184], 1.7991462964619132),
    (TruncatedNormal(1.0, 0.5, -1.0, 1.5), [-0.07497292011976242, 0.7781502604484558], 745.5493021893781),
]


def test_initialisers_give_mindspores_numbers_in_sequence():
    ms.set_seed(1)
    nn.Dense(3, 2), nn.Conv2d(3, 4, 3, has_bias=True), nn.Embedding(7, 3)  # the draws before, as on MindSpore
    for init, head, total in INITS:
        head_got, total_got = _head_and_sum(initializer(init, [64, 33], ms.float32).asnumpy())
        assert head_got == head, init
        assert total_got == pytest.approx(total, abs=1e-9), init
    f16 = initializer(Normal(0.5), [5, 3], ms.float16).asnumpy()
    assert f16.dtype == np.float16 and _head_and_sum(f16) == ([0.34326171875, -0.5], -0.59765625)


def test_a_large_dense_layer_and_the_draws_after_it():
    np.random.seed(4)
    big = nn.Dense(2048, 300)
    assert _head_and_sum(big.weight.asnumpy())[0] == [-0.0012181401252746582, 0.01681850105524063]
    assert _head_and_sum(big.weight.asnumpy())[1] == pytest.approx(-1.4371219575033862, abs=1e-9)
    assert _head_and_sum(big.bias.asnumpy())[0] == [0.01482276152819395, -0.00972916092723608]
    assert np.random.rand(2).tolist() == [0.9726843599648843, 0.7148159936743647]


def test_truncated_normal_with_zero_sigma_is_refused():
    with pytest.raises(RuntimeError, match="TruncatedNormal: invalid sigma 0"):  # as MindSpore 2.10 CPU
        initializer(TruncatedNormal(0.0), [2, 2], ms.float32)
