"""Metrics as MindSpore 2.10 computes them (observed on MindSpore 2.10 CPU, fidelity.md §6-7 and the
checks noted at each test)."""
import numpy as np
import pytest

from mslab import Tensor, nn

Y_PRED = Tensor(np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]], np.float32))
Y = Tensor(np.array([[0, 1, 0], [1, 0, 1], [0, 1, 1]], np.int32))
Y_PRED2 = Tensor(np.array([[1, 1, 0], [1, 0, 1]], np.float32))
Y2 = Tensor(np.array([[1, 0, 0], [1, 1, 1]], np.int32))


@pytest.mark.parametrize("cls, first, first_avg, second, second_avg, both, both_avg", [
    # observed on MindSpore 2.10 CPU
    (nn.Precision, [0.5, 1, 0.5], 0.6666666666666666, [0.5, 1], 0.75, [0.5, 1, 0.5, 1, 0.5], 0.7),
    (nn.Recall, [1, 1, 0.5], 0.8333333333333334, [1, 0.66666667], 0.8333333333333333,
     [1, 0.66666667, 1, 1, 0.5], 0.8333333333333333)])
def test_multilabel_precision_recall_are_per_sample(cls, first, first_avg, second, second_avg, both, both_avg):
    m = cls("multilabel")
    m.clear()
    m.update(Y_PRED, Y)
    np.testing.assert_allclose(m.eval(), first, rtol=1e-7)
    assert m.eval(average=True) == pytest.approx(first_avg, rel=1e-12)
    m.clear()
    m.update(Y_PRED2, Y2)
    np.testing.assert_allclose(m.eval(), second, rtol=1e-7)
    assert m.eval(average=True) == pytest.approx(second_avg, rel=1e-12)
    m.update(Y_PRED, Y)  # a second update appends its samples
    np.testing.assert_allclose(m.eval(), both, rtol=1e-7)
    assert m.eval(average=True) == pytest.approx(both_avg, rel=1e-12)


def test_classification_precision_recall_unchanged():
    x = Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]], np.float32))
    y = Tensor(np.array([1, 0, 1], np.int32))
    p, r = nn.Precision("classification"), nn.Recall("classification")
    for m in (p, r):
        m.clear()
        m.update(x, y)
    np.testing.assert_allclose(p.eval(), [0.5, 1.0])  # observed on MindSpore 2.10 CPU
    np.testing.assert_allclose(r.eval(), [1.0, 0.5])
    assert isinstance(p.eval(average=True), np.float64) and p.eval(average=True) == 0.75


def test_scalar_metrics_return_numpy_float64():
    x = Tensor(np.array([[0.2, 0.8], [0.9, 0.1], [0.3, 0.7]], np.float32))
    y = Tensor(np.array([1, 1, 1], np.int32))
    # observed on MindSpore 2.10 CPU: 0.6666666666666666 <class 'numpy.float64'> for each
    for m in (nn.Accuracy(), nn.TopKCategoricalAccuracy(1), nn.Top1CategoricalAccuracy()):
        m.clear()
        m.update(x, y)
        r = m.eval()
        assert isinstance(r, np.float64) and r == pytest.approx(2 / 3), type(m).__name__
    a, b = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([1.5, 2.0], np.float32))
    for m, want in ((nn.MAE(), 0.25), (nn.MSE(), 0.125)):  # observed: 0.25 and 0.125, numpy.float64
        m.clear()
        m.update(a, b)
        assert isinstance(m.eval(), np.float64) and m.eval() == want
    loss = nn.Loss()
    loss.clear()
    loss.update(Tensor(np.array(0.5, np.float32)))
    loss.update(Tensor(np.array(0.25, np.float32)))
    assert isinstance(loss.eval(), np.float64) and loss.eval() == 0.375  # observed: 0.375 numpy.float64


def test_metric_numbers_print_bare_as_mindspore_users_see_them():
    # MindSpore 2.10 (numpy 1.26) printed {'Accuracy': 0.6666666666666666} for this batch, a numpy.float64.
    acc = nn.Accuracy()
    scores = Tensor(np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]], np.float32))
    acc.update(scores, Tensor(np.array([1, 0, 0], np.int32)))
    result = {"Accuracy": acc.eval()}
    assert isinstance(result["Accuracy"], np.float64)
    assert repr(result) == "{'Accuracy': 0.6666666666666666}"
    assert repr({"Accuracy": round(result["Accuracy"], 4)}) == "{'Accuracy': 0.6667}"  # numpy 1.26: the same
    assert round(result["Accuracy"]) == 1 and type(round(result["Accuracy"])) is int
