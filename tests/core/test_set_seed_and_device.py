"""set_seed's common path (ms.common.set_seed is the top-level one) and set_device setting the context target.
Observed on MindSpore 2.10 CPU."""
import pytest

import mslab as ms


def test_common_set_seed_is_the_top_level_one():
    # observed on MindSpore 2.10 CPU: mindspore.common.set_seed is mindspore.set_seed -> True
    assert ms.common.set_seed is ms.set_seed and ms.common.get_seed is ms.get_seed


def test_set_device_sets_the_context_target():
    # observed on MindSpore 2.10 CPU: set_device("CPU") -> get_context("device_target") == "CPU";
    # set_device("CPU", 0) -> device_id 0; set_device("Foo") -> ValueError naming CPU/GPU/Ascend
    try:
        ms.set_device("CPU", 0)
        assert ms.get_context("device_target") == "CPU" and ms.get_context("device_id") == 0
        with pytest.raises(ValueError, match="device_target"):
            ms.set_device("Foo")
    finally:
        ms.set_context(device_target="CPU", device_id=0)
