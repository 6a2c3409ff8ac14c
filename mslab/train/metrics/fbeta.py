"""Fbeta and F1 per class (``mindspore.train.Fbeta``, ``F1``).

With predicted classes (argmax of y_pred) and true classes, for each class c::

    F_beta = (1 + beta^2) TP / (beta^2 (TP + FN) + (TP + FP))      F1 is beta = 1

``eval(average=True)`` averages the classes (a numpy float64, as MindSpore 2.10 returns).
"""
import sys

import numpy as np

from mslab.train.metrics.metric import Metric, MetricValue, labels_from, rearrange_inputs


class Fbeta(Metric):
    """``Fbeta(beta)``: the weighted harmonic mean of precision and recall, per class."""

    def __init__(self, beta):
        super().__init__()
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or beta <= 0:
            raise ValueError(f"For 'Fbeta', the argument 'beta' must be greater than 0, but got {beta}.")
        self.beta = beta
        self.eps = sys.float_info.min
        self.clear()

    def clear(self):
        self._class_num = 0
        self._true_positives = 0
        self._actual_positives = 0
        self._positives = 0

    @rearrange_inputs
    def update(self, *inputs):
        """``update(y_pred, y)``: scores (N, C) and class indices (N,) or one-hot labels (N, C)."""
        y_pred, y = self._prediction_and_label(inputs)
        if y_pred.ndim != 2:
            raise ValueError(f"Fbeta.update: y_pred must be scores of shape (N, C), got shape {y_pred.shape}")
        n = y_pred.shape[1]
        if self._class_num == 0:
            self._class_num = n
        elif self._class_num != n:
            raise ValueError(f"Fbeta: {n} classes now but {self._class_num} before")
        eye = np.eye(n)
        y_oh = eye[labels_from(y_pred, y).astype(np.int64)]
        p_oh = eye[np.argmax(y_pred, axis=1)]
        self._true_positives = self._true_positives + (y_oh * p_oh).sum(axis=0)
        self._actual_positives = self._actual_positives + y_oh.sum(axis=0)
        self._positives = self._positives + p_oh.sum(axis=0)

    def eval(self, average=False):
        if self._class_num == 0:
            raise RuntimeError("The 'Fbeta' can not be calculated, because the number of samples is 0, please check "
                               "whether your inputs(predicted value, true value) are empty, or has called update "
                               "method before calling eval method.")
        b2 = self.beta ** 2
        result = (1 + b2) * self._true_positives / (b2 * self._actual_positives + self._positives + self.eps)
        return MetricValue(result.mean()) if average else result


class F1(Fbeta):
    """``F1()``: Fbeta with beta = 1, the harmonic mean of precision and recall."""

    def __init__(self):
        super().__init__(1.0)
