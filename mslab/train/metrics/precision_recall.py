"""Precision and Recall per class (``mindspore.train.Precision``, ``Recall``).

With predicted classes ``p`` (argmax) and true classes ``t``, for each class c:
precision = TP / predicted-as-c, recall = TP / actually-c. ``eval(average=True)`` averages the classes.

``eval_type='multilabel'`` (0/1 labels of shape (N, C)) counts per *sample*, as MindSpore does: for each
row, precision = TP / labels predicted, recall = TP / labels present; ``eval()`` gives one value per
sample seen (over every update), ``eval(average=True)`` their mean.
"""
import sys

import numpy as np

from mslab.train.metrics.metric import Metric, MetricValue, labels_from, rearrange_inputs


def _one_hot(indices, n):
    out = np.zeros((indices.shape[0], n))
    out[np.arange(indices.shape[0]), indices.astype(np.int64)] = 1
    return out


class _PR(Metric):
    def __init__(self, eval_type="classification"):
        super().__init__()
        if eval_type not in ("classification", "multilabel"):
            raise ValueError(f"{type(self).__name__}: eval_type must be 'classification' or 'multilabel'")
        self.eval_type = eval_type
        self.eps = sys.float_info.min
        self.clear()

    def clear(self):
        self._class_num = 0
        start = np.zeros(0) if self.eval_type == "multilabel" else 0  # per-sample entries are appended
        self._true_positives = start
        self._denominator = start

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._prediction_and_label(inputs)
        n = y_pred.shape[1]
        if self.eval_type == "classification":
            y_oh = _one_hot(labels_from(y_pred, y), n)
            p_oh = _one_hot(np.argmax(y_pred, axis=1), n)
        else:
            y_oh, p_oh = y.astype(np.float64), np.round(y_pred).astype(np.float64)
        if self._class_num == 0:
            self._class_num = n
        elif self._class_num != n:
            raise ValueError(f"{type(self).__name__}: {n} classes now but {self._class_num} before")
        if self.eval_type == "multilabel":  # one entry per sample, appended
            self._true_positives = np.concatenate([self._true_positives, (p_oh * y_oh).sum(axis=1)])
            self._denominator = np.concatenate([self._denominator, self._count(p_oh.T, y_oh.T)])
        else:  # one entry per class, summed
            self._true_positives = self._true_positives + (p_oh * y_oh).sum(axis=0)
            self._denominator = self._denominator + self._count(p_oh, y_oh)

    def eval(self, average=False):
        if self._class_num == 0:
            raise RuntimeError(f"{type(self).__name__}: call update before eval")
        result = self._true_positives / (self._denominator + self.eps)
        return MetricValue(result.mean()) if average else result


class Precision(_PR):
    """TP / (TP + FP) per class: of the samples predicted as c, how many are c."""

    @staticmethod
    def _count(p_oh, y_oh):
        return p_oh.sum(axis=0)


class Recall(_PR):
    """TP / (TP + FN) per class: of the samples that are c, how many were found."""

    @staticmethod
    def _count(p_oh, y_oh):
        return y_oh.sum(axis=0)
