"""Dataset sink mode on a CPU, as MindSpore 2.10 handles it (observed on MindSpore 2.10 CPU,
fidelity.md §9): Model.train ignores sink mode and sink_size; DatasetHelper refuses sink mode."""
import numpy as np
import pytest

import mslab.dataset as ds
from mslab import context, nn
from mslab.train import Callback, Model
from mslab.train.dataset_helper import DatasetHelper

X = np.random.RandomState(0).randn(8, 2).astype(np.float32)
Y = np.random.RandomState(1).randn(8, 1).astype(np.float32)
MODES = [context.PYNATIVE_MODE, context.GRAPH_MODE]


def make_data():
    return ds.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False).batch(2)  # 4 batches


class Counter(Callback):
    def __init__(self):
        super().__init__()
        self.steps = []

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        self.steps.append((cb.cur_epoch_num, cb.cur_step_num))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("sink_size", [-1, 2, 3])
def test_model_train_on_cpu_ignores_sink_mode(mode, sink_size):
    context.set_context(mode=mode)
    net = nn.Dense(2, 1)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01))
    c = Counter()
    model.train(2, make_data(), callbacks=[c], dataset_sink_mode=True, sink_size=sink_size)
    # observed on MindSpore 2.10 CPU, every mode and sink_size: 8 step_end calls, epoch 1 steps 1-4, epoch 2 5-8
    assert c.steps == [(1, 1), (1, 2), (1, 3), (1, 4), (2, 5), (2, 6), (2, 7), (2, 8)]
    assert model.transfer_counts.host_to_device == 8  # one transfer per batch: no sinking happened


@pytest.mark.parametrize("mode, message", [
    (context.PYNATIVE_MODE, r"Unsupported op \[InitDataSetQueue\] on CPU"),
    (context.GRAPH_MODE, "Currently dataset sink mode is not supported when the device target is CPU, please set "
                         r"dataset_sink_mode to False in Model.train\(\)")])
def test_dataset_helper_refuses_sink_mode_on_cpu(mode, message):
    context.set_context(mode=mode)
    with pytest.raises(RuntimeError, match=message):
        DatasetHelper(make_data(), dataset_sink_mode=True)
    items = [[b.shape for b in batch] for batch in DatasetHelper(make_data(), dataset_sink_mode=False)]
    assert len(items) == 4 and items[0] == [(2, 2), (2, 1)]  # observed on MindSpore 2.10 CPU


def test_a_device_target_keeps_the_simulated_sink(device):
    context.set_context(mode=context.GRAPH_MODE)
    net = nn.Dense(2, 1)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01))
    c = Counter()
    model.train(2, make_data(), callbacks=[c], dataset_sink_mode=True, sink_size=2)
    assert c.steps == [(1, 2), (2, 4)]  # seed train.md's device semantics: one callback step per sink
    assert model.transfer_counts.host_to_device == 2
