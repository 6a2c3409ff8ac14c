"""train.data_sink: refused on CPU as MindSpore does; on a simulated device it runs the batches in turn.

Every expectation was printed by MindSpore 2.10 on CPU (docs/mindspore_observed/infra.md).
"""

import numpy as np
import pytest

import mslab as ms
import mslab.dataset as ds

pytestmark = pytest.mark.usefixtures("restore_runtime_context")


def sink_data():
    data = {"x": np.arange(12, dtype=np.float32).reshape(6, 2), "y": np.arange(6, dtype=np.float32)}
    return ds.NumpySlicesDataset(data, shuffle=False).batch(2)


def test_data_sink_refuses_cpu_as_mindspore():
    # observed on MindSpore 2.10 CPU
    with pytest.raises(ValueError, match="Data sinking supports ascend or gpu device target, but device target is "
                                         "CPU."):
        ms.data_sink(lambda x, y: x, sink_data())
    with pytest.raises(TypeError, match="For 'Data sink', the type of 'sink_size' should be 'int', but got type "
                                        "'float'."):
        ms.data_sink(lambda x, y: x, sink_data(), sink_size=1.5)
    with pytest.raises(ValueError, match="The 'sink_size' must be positive, but got sink_size 0."):
        ms.data_sink(lambda x, y: x, sink_data(), sink_size=0)


@pytest.mark.filterwarnings("ignore:mslab computes on the CPU")
def test_data_sink_on_a_simulated_device_runs_batches_in_turn():
    ms.set_context(device_target="Ascend")
    step = ms.data_sink(lambda x, y: x.sum() + y.sum(), sink_data(), sink_size=1)
    # batches sum to 7, 27, 47, then a new epoch (MindSpore's documented semantics; its CPU refuses to sink)
    assert [float(step().asnumpy()) for _ in range(4)] == [7.0, 27.0, 47.0, 7.0]
    two = ms.data_sink(lambda x, y: x.sum() + y.sum(), sink_data(), sink_size=2)
    assert [float(two().asnumpy()) for _ in range(3)] == [27.0, 7.0, 47.0]  # the last of each two batches
