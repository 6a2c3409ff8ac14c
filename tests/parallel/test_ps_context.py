"""set_ps_context / get_ps_context and sync_pipeline_shared_parameters on one process.
Observed on MindSpore 2.10 CPU (docs/mindspore_observed/fwthree.md)."""
import pytest

import mslab as ms
from mslab import nn


def test_ps_context_stored_and_read_back():
    # observed on MindSpore 2.10 CPU: the default is False, then True after set_ps_context(enable_ps=True)
    assert ms.get_ps_context("enable_ps") is False
    ms.context.set_ps_context(enable_ps=True, config_file_path="x")
    try:
        assert ms.get_ps_context("enable_ps") is True and ms.get_ps_context("config_file_path") == "x"
        assert ms.get_ps_context("scheduler_port") == 6667
    finally:
        ms.reset_ps_context()
    with pytest.raises(ValueError, match="Set PS context keyword foo is not recognized!"):
        ms.set_ps_context(foo=1)
    with pytest.raises(ValueError, match="Get PS context keyword foo is not recognized!"):
        ms.get_ps_context("foo")


def test_sync_pipeline_shared_parameters_does_nothing_on_one_process():
    net = nn.Dense(2, 2)
    before = net.weight.asnumpy().copy()
    assert ms.sync_pipeline_shared_parameters(net) is None  # observed on MindSpore 2.10 CPU: None
    assert (net.weight.asnumpy() == before).all()
