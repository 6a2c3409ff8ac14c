"""Initialisers draw from numpy's global generator, once per array, and set_seed seeds numpy and the weights.

Observed on MindSpore 2.10 CPU (docs/mindspore_observed/behave.md).
"""
import numpy as np
import pytest

import mslab as ms
from mslab import nn
from mslab.common.initializer import HeUniform, Normal, TruncatedNormal, XavierUniform, initializer

# np.random.rand(3) after np.random.seed(0) and building each, observed on MindSpore 2.10 CPU: every random
# initialiser takes one draw from numpy's global generator.
AFTER_ONE = [0.715189, 0.602763, 0.544883]
AFTER_TWO = [0.602763, 0.544883, 0.423655]
AFTER_NONE = [0.548814, 0.715189, 0.602763]


@pytest.mark.parametrize("make, after", [
    (lambda: nn.Conv2d(1, 2, 3, has_bias=True), AFTER_TWO),
    (lambda: nn.Conv2d(1, 2, 3), AFTER_ONE),
    (lambda: nn.Dense(4, 3), AFTER_TWO),
    (lambda: nn.BatchNorm2d(3), AFTER_NONE),
    (lambda: nn.LayerNorm((3,)), AFTER_NONE),
    (lambda: nn.Embedding(5, 2), AFTER_ONE),
    (lambda: nn.Dense(4, 3, weight_init=XavierUniform(), bias_init="zeros"), AFTER_ONE),
    (lambda: nn.Dense(4, 3, weight_init=Normal(0.1)), AFTER_TWO),
    (lambda: nn.Dense(4, 3, weight_init="xavier_uniform", bias_init="normal"), AFTER_TWO),
    (lambda: initializer(TruncatedNormal(0.02), [2, 3], ms.float32), AFTER_ONE),
    (lambda: initializer(HeUniform(), [2, 3], ms.float32), AFTER_ONE),
    (lambda: initializer("he_uniform", [2, 3], ms.float32), AFTER_ONE),
])
def test_initialisers_draw_once_from_numpy(make, after):
    np.random.seed(0)
    make()
    assert np.random.rand(3).round(6).tolist() == after


def test_set_seed_seeds_numpy_and_the_weights():
    ms.set_seed(3)
    a = nn.Dense(2, 2).weight.asnumpy()
    assert np.random.rand(3).round(6).tolist() == [0.290905, 0.510828, 0.892947]  # observed on MindSpore 2.10
    ms.set_seed(3)
    assert (nn.Dense(2, 2).weight.asnumpy() == a).all()
