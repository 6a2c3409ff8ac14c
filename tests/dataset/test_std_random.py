"""mslab.dataset.std_random draws MindSpore's shuffle orders: every expected order below was printed by MindSpore
2.10 on CPU (``ds.config.set_seed(seed)``, ``GeneratorDataset(..., shuffle=True)``, two epochs of one iterator)."""
import hashlib

import numpy as np
import pytest

from mslab.dataset.std_random import Mt19937, Mt19937_64, buffer_shuffle, sampler_order, shuffle


def test_mt19937_is_cpps():
    g = Mt19937(5489)  # std::mt19937's default seed; the C++ standard fixes its 10000th output
    for _ in range(9999):
        g()
    assert g() == 4123659995


@pytest.mark.parametrize("seed, n, first, second", [
    (1, 10, [9, 0, 2, 5, 7, 4, 6, 3, 1, 8], [4, 9, 5, 0, 1, 7, 6, 2, 3, 8]),
    (1, 7, [1, 0, 6, 3, 5, 4, 2], [4, 2, 6, 5, 0, 3, 1]),
    (58, 10, [1, 7, 4, 2, 9, 0, 6, 5, 3, 8], [9, 2, 4, 5, 6, 1, 0, 3, 8, 7]),
    (58, 7, [1, 4, 5, 3, 6, 2, 0], [2, 6, 5, 3, 4, 1, 0]),
    (7, 10, [2, 7, 6, 8, 1, 5, 3, 0, 4, 9], [8, 3, 2, 6, 1, 0, 7, 4, 9, 5]),
])
def test_two_epochs_of_small_datasets(seed, n, first, second):
    assert sampler_order(n, seed, 0) == first
    assert sampler_order(n, seed, 1) == second


def _digest(order):
    return hashlib.sha256(np.asarray(order, np.int64).tobytes()).hexdigest()[:16]


@pytest.mark.parametrize("n, head, digests", [
    (100, [99, 91, 61, 87, 11, 6, 42, 30], ("ddb81ea91f987b42", "49d101bdd0fdfa18")),
    # MNIST's size: two positions per draw, with ranges where division and Lemire's scaling differ
    (60000, [16012, 55181, 9866, 40588, 46949, 34359, 56842, 26685], ("c64c53096b0c3bb8", "8f23996e107775b1")),
    # past 65,535 rows n * n no longer fits 32 bits: one draw per element
    (70000, [27548, 48776, 47402, 59264, 12094, 24025, 16343, 62464], ("fd466d9d51ad3e0a", "ed1c1c2c2c0a87d0")),
])
def test_two_epochs_of_large_datasets(n, head, digests):
    first = sampler_order(n, 3, 0)
    assert first[:8] == head
    assert (_digest(first), _digest(sampler_order(n, 3, 1))) == digests


def test_shuffle_is_a_permutation_in_place():
    items = list("abcdefg")
    shuffle(items, Mt19937(0))
    assert sorted(items) == list("abcdefg") and items != list("abcdefg")


def test_mt19937_64_is_cpps():
    g = Mt19937_64(5489)  # the C++ standard fixes std::mt19937_64's 10000th output
    for _ in range(9999):
        g()
    assert g() == 9981545732273789042


@pytest.mark.parametrize("seed, n, size, first_ten", [
    (7, 10, 4, [3, 2, 4, 5, 1, 0, 7, 9, 6, 8]),
    (1, 10, 2, [0, 1, 2, 3, 4, 6, 5, 8, 7, 9]),
    (3, 100, 16, [11, 7, 3, 5, 18, 4, 16, 8, 10, 17]),
    (5, 1000, 1000, [342, 868, 762, 372, 944, 137, 421, 142, 888, 512]),
    (5, 1000, 10000, [342, 868, 762, 372, 944, 137, 421, 142, 888, 512]),  # a buffer larger than the data
])
def test_buffer_shuffle_as_mindspores_shuffle_op(seed, n, size, first_ten):
    """``NumpySlicesDataset(np.arange(n), shuffle=False).shuffle(size)`` under ``ds.config.set_seed(seed)``."""
    draw = Mt19937_64(seed)
    first = list(buffer_shuffle(range(n), size, draw))
    second = list(buffer_shuffle(range(n), size, draw))  # the next epoch draws on from the same generator
    assert first[:10] == first_ten and sorted(first) == list(range(n)) and second != first
    assert _digest(first) == BUFFER_DIGESTS[seed, n, size][0] and _digest(second) == BUFFER_DIGESTS[seed, n, size][1]


BUFFER_DIGESTS = {  # (seed, rows, buffer size) -> both epochs' orders as printed by MindSpore 2.10, digested
    (7, 10, 4): ("5906591b8cf0ed34", "0794f60c7d03c6cf"),
    (1, 10, 2): ("524e93a4ab6c76ec", "47d8c5e0511758ee"),
    (3, 100, 16): ("86d23074d823f7d3", "f74b1fb7efc50751"),
    (5, 1000, 1000): ("8a9482fc0432a50c", "cfcb4c4748bf07cf"),
    (5, 1000, 10000): ("8a9482fc0432a50c", "cfcb4c4748bf07cf"),
}
