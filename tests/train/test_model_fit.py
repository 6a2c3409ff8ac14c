"""Model.fit's validation, datasets and checkpoint directories as in MindSpore 2.10 (observed on
MindSpore 2.10 CPU: fidelity.md §8 and the checks noted at each test)."""
import os

import numpy as np
import pytest

import mslab.dataset as ds
from mslab import nn
from mslab.train import Callback, Model, ModelCheckpoint, TimeMonitor

X = np.random.RandomState(0).randn(8, 2).astype(np.float32)
Y = np.random.RandomState(1).randn(8, 1).astype(np.float32)


def data():
    return ds.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False).batch(4)


class Recorder(Callback):
    def __init__(self):
        super().__init__()
        self.seen = []

    def _note(self, name, run_context):
        cb = run_context.original_args()
        self.seen.append((name, cb.cur_epoch_num, cb.cur_step_num, cb.get("mode"),
                          dict(cb["eval_results"]) if "eval_results" in cb else None))

    def on_train_epoch_end(self, rc): self._note("on_train_epoch_end", rc)
    def on_eval_begin(self, rc): self._note("on_eval_begin", rc)
    def on_eval_step_end(self, rc): self._note("on_eval_step_end", rc)
    def on_eval_end(self, rc): self._note("on_eval_end", rc)


def test_fit_runs_the_users_eval_callbacks_and_reports_eval_loss():
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01), metrics={"mae": nn.MAE()})
    rec = Recorder()
    model.fit(2, data(), data(), callbacks=[rec])
    names = [(n, e, s) for n, e, s, _, _ in rec.seen]
    # observed on MindSpore 2.10 CPU: per epoch eval begin (step 0), two eval steps, eval end, train epoch end
    assert names == [("on_eval_begin", 1, 0), ("on_eval_step_end", 1, 1), ("on_eval_step_end", 1, 2),
                     ("on_eval_end", 1, 2), ("on_train_epoch_end", 1, 2),
                     ("on_eval_begin", 2, 0), ("on_eval_step_end", 2, 1), ("on_eval_step_end", 2, 2),
                     ("on_eval_end", 2, 2), ("on_train_epoch_end", 2, 4)]
    assert rec.seen[0][3] == "eval" and rec.seen[4][3] == "train"
    assert rec.seen[5][4] is None  # epoch 2's evaluation no longer sees epoch 1's results
    # observed on MindSpore 2.10 CPU; eval_loss is the LAST validation batch's loss (4.48089, then 4.35345)
    for (_, _, _, _, got), want in zip([rec.seen[3], rec.seen[8]], [
            {"mae": 1.731215476989746, "eval_loss": 4.353446006774902},
            {"mae": 1.654478907585144, "eval_loss": 4.094127655029297}]):
        assert got.keys() == want.keys()
        for k in want:
            assert got[k] == pytest.approx(want[k], rel=1e-6)


@pytest.mark.parametrize("frequency, evals", [(2, 1), (1, 2), ([1], 1), (3, 0)])
def test_fit_validates_when_valid_frequency_says(frequency, evals):
    net = nn.Dense(2, 1)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01), metrics={"mae": nn.MAE()})
    rec = Recorder()
    model.fit(2, data(), data(), valid_frequency=frequency, callbacks=[rec, TimeMonitor()])
    assert sum(n == "on_eval_end" for n, *_ in rec.seen) == evals  # MindSpore: epoch % frequency == 0 or in a list


def test_fit_without_metrics_is_refused_with_mindspores_message():
    net = nn.Dense(2, 1)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01))
    with pytest.raises(ValueError, match="if valid_dataset is not None, the model argument 'metrics' can not"):
        model.fit(1, data(), data())


def test_generator_dataset_needs_column_names():
    def source():
        for i in range(4):
            yield (np.array([i], np.float32),)
    # observed on MindSpore 2.10 CPU, for the function and for a generator object
    for src in (source, source()):
        with pytest.raises(ValueError, match="^Neither columns_names nor schema are provided.$"):
            ds.GeneratorDataset(src)


def test_one_dataset_trains_one_model():
    d = data()
    net = nn.Dense(2, 1)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01))
    model.train(1, d)
    model.train(2, d)  # the same Model again: allowed (observed: 8 steps the second time)
    other = nn.Dense(2, 1)
    # observed on MindSpore 2.10 CPU, both modes, with and without sink
    with pytest.raises(RuntimeError, match=r"The dataset object had been used in other model by model.train\(\.\.\.\), "
                                           r"please create a new dataset."):
        Model(other, nn.MSELoss(), nn.SGD(other.trainable_params(), 0.01)).train(1, d)


def test_model_checkpoint_creates_its_directory_at_construction(tmp_path):
    target = tmp_path / "x" / "newdir"
    ModelCheckpoint(prefix="net", directory=str(target))
    assert os.path.isdir(target)  # observed on MindSpore 2.10 CPU: exists right after construction
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(ValueError, match="cannot create the directory"):
        ModelCheckpoint(directory=str(blocker / "sub"))
