"""Metrics: clear / update / eval, set_indexes, the name table."""
import numpy as np
import pytest

import mslab.nn as nn
from mslab import Tensor
from mslab.train import metrics

LOGITS = Tensor(np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3], [0.1, 0.2, 0.7], [0.3, 0.4, 0.3]], np.float32))
LABELS = Tensor(np.array([1, 0, 1, 2], np.int32))


def test_accuracy_indices_and_one_hot():
    acc = nn.Accuracy("classification")
    acc.clear()
    acc.update(LOGITS, LABELS)
    assert acc.eval() == 0.5
    acc.update(LOGITS, Tensor(np.eye(3, dtype=np.float32)[[1, 0, 2, 1]]))  # one-hot labels are argmax-ed
    assert acc.eval() == 6 / 8
    acc.clear()
    with pytest.raises(RuntimeError, match="0"):
        acc.eval()


def test_accuracy_multilabel():
    acc = nn.Accuracy("multilabel")
    acc.update(np.array([[0.9, 0.2], [0.1, 0.8]]), np.array([[1, 0], [1, 1]]))
    assert acc.eval() == 0.5


def test_mae_mse_sum_over_batch_divided_by_samples():
    y_pred = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    y = Tensor(np.array([[1.5, 2.0], [2.0, 6.0]], np.float32))
    mae, mse = nn.MAE(), nn.MSE()
    mae.update(y_pred, y)
    mse.update(y_pred, y)
    assert mae.eval() == pytest.approx((0.5 + 1.0 + 2.0) / 2)
    assert mse.eval() == pytest.approx((0.25 + 1.0 + 4.0) / 2)
    mae.update(y_pred, y_pred)
    assert mae.eval() == pytest.approx(3.5 / 4)


def test_loss_is_the_mean_of_updates():
    loss = nn.Loss()
    loss.update(Tensor(np.array(2.0, np.float32)))
    loss.update(Tensor(np.array([1.0, 3.0, 5.0], np.float32)))
    assert loss.eval() == pytest.approx((2.0 + 3.0) / 2)
    with pytest.raises(ValueError):
        loss.update(Tensor(np.ones((2, 2), np.float32)))


def test_top_k():
    top1, top2 = nn.Top1CategoricalAccuracy(), nn.TopKCategoricalAccuracy(2)
    for m in (top1, top2):
        m.update(LOGITS, LABELS)
    assert top1.eval() == 0.5
    assert top2.eval() == 0.75  # sample 2 (label 1) has 0.2 as its second score
    top5 = nn.Top5CategoricalAccuracy()
    top5.update(np.random.default_rng(0).standard_normal((4, 5)), np.array([0, 1, 2, 3]))
    assert top5.eval() == 1.0


def test_precision_recall():
    p, r = nn.Precision("classification"), nn.Recall("classification")
    for m in (p, r):
        m.update(LOGITS, LABELS)
    # predicted: 1, 0, 2, 1; true: 1, 0, 1, 2
    np.testing.assert_allclose(p.eval(), [1.0, 0.5, 0.0])
    np.testing.assert_allclose(r.eval(), [1.0, 0.5, 0.0])
    assert p.eval(average=True) == pytest.approx(0.5)


def test_set_indexes_picks_eval_outputs():
    mae = nn.MAE().set_indexes([1, 2])
    loss_value = Tensor(np.array(9.0))
    outputs, label = Tensor(np.array([[1.0], [2.0]])), Tensor(np.array([[2.0], [2.0]]))
    mae.update(loss_value, outputs, label)
    assert mae.eval() == pytest.approx(0.5)
    loss = nn.Loss().set_indexes([0])
    loss.update(loss_value, outputs, label)
    assert loss.eval() == 9.0
    with pytest.raises(ValueError):
        nn.MAE().set_indexes("1")


def test_call_is_clear_update_eval():
    acc = nn.Accuracy()
    acc.update(LOGITS, LABELS)
    assert acc(LOGITS, Tensor(np.array([1, 0, 2, 1]))) == 1.0


def test_name_table():
    for name, cls in [("acc", nn.Accuracy), ("accuracy", nn.Accuracy), ("loss", nn.Loss), ("mae", nn.MAE),
                      ("mse", nn.MSE), ("top_1_accuracy", nn.Top1CategoricalAccuracy),
                      ("top_5_accuracy", nn.Top5CategoricalAccuracy)]:
        assert type(metrics.get_metric_fn(name)) is cls
    with pytest.raises(KeyError, match="acc"):
        metrics.get_metric_fn("accurracy")
    got = metrics.get_metrics({"acc", "loss"})
    assert set(got) == {"acc", "loss"} and isinstance(got["loss"], nn.Loss)
    mine = nn.MAE()
    assert metrics.get_metrics({"m": mine})["m"] is mine
    from mslab.nn.metrics import Accuracy  # the 1.x import path
    assert Accuracy is nn.Accuracy
