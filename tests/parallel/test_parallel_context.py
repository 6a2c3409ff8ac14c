"""Parallel settings: the parallel modes and their validation, the parallel utilities that follow the context,
Layout's tensor map, and auto parallel running a network unchanged on one process.

Every expectation was printed by MindSpore 2.10 on CPU (docs/mindspore_observed/infra.md).
"""

import numpy as np
import pytest

import mslab as ms
from mslab import nn
from mslab.context import ParallelMode
from mslab.parallel import Layout
from mslab.parallel._auto_parallel_context import auto_parallel_context
from mslab.parallel._utils import _get_device_num, _get_gradients_mean, _get_parallel_mode
from mslab.parallel.auto_parallel import AutoParallel

pytestmark = pytest.mark.usefixtures("stand_alone_parallel_context")


def test_parallel_mode_list_and_validation():
    # observed on MindSpore 2.10 CPU
    assert ParallelMode.MODE_LIST == ['stand_alone', 'data_parallel', 'hybrid_parallel', 'semi_auto_parallel',
                                      'auto_parallel']
    with pytest.raises(ValueError, match="only support 'stand_alone'.*but got the value : DATA_PARALLEL"):
        ms.set_auto_parallel_context(parallel_mode="DATA_PARALLEL")


def test_parallel_utils_follow_the_context():
    # observed on MindSpore 2.10 CPU: stand-alone is 1 device whatever else is set
    assert (_get_device_num(), _get_gradients_mean(), _get_parallel_mode()) == (1, False, "stand_alone")
    ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True, device_num=4)
    assert (_get_device_num(), _get_gradients_mean(), _get_parallel_mode()) == (4, True, "data_parallel")
    ctx = auto_parallel_context()
    assert ctx is auto_parallel_context()
    assert (ctx.get_device_num(), ctx.get_gradients_mean(), ctx.get_parallel_mode()) == (4, True, "data_parallel")
    ms.reset_auto_parallel_context()
    assert (_get_device_num(), _get_gradients_mean(), _get_parallel_mode()) == (1, False, "stand_alone")
    # defaults of settings mslab keeps but does not act on (observed on MindSpore 2.10 CPU)
    assert (ctx.get_full_batch(), ctx.get_enable_parallel_optimizer(), ctx.get_pipeline_stages(),
            ctx.get_loss_repeated_mean(), ctx.get_dataset_strategy(), ctx.get_global_rank()) == (
        False, False, 1, True, "data_parallel", 0)
    ctx.set_full_batch(True)
    assert ms.get_auto_parallel_context("full_batch") is True


def test_layout_tensor_map_and_errors():
    layout = Layout((2, 4), ("dp", "mp"))
    # observed on MindSpore 2.10 CPU
    assert layout("dp", "mp").to_dict() == {"device_matrix": (2, 4), "tensor_map": (1, 0),
                                           "interleaved_parallel": False, "alias_name": ("dp", "mp"),
                                           "rank_list": [0, 1, 2, 3, 4, 5, 6, 7]}
    assert layout(("dp", "mp"), "None").to_dict()["tensor_map"] == ((1, 0), -1)
    with pytest.raises(ValueError, match="device_matrix length should be equal to alias_name length"):
        Layout((2, 4), ("dp",))
    with pytest.raises(ValueError, match=r"The axis xx is not found in \('dp', 'mp'\)"):
        layout("xx")


def test_auto_parallel_runs_the_network_unchanged():
    w = np.array([[0.5, -1.0], [2.0, 0.25], [-0.75, 1.5]], np.float32)
    net = nn.Dense(2, 3, weight_init=ms.Tensor(w), bias_init="zeros")
    wrapped = AutoParallel(net, parallel_mode="semi_auto")
    wrapped.dataset_strategy("full_batch")
    wrapped.hsdp()
    wrapped.pipeline(stages=2)
    x = ms.Tensor(np.array([[1.0, 2.0]], np.float32))
    np.testing.assert_array_equal(wrapped(x).asnumpy(), net(x).asnumpy())
    assert [p.name for p in wrapped.get_parameters()] == ["weight", "bias"]  # auto_prefix=False, as MindSpore
    assert wrapped.get_pipeline_stages() == 2
    with pytest.raises(ValueError, match="must be one of \\['semi_auto', 'sharding_propagation', "
                                         "'recursive_programming'\\], but got the value : auto"):
        AutoParallel(net, parallel_mode="auto")
    with pytest.raises(ValueError, match="'config' must be 'full_batch' or 'data_parallel'"):
        wrapped.dataset_strategy("all")
