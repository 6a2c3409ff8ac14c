"""Callbacks: LossMonitor format and NaN stop, 1.x hook names, RunContext, ModelCheckpoint, LR scheduler,
EarlyStopping, History, TimeMonitor, ProgressBar."""
import io
import os
import re

import numpy as np
import pytest

import mslab as ms
import mslab.dataset as ds
import mslab.nn as nn
from mslab import Tensor
from mslab.testing import in_mode
from mslab.train import Model, load_checkpoint
from mslab.train.callback import (
    Callback,
    CheckpointConfig,
    EarlyStopping,
    History,
    LearningRateScheduler,
    LossMonitor,
    ModelCheckpoint,
    ProgressBar,
    RunContext,
    TimeMonitor,
)
from mslab.train.callback._callback import CallbackParams

f32 = np.float32
RNG = np.random.default_rng(7)
X = RNG.standard_normal((96, 4)).astype(f32)
Y = (X @ RNG.standard_normal((4, 3)).astype(f32)).argmax(1).astype(np.int32)


def make_ds():
    return ds.NumpySlicesDataset({"data": X, "label": Y}, shuffle=False).batch(16)  # 6 batches


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        w = np.arange(12, dtype=f32).reshape(3, 4) / 100
        self.fc = nn.Dense(4, 3, Tensor(w), Tensor(np.zeros(3, f32)))

    def construct(self, x):
        return self.fc(x)


def make_model(lr=0.1, opt="momentum", metrics=None):
    net = Net()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    if opt == "momentum":
        optimizer = nn.Momentum(net.trainable_params(), lr, 0.9)
    else:
        optimizer = nn.SGD(net.trainable_params(), lr)
    return net, Model(net, loss, optimizer, metrics=metrics)


def context_with(**params):
    return RunContext(CallbackParams(**params))


# ---- cb_params and RunContext ------------------------------------------------------------------------------
def test_cb_params_are_attributes_and_dict_items():
    cb = CallbackParams(cur_step_num=3)
    cb.batch_num = 6
    assert cb["batch_num"] == 6 and cb.cur_step_num == 3 and cb.get("missing") is None
    with pytest.raises(AttributeError, match="cur_step_num"):
        getattr(cb, "nope")  # noqa: B009
    rc = RunContext(cb)
    assert rc.original_args() is cb and not rc.get_stop_requested()
    rc.request_stop()
    assert rc.get_stop_requested()
    with pytest.raises(TypeError):
        RunContext(3)


def test_cb_params_hold_what_model_promises():
    seen = {}

    class Look(Callback):
        def on_train_step_end(self, rc):
            seen.update(rc.original_args())

    net, model = make_model()
    dataset = make_ds()
    model.train(1, dataset, callbacks=Look())
    for key in ("cur_epoch_num", "cur_step_num", "batch_num", "epoch_num", "net_outputs", "train_network",
                "optimizer", "loss_fn", "train_dataset", "train_dataset_element", "mode", "dataset_sink_mode"):
        assert key in seen, key
    assert seen["batch_num"] == 6 and seen["epoch_num"] == 1 and seen["mode"] == "train"
    assert seen["train_network"] is model.train_network and seen["train_dataset"] is dataset
    assert seen["dataset_sink_mode"] is False and len(seen["train_dataset_element"]) == 2


# ---- LossMonitor -------------------------------------------------------------------------------------------
def test_loss_monitor_exact_format(capsys):
    loss = Tensor(np.array(1.84494149684906, f32))
    rc = context_with(cur_epoch_num=1, cur_step_num=8, batch_num=6, net_outputs=loss, dataset_sink_mode=False)
    LossMonitor().on_train_step_end(rc)
    assert capsys.readouterr().out == f"epoch: 1 step: 2, loss is {float(np.float32(1.84494149684906))}\n"
    rc = context_with(cur_epoch_num=1, cur_step_num=1, batch_num=6, net_outputs=(loss, Tensor(False)))
    LossMonitor().on_train_step_end(rc)  # a (loss, overflow, scale) tuple prints its loss
    assert capsys.readouterr().out.startswith("epoch: 1 step: 1, loss is 1.844941")


def test_loss_monitor_through_model(capsys):
    _, model = make_model()
    model.train(2, make_ds(), callbacks=[LossMonitor()])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 12
    assert [re.match(r"epoch: (\d) step: (\d), loss is ([0-9.e-]+)$", x).groups()[:2] for x in lines] == \
        [(str(e), str(s)) for e in (1, 2) for s in range(1, 7)]


def test_loss_monitor_per_print_times_and_sink(capsys, device):
    _, model = make_model()
    model.train(1, make_ds(), callbacks=[LossMonitor(per_print_times=2)])
    assert [x.split(",")[0] for x in capsys.readouterr().out.splitlines()] == \
        ["epoch: 1 step: 2", "epoch: 1 step: 4", "epoch: 1 step: 6"]
    with in_mode(ms.GRAPH_MODE):
        _, model = make_model()
        model.train(3, make_ds(), callbacks=[LossMonitor()], dataset_sink_mode=True, sink_size=4)
    assert [x.split(",")[0] for x in capsys.readouterr().out.splitlines()] == \
        ["epoch: 1 step: 4", "epoch: 2 step: 4", "epoch: 3 step: 4"]
    with pytest.raises(ValueError):
        LossMonitor(-1)


class NanStep(Net):
    def __init__(self, bad):
        super().__init__()
        self.calls, self.bad = 0, bad

    def __call__(self, *inputs):
        self.calls += 1
        return super().__call__(*inputs)

    def construct(self, x, y):
        loss = (self.fc(x) * 0.0).mean()
        return loss + float("inf") if self.calls >= self.bad else loss


def test_nan_or_inf_loss_stops_training_with_epoch_and_step(capsys):
    rc = context_with(cur_epoch_num=2, cur_step_num=9, batch_num=6, net_outputs=Tensor(np.array(np.nan, f32)))
    with pytest.raises(ValueError, match=r"epoch: 2 step: 3\. Invalid loss"):
        LossMonitor().on_train_step_end(rc)
    step = NanStep(bad=9)
    with pytest.raises(ValueError, match=r"epoch: 2 step: 3\. Invalid loss"):
        Model(step).train(3, make_ds(), callbacks=[LossMonitor()])
    assert step.calls == 9


# ---- hook names --------------------------------------------------------------------------------------------
def test_callbacks_with_only_1x_names_are_called():
    class Old(Callback):
        def __init__(self):
            self.calls = []

        def begin(self, rc): self.calls.append("begin")
        def epoch_begin(self, rc): self.calls.append("epoch_begin")
        def step_begin(self, rc): self.calls.append("step_begin")
        def step_end(self, rc): self.calls.append("step_end")
        def epoch_end(self, rc): self.calls.append("epoch_end")
        def end(self, rc): self.calls.append("end")

    old = Old()
    _, model = make_model(metrics={"acc"})
    model.train(2, make_ds(), callbacks=[old])
    per_epoch = ["epoch_begin"] + ["step_begin", "step_end"] * 6 + ["epoch_end"]
    assert old.calls == ["begin"] + per_epoch * 2 + ["end"]
    old.calls.clear()
    model.eval(make_ds(), callbacks=[old])  # MindSpore routes on_eval_* to the same 1.x names
    assert old.calls == ["begin"] + per_epoch + ["end"]


def test_request_stop_from_epoch_end():
    class StopAfterTwo(Callback):
        def epoch_end(self, rc):
            if rc.original_args().cur_epoch_num == 2:
                rc.request_stop()

    hist = History()
    _, model = make_model()
    model.train(5, make_ds(), callbacks=[StopAfterTwo(), hist])
    assert hist.epoch == {"epoch": [1, 2]}


# ---- ModelCheckpoint ---------------------------------------------------------------------------------------
def ckpts(directory):
    return sorted(f for f in os.listdir(directory) if f.endswith(".ckpt"))


def test_model_checkpoint_naming_and_keep_max(tmp_path):
    net, model = make_model()
    cfg = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=2)
    cb = ModelCheckpoint(prefix="lenet", directory=str(tmp_path), config=cfg)
    model.train(2, make_ds(), callbacks=[cb])
    assert ckpts(tmp_path) == ["lenet-2_4.ckpt", "lenet-2_6.ckpt"]
    assert cb.latest_ckpt_file_name == str(tmp_path / "lenet-2_6.ckpt")
    params = load_checkpoint(cb.latest_ckpt_file_name)
    np.testing.assert_array_equal(params["fc.weight"].asnumpy(), net.fc.weight.asnumpy())
    assert "moments.fc.weight" in params  # the training network's optimizer state is saved too
    # a second run in the same directory does not overwrite: the prefix becomes lenet_1
    cb2 = ModelCheckpoint(prefix="lenet", directory=str(tmp_path), config=cfg)
    make_model()[1].train(1, make_ds(), callbacks=[cb2])
    assert ckpts(tmp_path) == ["lenet-2_4.ckpt", "lenet-2_6.ckpt", "lenet_1-1_4.ckpt", "lenet_1-1_6.ckpt"]
    assert cb2.prefix == "lenet_1"


def test_model_checkpoint_saves_the_last_step_and_in_sink_mode(tmp_path, device):
    _, model = make_model()
    model.train(1, make_ds(), callbacks=[ModelCheckpoint(directory=str(tmp_path / "a"),
                                                         config=CheckpointConfig(save_checkpoint_steps=4))])
    assert ckpts(tmp_path / "a") == ["CKP-1_4.ckpt", "CKP-1_6.ckpt"]
    with in_mode(ms.GRAPH_MODE):
        _, model = make_model()
        model.train(3, make_ds(), callbacks=[ModelCheckpoint(directory=str(tmp_path / "b"))],
                    dataset_sink_mode=True, sink_size=2)
    assert ckpts(tmp_path / "b") == ["CKP-1_2.ckpt", "CKP-2_2.ckpt", "CKP-3_2.ckpt"]


def test_checkpoint_config_checks():
    with pytest.raises(ValueError, match="cannot all be 0"):
        CheckpointConfig(save_checkpoint_steps=0, keep_checkpoint_max=0, keep_checkpoint_per_n_minutes=0)
    with pytest.raises(ValueError):
        CheckpointConfig(save_checkpoint_steps=-1)
    cfg = CheckpointConfig(save_checkpoint_steps=10, save_checkpoint_seconds=5)
    assert cfg.save_checkpoint_seconds is None and cfg.get_checkpoint_policy()["save_checkpoint_steps"] == 10
    with pytest.raises(TypeError):
        ModelCheckpoint(config={"save_checkpoint_steps": 1})


# ---- LearningRateScheduler ---------------------------------------------------------------------------------
def halve_every_two(lr, step):
    return lr * 0.5 if step % 2 == 0 else lr


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_learning_rate_scheduler_changes_the_rate_the_steps_use(mode, capsys):
    with in_mode(mode):
        net, model = make_model(lr=0.2, opt="sgd")
        model.train(1, make_ds(), callbacks=[LearningRateScheduler(halve_every_two)])
    assert float(model._optimizer.learning_rate.asnumpy()) == pytest.approx(0.025)
    # MindSpore 2.10 logs the change at INFO level: nothing at the default level (GLOG_v=2)
    assert "learning_rate change" not in capsys.readouterr().out
    # the same by hand
    ref = Net()
    step = nn.TrainOneStepCell(nn.WithLossCell(ref, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")),
                               nn.SGD(ref.trainable_params(), 0.2))
    step.set_train()
    lr = 0.2
    for i, (x, y) in enumerate(make_ds().create_tuple_iterator(num_epochs=1), start=1):
        step(x, y)
        lr = halve_every_two(lr, i)
        step.optimizer.learning_rate.set_data(np.asarray(lr, f32))
    np.testing.assert_allclose(net.fc.weight.asnumpy(), ref.fc.weight.asnumpy(), rtol=1e-6)


# ---- EarlyStopping and History ---------------------------------------------------------------------------
def test_early_stopping_on_a_loss_that_stops_improving(capsys):
    net, model = make_model(lr=0.0, opt="sgd")  # the loss never changes
    hist = History()
    stop = EarlyStopping(monitor="loss", patience=2, verbose=True)
    model.train(10, make_ds(), callbacks=[stop, hist])
    assert hist.epoch["epoch"] == [1, 2, 3] and stop.stopped_epoch == 3
    assert "Epoch 00003: early stopping" in capsys.readouterr().out


def test_early_stopping_on_eval_results_from_fit():
    _, model = make_model(lr=0.0, opt="sgd", metrics={"loss", "acc"})
    hist = History()
    model.fit(10, make_ds(), make_ds(), callbacks=[EarlyStopping(patience=1), hist])  # monitor='eval_loss'
    assert hist.epoch["epoch"] == [1, 2]
    assert set(hist.history) == {"net_output", "loss", "acc"} and len(hist.history["acc"]) == 2
    _, model = make_model(lr=0.1)
    stop = EarlyStopping(monitor="acc", patience=1, mode="auto")
    assert stop.mode == "max"


def test_history_records_the_last_loss_of_each_epoch(capsys):
    _, model = make_model()
    hist = History()
    model.train(3, make_ds(), callbacks=[LossMonitor(), hist])
    printed = [float(x.rsplit(" ", 1)[1]) for x in capsys.readouterr().out.splitlines()]
    assert hist.history["net_output"] == [printed[5], printed[11], printed[17]]
    assert hist.epoch == {"epoch": [1, 2, 3]}


# ---- TimeMonitor and ProgressBar ---------------------------------------------------------------------------
def test_time_monitor_prints_epoch_and_step_times(capsys):
    _, model = make_model()
    model.train(2, make_ds(), callbacks=[TimeMonitor()])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert all(re.fullmatch(r"Train epoch time: [0-9.]+ ms, per step time: [0-9.]+ ms", x) for x in lines)


def test_progress_bar_text_fallback():
    buf = io.StringIO()
    _, model = make_model()
    model.train(2, make_ds(), callbacks=[ProgressBar(use_tqdm=False, file=buf)])
    text = buf.getvalue()
    assert "epoch 1/2 [####################] 6/6" in text and "epoch 2/2" in text and "loss " in text
    assert text.count("\n") == 2
    with in_mode(ms.GRAPH_MODE):
        buf = io.StringIO()
        make_model()[1].train(2, make_ds(), callbacks=[ProgressBar(use_tqdm=False, file=buf)],
                              dataset_sink_mode=True)
    assert "epoch 2/2 [####################] 6/6" in buf.getvalue()


def test_import_paths_of_mindspore_1x_and_2x():
    import mslab.train.callback as cb_1x
    import mslab.train.dataset_helper as helper_1x
    import mslab.train.model as model_1x
    for name in ("Callback", "RunContext", "LossMonitor", "TimeMonitor", "ModelCheckpoint", "CheckpointConfig",
                 "LearningRateScheduler", "EarlyStopping", "History"):
        assert getattr(ms, name) is getattr(ms.train, name) is getattr(cb_1x, name)
    assert ms.Model is ms.train.Model is model_1x.Model
    assert ms.DatasetHelper is helper_1x.DatasetHelper
    assert ms.connect_network_with_dataset is helper_1x.connect_network_with_dataset
