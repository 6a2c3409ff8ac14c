"""mslab.fast.allocator: glibc's malloc thresholds fixed at import, unless the user set glibc's own variables."""
from mslab.fast import allocator


def test_user_variable_wins():
    assert allocator.tune({"MALLOC_TRIM_THRESHOLD_": "1000"}) is False
    assert allocator.tune({"MALLOC_MMAP_THRESHOLD_": "1000"}) is False


def test_tune_sets_thresholds_on_glibc_only():
    assert allocator.tune({}) is allocator.glibc()
