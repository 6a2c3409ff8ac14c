"""Model: train (step and sink loops, cur_step_num, transfer counts), eval, predict, fit; DatasetHelper."""
import warnings

import numpy as np
import pytest

import mslab as ms
import mslab.dataset as ds
import mslab.nn as nn
from mslab import Tensor
from mslab.testing import in_mode
from mslab.train import Callback, DatasetHelper, LossMonitor, Model, connect_network_with_dataset

f32 = np.float32
RNG = np.random.default_rng(5)
X = RNG.standard_normal((96, 4)).astype(f32)
W_TRUE = np.array([[1.0, -1.0, 0.5], [0.3, 0.2, -0.4], [-0.6, 0.9, 0.1], [0.2, 0.2, 0.2]], f32)
Y = (X @ W_TRUE).argmax(1).astype(np.int32)


def make_ds(batch=16, rows=96, columns=("data", "label")):
    data = {"data": X[:rows], "label": Y[:rows]}
    if len(columns) == 3:
        data["extra"] = Y[:rows]
    return ds.NumpySlicesDataset(data, shuffle=False).batch(batch)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        w = np.full((3, 4), 0.1, f32) * np.arange(12, dtype=f32).reshape(3, 4) / 12
        self.fc = nn.Dense(4, 3, Tensor(w), Tensor(np.zeros(3, f32)))

    def construct(self, x):
        return self.fc(x)


def make_model(metrics=None, lr=0.1):
    net = Net()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    return net, Model(net, loss, opt, metrics=metrics)


class Recorder(Callback):
    def __init__(self):
        super().__init__()
        self.rows, self.events = [], []

    def on_train_begin(self, rc):
        self.events.append("begin")

    def on_train_epoch_begin(self, rc):
        self.events.append("epoch_begin")

    def on_train_step_begin(self, rc):
        self.events.append("step_begin")

    def on_train_step_end(self, rc):
        cb = rc.original_args()
        self.events.append("step_end")
        self.rows.append((cb.cur_epoch_num, cb.cur_step_num, float(cb.net_outputs.asnumpy())))

    def on_train_epoch_end(self, rc):
        self.events.append("epoch_end")

    def on_train_end(self, rc):
        self.events.append("end")


def run(mode, epochs=3, sink=False, sink_size=-1, batch=16, **kw):
    with in_mode(mode):
        net, model = make_model()
        rec = Recorder()
        model.train(epochs, make_ds(batch), callbacks=[rec], dataset_sink_mode=sink, sink_size=sink_size, **kw)
    return net, model, rec


# ---- the step loop ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_cur_step_num_counts_across_epochs(mode):
    _, _, rec = run(mode, epochs=2)
    assert [(e, s) for e, s, _ in rec.rows] == [(1, i) for i in range(1, 7)] + [(2, i) for i in range(7, 13)]
    assert rec.events[:3] == ["begin", "epoch_begin", "step_begin"] and rec.events[-2:] == ["epoch_end", "end"]
    assert rec.events.count("step_begin") == rec.events.count("step_end") == 12


def test_modes_agree_without_sink():
    _, _, a = run(ms.PYNATIVE_MODE, epochs=2)
    _, _, b = run(ms.GRAPH_MODE, epochs=2)
    np.testing.assert_allclose([r[2] for r in a.rows], [r[2] for r in b.rows], rtol=1e-6)


def test_training_lowers_the_loss_and_sets_train_mode():
    net, model, rec = run(ms.PYNATIVE_MODE, epochs=3)
    assert rec.rows[-1][2] < rec.rows[0][2]
    assert net.training and model.train_network.training


# ---- the sink loop ---------------------------------------------------------------------------------------
def test_sink_whole_dataset_per_epoch(device):
    _, model, rec = run(ms.GRAPH_MODE, sink=True, sink_size=-1)
    assert [(e, s) for e, s, _ in rec.rows] == [(1, 6), (2, 12), (3, 18)]
    assert rec.events.count("step_begin") == rec.events.count("step_end") == 3
    _, _, plain = run(ms.GRAPH_MODE, sink=False)
    np.testing.assert_allclose([r[2] for r in rec.rows], [plain.rows[i][2] for i in (5, 11, 17)], rtol=1e-6)


def test_sink_size_continues_through_the_data(device):
    _, model, rec = run(ms.GRAPH_MODE, sink=True, sink_size=2)
    assert [(e, s) for e, s, _ in rec.rows] == [(1, 2), (2, 4), (3, 6)]
    _, _, plain = run(ms.GRAPH_MODE, epochs=1)
    np.testing.assert_allclose([r[2] for r in rec.rows], [plain.rows[i][2] for i in (1, 3, 5)], rtol=1e-6)


def test_sink_size_larger_than_the_dataset_wraps_around(device):
    _, _, rec = run(ms.GRAPH_MODE, epochs=3, sink=True, sink_size=4)  # 12 steps = 2 passes over 6 batches
    assert [(e, s) for e, s, _ in rec.rows] == [(1, 4), (2, 8), (3, 12)]
    _, _, plain = run(ms.GRAPH_MODE, epochs=2)
    np.testing.assert_allclose([r[2] for r in rec.rows], [plain.rows[i][2] for i in (3, 7, 11)], rtol=1e-6)


def test_pynative_sink_falls_back_to_steps(device):
    with pytest.warns(UserWarning, match="PYNATIVE"):
        _, model, rec = run(ms.PYNATIVE_MODE, epochs=2, sink=True, sink_size=2)
    assert [s for _, s, _ in rec.rows] == list(range(1, 13))
    assert model.transfer_counts.host_to_device == 12


@pytest.mark.parametrize("sink,sink_size,expected", [
    (False, -1, dict(host_to_device=18, device_to_host=18, batches=18)),
    (True, -1, dict(host_to_device=3, device_to_host=3, batches=18)),
    (True, 2, dict(host_to_device=3, device_to_host=3, batches=6)),
])
def test_transfer_counts(sink, sink_size, expected, device):
    _, model, _ = run(ms.GRAPH_MODE, sink=sink, sink_size=sink_size)
    assert model.transfer_counts.as_dict() == expected


class CountingStep(nn.TrainOneStepCell):
    """A training step that counts its calls (the network alone is Model's training network)."""

    def __call__(self, *inputs):
        self.__dict__["calls"] = self.__dict__.get("calls", 0) + 1
        return super().__call__(*inputs)


def test_sink_runs_all_steps_inside_one_call_per_epoch(device):
    with in_mode(ms.GRAPH_MODE):
        net = Net()
        step = CountingStep(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")),
                            nn.Momentum(net.trainable_params(), 0.1, 0.9))
        model = Model(step)
        rec = Recorder()
        model.train(3, make_ds(), callbacks=rec, dataset_sink_mode=True)
    assert step.calls == 18 and len(rec.rows) == 3


def test_initial_epoch_and_sink_step_numbers():
    _, _, rec = run(ms.PYNATIVE_MODE, epochs=3, initial_epoch=1)
    assert [(e, s) for e, s, _ in rec.rows] == [(2, i) for i in range(7, 13)] + [(3, i) for i in range(13, 19)]


def test_request_stop_ends_after_the_step():
    class Stop(Callback):
        def on_train_step_end(self, rc):
            if rc.original_args().cur_step_num == 4:
                rc.request_stop()

    with in_mode(ms.PYNATIVE_MODE):
        _, model = make_model()
        rec = Recorder()
        model.train(3, make_ds(), callbacks=[rec, Stop()])
    assert [s for _, s, _ in rec.rows] == [1, 2, 3, 4]
    assert rec.events.count("epoch_end") == 1 and rec.events[-1] == "end"


def test_dataset_must_give_data_and_label_with_a_loss_fn():
    _, model = make_model()
    with pytest.raises(ValueError, match="2 columns"):
        model.train(1, make_ds(columns=("data", "label", "extra")))


def test_network_with_optimizer_only_and_bad_arguments():
    net = Net()
    loss_net = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
    model = Model(loss_net, optimizer=nn.Momentum(net.trainable_params(), 0.1, 0.9))
    assert isinstance(model.train_network, nn.TrainOneStepCell)
    w0 = net.fc.weight.asnumpy().copy()
    model.train(1, make_ds())
    assert not np.array_equal(w0, net.fc.weight.asnumpy())
    with pytest.raises(ValueError, match="epoch"):
        model.train(0, make_ds())
    with pytest.raises(ValueError, match="sink_size"):
        model.train(1, make_ds(), dataset_sink_mode=True, sink_size=0)
    with pytest.raises(TypeError, match="Callback"):
        model.train(1, make_ds(), callbacks=[print])
    with pytest.raises(TypeError, match="Cell"):
        Model(lambda x: x)


class NanStep(Net):
    """A training network whose loss is NaN from step ``bad`` on (for the NaN/Inf checks)."""

    def __init__(self, bad=3):
        super().__init__()
        self.calls, self.bad = 0, bad

    def __call__(self, *inputs):
        self.calls += 1
        return super().__call__(*inputs)

    def construct(self, x, y):
        loss = (self.fc(x) * 0.0).mean()
        return loss * float("nan") if self.calls >= self.bad else loss


def test_nan_loss_without_loss_monitor_warns_once():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Model(NanStep()).train(2, make_ds())
    msgs = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
    assert len(msgs) == 1 and "nan at epoch 1 step 3" in msgs[0]


# ---- eval, predict, fit ----------------------------------------------------------------------------------
def manual_eval(net):
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    logits = net(Tensor(X)).asnumpy()
    losses = [float(loss_fn(Tensor(logits[i:i + 16]), Tensor(Y[i:i + 16])).asnumpy()) for i in range(0, 96, 16)]
    return float((logits.argmax(1) == Y).mean()), float(np.mean(losses))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_eval_returns_metrics_by_name(mode):
    with in_mode(mode):
        net, model = make_model(metrics={"acc", "loss"})
        model.train(1, make_ds())
        result = model.eval(make_ds())
    assert set(result) == {"acc", "loss"}
    acc, loss = manual_eval(net)
    assert result["acc"] == pytest.approx(acc) and result["loss"] == pytest.approx(loss, rel=1e-5)
    assert not net.training


def test_eval_with_metric_objects_and_names():
    net, model = make_model(metrics={"accuracy": nn.Accuracy(), "top": nn.TopKCategoricalAccuracy(2), "l": "loss"})
    result = model.eval(make_ds())
    assert set(result) == {"accuracy", "top", "l"} and 0.0 <= result["top"] <= 1.0
    assert result["accuracy"] == pytest.approx(manual_eval(net)[0])
    with pytest.raises(KeyError, match="Unknown Metric name"):
        make_model(metrics={"bogus"})
    with pytest.raises(ValueError, match="metrics"):
        make_model()[1].eval(make_ds())
    with pytest.raises(ValueError, match="loss_fn or an eval_network"):
        Model(Net(), metrics={"acc"})


def test_eval_callbacks_see_each_step():
    seen = []

    class Eval(Callback):
        def on_eval_step_end(self, rc):
            seen.append(rc.original_args().cur_step_num)

        def on_eval_end(self, rc):
            seen.append(rc.original_args().metrics)

    _, model = make_model(metrics={"acc"})
    result = model.eval(make_ds(), callbacks=[Eval()])
    assert seen == [1, 2, 3, 4, 5, 6, result]


def test_predict_runs_the_bare_network_with_training_off():
    class DropNet(Net):
        def __init__(self):
            super().__init__()
            self.drop = nn.Dropout(keep_prob=0.5)

        def construct(self, x):
            return self.drop(self.fc(x))

    net = DropNet()
    model = Model(net)
    net.set_train(True)
    out = model.predict(Tensor(X[:8])).asnumpy()
    np.testing.assert_allclose(out, X[:8] @ net.fc.weight.asnumpy().T, rtol=1e-6)
    assert net.training and net.drop.training


def test_fit_evaluates_each_epoch(capsys):
    seen = []

    class Watch(Callback):
        def on_train_epoch_end(self, rc):
            seen.append(dict(rc.original_args().metrics))

    with in_mode(ms.PYNATIVE_MODE):
        _, model = make_model(metrics={"acc"})
        model.fit(2, make_ds(), make_ds(), callbacks=[LossMonitor(6), Watch()])
    out = capsys.readouterr().out
    assert len(seen) == 2 and set(seen[0]) == {"acc"}
    assert f"Eval result: epoch 2, metrics: {seen[1]}" in out


# ---- DatasetHelper and connect_network_with_dataset (seed train.md's custom loop) -------------------------
def step_net():
    net = Net()
    loss_net = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
    return nn.TrainOneStepCell(loss_net, nn.Momentum(net.trainable_params(), 0.1, 0.9))


def test_custom_loop_with_sink_returns_one_loss_per_sink(device):
    with in_mode(ms.GRAPH_MODE):
        helper = DatasetHelper(make_ds(), dataset_sink_mode=True, sink_size=4, epoch_num=3)
        net = connect_network_with_dataset(step_net(), helper)
        net.set_train()
        outputs = []
        for _ in range(3):
            for inputs in helper:
                assert inputs == ()
                outputs.append(float(net(*inputs).asnumpy()))
        plain = step_net()
        plain.set_train()
        losses = [float(plain(*b).asnumpy()) for _ in range(2) for b in make_ds().create_tuple_iterator(num_epochs=1)]
    assert len(outputs) == 3
    np.testing.assert_allclose(outputs, [losses[3], losses[7], losses[11]], rtol=1e-6)
    assert helper.transfer_counts.as_dict() == dict(host_to_device=3, device_to_host=3, batches=12)
    assert helper.sink_size() == 4 and len(helper) == 1


def test_dataset_helper_without_sink_and_in_pynative(device):
    helper = DatasetHelper(make_ds(), dataset_sink_mode=False)
    batches = list(helper)
    assert len(batches) == 6 and batches[0][0].shape == (16, 4)
    assert len(list(helper)) == 6  # the next pass is the next epoch
    with pytest.raises(RuntimeError, match="sink mode"):
        connect_network_with_dataset(step_net(), helper)
    helper = DatasetHelper(make_ds(), dataset_sink_mode=True, sink_size=2)  # PYNATIVE: real batches
    net = step_net()
    assert connect_network_with_dataset(net, helper) is net
    assert [len(list(helper)) for _ in range(4)] == [2, 2, 2, 2]


def test_connected_network_needs_the_helper_to_send_first(device):
    with in_mode(ms.GRAPH_MODE):
        helper = DatasetHelper(make_ds(), dataset_sink_mode=True)
        net = connect_network_with_dataset(step_net(), helper)
        with pytest.raises(RuntimeError, match="queue is empty"):
            net()
        with pytest.raises(ValueError, match="another network"):
            connect_network_with_dataset(step_net(), helper)
        assert [p.name for p in net.trainable_params()] == ["fc.weight", "fc.bias"]


@pytest.mark.parametrize("manager", ["dynamic", "fixed_drop"])
def test_loss_scale_managers_that_skip_steps_are_refused_on_cpu(manager):
    """MindSpore 2.10 on CPU raises this at Model(...) (observed), also for amp_level="O2" without a manager."""
    from mslab.train.loss_scale_manager import DynamicLossScaleManager, FixedLossScaleManager
    mgr = {"dynamic": DynamicLossScaleManager(2 ** 10, 2, 50), "fixed_drop": FixedLossScaleManager(64.0)}[manager]
    net = Net()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    message = (r"Only `loss_scale_manager=None` or `loss_scale_manager=FixedLossScaleManager\(drop_overflow_update="
               r"False\)`are supported on device `CPU`")
    with pytest.raises(ValueError, match=message):
        Model(net, loss, nn.Momentum(net.trainable_params(), 0.1, 0.9), loss_scale_manager=mgr)
    with pytest.raises(ValueError, match=message), pytest.warns(UserWarning):
        Model(net, loss, nn.Momentum(net.trainable_params(), 0.1, 0.9), amp_level="O2")


@pytest.mark.parametrize("manager,cell", [("fixed", "TrainOneStepCell")])
def test_loss_scale_manager(manager, cell, capsys):
    from mslab.train.loss_scale_manager import FixedLossScaleManager
    mgr = FixedLossScaleManager(64.0, drop_overflow_update=False)
    net = Net()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9, loss_scale=64.0 if manager == "fixed" else 1.0)
    model = Model(net, loss, opt, loss_scale_manager=mgr)
    assert type(model.train_network).__name__ == cell
    model.train(1, make_ds(), callbacks=[LossMonitor()])
    _, plain = make_model()
    plain.train(1, make_ds(), callbacks=[LossMonitor()])
    out = capsys.readouterr().out.splitlines()
    scaled = [float(x.rsplit(" ", 1)[1]) for x in out[:6]]
    unscaled = [float(x.rsplit(" ", 1)[1]) for x in out[6:]]
    np.testing.assert_allclose(scaled, unscaled, rtol=1e-5)
