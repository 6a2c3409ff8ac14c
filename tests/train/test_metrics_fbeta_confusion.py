"""F1 / Fbeta and ConfusionMatrix with MindSpore's numbers (observed on MindSpore 2.10 CPU:
docs/mindspore_observed/fidelity.md section 7; the checks noted beside a test are in
api_additions.md section 5)."""
import numpy as np
import pytest

import mslab as ms
from mslab import Tensor, nn

X = Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]], np.float32))
Y = Tensor(np.array([1, 0, 1], np.int32))


def test_f1_and_fbeta():
    f1 = nn.F1()
    f1.clear()
    f1.update(X, Y)
    np.testing.assert_allclose(f1.eval(), [0.66666667, 0.66666667])
    avg = f1.eval(average=True)
    assert isinstance(avg, np.float64) and abs(avg - 0.6666666666666666) < 1e-15
    fb = nn.Fbeta(2)
    fb.clear()
    fb.update(X, Y)
    np.testing.assert_allclose(fb.eval(), [0.83333333, 0.55555556])
    onehot = nn.F1()                                         # one-hot labels give the same (checked on 2.10)
    onehot.update(X, Tensor(np.array([[0, 1], [1, 0], [0, 1]], np.int32)))
    np.testing.assert_allclose(onehot.eval(), [0.66666667, 0.66666667])
    assert ms.train.F1 is nn.F1 and type(ms.train.get_metric_fn("F1")) is nn.F1


def test_fbeta_errors():
    with pytest.raises(ValueError, match="'beta' must be greater than 0, but got 0"):
        nn.Fbeta(0)
    with pytest.raises(RuntimeError, match="number of samples is 0"):
        nn.F1().eval()


def test_confusion_matrix():
    cm = nn.ConfusionMatrix(num_classes=2)
    cm.clear()
    cm.update(Tensor(np.array([1, 0, 1, 0], np.int32)), Tensor(np.array([1, 0, 0, 1], np.int32)))
    r = cm.eval()
    assert r.dtype == np.float64 and r.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    # checked on MindSpore 2.10 CPU: rows are the labels, columns the predictions; empty rows give 0s
    p, y = Tensor(np.array([1, 1, 1, 0, 2], np.int32)), Tensor(np.array([0, 1, 1, 0, 1], np.int32))
    want = {"no_norm": [[1, 1, 0], [0, 2, 1], [0, 0, 0]],
            "target": [[0.5, 0.5, 0], [0, 2 / 3, 1 / 3], [0, 0, 0]],
            "prediction": [[1, 1 / 3, 0], [0, 2 / 3, 1], [0, 0, 0]],
            "all": [[0.2, 0.2, 0], [0, 0.4, 0.2], [0, 0, 0]]}
    for norm, expected in want.items():
        cm = nn.ConfusionMatrix(3, normalize=norm)
        cm.update(p, y)
        np.testing.assert_allclose(cm.eval(), expected, rtol=1e-15)
    cm = nn.ConfusionMatrix(2)                               # scores are argmax-ed over axis 1
    cm.update(Tensor(np.array([[0.2, 0.8], [0.9, 0.1]], np.float32)), Tensor(np.array([1, 1], np.int32)))
    assert cm.eval().tolist() == [[0, 0], [1, 1]]
    cm = nn.ConfusionMatrix(2, threshold=0.3)                # probabilities are thresholded
    cm.update(Tensor(np.array([0.2, 0.4], np.float32)), Tensor(np.array([1, 1], np.int32)))
    assert cm.eval().tolist() == [[0, 0], [1, 1]]


def test_confusion_matrix_errors():
    with pytest.raises(ValueError, match="'normalize' must be in"):
        nn.ConfusionMatrix(2, normalize="x")
    with pytest.raises(RuntimeError, match="call the 'update' method before"):
        nn.ConfusionMatrix(2).eval()
    with pytest.raises(ValueError, match=r"classes must be in \[0, 2\)"):
        nn.ConfusionMatrix(2).update(Tensor(np.array([3], np.int32)), Tensor(np.array([1], np.int32)))
