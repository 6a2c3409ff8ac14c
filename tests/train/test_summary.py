"""Issue #19: summary ops (TensorSummary, HistogramSummary, ImageSummary, ScalarSummary) and SummaryCollector.
Numbers and messages observed on MindSpore 2.10 CPU (docs/mindspore_observed/fwthree.md)."""
import numpy as np
import pytest

import mslab as ms
from mslab import nn, ops, train
from mslab.core import summary_pool
from mslab.ops import operations as P


class _Logged(nn.Cell):
    def __init__(self):
        super().__init__()
        self.ts, self.hs = P.TensorSummary(), P.HistogramSummary()
        self.im, self.sc = ops.ImageSummary(), ops.ScalarSummary()

    def construct(self, x):
        self.ts("t", x)
        self.hs("h", x)
        self.im("img", x.reshape(1, 1, 2, 2))
        self.sc("s", x.sum())
        return x * 2


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_summary_ops_record_in_both_modes(tmp_path, mode):
    # observed on MindSpore 2.10 CPU: in both modes the event file holds t, h, img (a PNG) and s = 10.0;
    # without a call to the network nothing is recorded
    ms.set_context(mode=mode)
    try:
        net, x = _Logged(), ms.Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32))
        with ms.SummaryRecord(str(tmp_path)) as record:
            assert net(x).asnumpy().tolist() == [2.0, 4.0, 6.0, 8.0]
            assert record.record(1)
        (entry,) = ms.SummaryRecord.read(record.file_info["file_path"])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert entry == {"step": 1, "tensor": {"t": [1.0, 2.0, 3.0, 4.0]}, "scalar": {"s": 10.0},
                     "image": {"img": [[[[1.0, 2.0], [3.0, 4.0]]]]}, "histogram": {"h": [1.0, 2.0, 3.0, 4.0]}}


def test_summary_op_returns_none_and_passes_no_gradient():
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    assert ops.HistogramSummary()("h", x) is None  # observed on MindSpore 2.10 CPU: None

    class Squares(nn.Cell):
        def __init__(self):
            super().__init__()
            self.t = ops.TensorSummary()

        def construct(self, v):
            self.t("t", v)
            return (v * v).sum()

    assert ms.grad(Squares())(x).asnumpy().tolist() == [2.0, 4.0]  # observed on MindSpore 2.10 CPU: [2. 4.]
    summary_pool.take()  # leave no value for another test's record


def test_summary_values_are_checked_at_record(tmp_path):
    ops.ScalarSummary()("s", ms.Tensor([1.0, 2.0]))
    with ms.SummaryRecord(str(tmp_path)) as record:
        # observed on MindSpore 2.10 CPU, at record: ValueError with this message
        with pytest.raises(ValueError, match=r'For "ScalarSummary", the v rank must be less than or equal to 1, '
                                             r'but got 2\.'):
            record.record(1)


def _train_with_collector(summary_dir):
    np.random.seed(0)
    x = np.random.randn(8, 3).astype(np.float32)
    y = np.random.randn(8, 2).astype(np.float32)
    data = ms.dataset.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(2)
    w = np.array([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]], np.float32)
    net = nn.Dense(3, 2, weight_init=ms.Tensor(w), bias_init="zeros")
    model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    model.train(2, data, callbacks=[ms.SummaryCollector(summary_dir, collect_freq=3)], dataset_sink_mode=False)
    return net


def test_summary_collector_records_loss_and_histograms(tmp_path):
    net = _train_with_collector(str(tmp_path))
    (path,) = tmp_path.glob("*_MS")
    records = ms.SummaryRecord.read(str(path))
    # observed on MindSpore 2.10 CPU (steps and loss/auto parsed from its event file): step 1 3.4235198,
    # step 3 1.3522692, step 6 1.6403838; histograms weight/auto and bias/auto at each
    assert [r["step"] for r in records] == [1, 3, 6]
    np.testing.assert_allclose([r["scalar"]["loss/auto"] for r in records], [3.4235198, 1.3522692, 1.6403838],
                               rtol=1e-6)
    assert all(sorted(r["histogram"]) == ["bias/auto", "weight/auto"] for r in records)
    np.testing.assert_allclose(net.weight.asnumpy(), [[0.4054625630378723, -0.3454039990901947, -0.00339546799659729],
                                                      [-0.13115888833999634, 0.029397964477539062,
                                                       -0.47792378067970276]], rtol=1e-6)


def test_summary_collector_records_a_due_step_again_at_epoch_end(tmp_path):
    np.random.seed(0)
    data = ms.dataset.NumpySlicesDataset({"x": np.ones((8, 3), np.float32), "y": np.ones((8, 2), np.float32)},
                                         shuffle=False).batch(2)
    net = nn.Dense(3, 2)
    ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1)).train(
        2, data, callbacks=[train.callback.SummaryCollector(str(tmp_path), collect_freq=2)], dataset_sink_mode=False)
    (path,) = tmp_path.glob("*_MS")
    # observed on MindSpore 2.10 CPU (collect_freq=2, 4 steps an epoch): steps 1 2 4 4 6 8 8
    assert [r["step"] for r in ms.SummaryRecord.read(str(path))] == [1, 2, 4, 4, 6, 8, 8]


@pytest.mark.parametrize("kwargs, kind, message", [
    # observed on MindSpore 2.10 CPU, each in its own process
    ({"collect_freq": 0}, ValueError,
     'For "SummaryCollector", the value of `collect_freq` should be greater than 0, but got `0`.'),
    ({"collect_freq": "2"}, TypeError, "For `collect_freq` the type should be a valid type of ['int'], but got str."),
    ({"collect_specified_data": {"foo": 1}}, ValueError,
     "For \"SummaryCollector\", the keys {'foo'} of `collect_specified_data` are unsupported, expect the follow "
     "keys: ['collect_metric', 'collect_graph', 'collect_train_lineage', 'collect_eval_lineage', "
     "'collect_input_data', 'collect_dataset_graph', 'histogram_regular', 'collect_landscape']"),
])
def test_summary_collector_argument_errors(tmp_path, kwargs, kind, message):
    with pytest.raises(kind) as err:
        ms.SummaryCollector(str(tmp_path), **kwargs)
    assert str(err.value) == message


def test_summary_collector_paths():
    assert ms.SummaryCollector is train.callback.SummaryCollector is train.SummaryCollector
