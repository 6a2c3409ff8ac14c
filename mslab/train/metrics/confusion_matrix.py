"""ConfusionMatrix (``mindspore.train.ConfusionMatrix``): counts of (true class, predicted class) pairs.

Row i, column j counts the samples of true class i predicted as class j. Scores of shape (N, C, ...)
are argmax-ed over axis 1; floating-point predictions of the label's shape are thresholded
(``>= threshold`` is class 1). ``normalize`` divides by the row sums ('target'), the column sums
('prediction') or the total ('all'); a row or column with no samples gives 0s, as MindSpore's output.
"""
import numpy as np

from mslab.train.metrics.metric import Metric, rearrange_inputs

_NORMALIZE = ("target", "prediction", "all", "no_norm")


class ConfusionMatrix(Metric):
    """``ConfusionMatrix(num_classes, normalize='no_norm', threshold=0.5)``; ``eval()`` is a float64 matrix."""

    def __init__(self, num_classes, normalize="no_norm", threshold=0.5):
        super().__init__()
        if isinstance(num_classes, bool) or not isinstance(num_classes, int) or num_classes <= 0:
            raise ValueError(f"For 'ConfusionMatrix', num_classes must be a positive int, got {num_classes!r}")
        if normalize not in _NORMALIZE:
            # MindSpore 2.10's own message (it names 'label' but accepts 'target')
            raise ValueError(f"For 'ConfusionMatrix', the argument 'normalize' must be in ['all', 'prediction', "
                             f"'label', 'no_norm'(None)], but got {normalize}.")
        self.num_classes = num_classes
        self.normalize = normalize
        self.threshold = threshold
        self.clear()

    def clear(self):
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        """``update(y_pred, y)``: class indices, scores (N, C, ...) or probabilities to threshold, and labels."""
        y_pred, y = self._prediction_and_label(inputs)
        if y_pred.ndim == y.ndim + 1:
            y_pred = np.argmax(y_pred, axis=1)
        elif y_pred.ndim != y.ndim:
            raise ValueError(f"ConfusionMatrix.update: y_pred of shape {y_pred.shape} does not fit labels of shape "
                             f"{y.shape} (same rank, or one more axis of class scores)")
        elif y_pred.dtype.kind == "f":
            y_pred = (y_pred >= self.threshold).astype(np.int64)
        pairs = y.reshape(-1).astype(np.int64) * self.num_classes + y_pred.reshape(-1).astype(np.int64)
        if pairs.size and (pairs.min() < 0 or pairs.max() >= self.num_classes ** 2):
            raise ValueError(f"ConfusionMatrix.update: classes must be in [0, {self.num_classes})")
        counts = np.bincount(pairs, minlength=self.num_classes ** 2)
        self.confusion_matrix = self.confusion_matrix + counts.reshape(self.num_classes, self.num_classes)
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        m = self.confusion_matrix
        if self.normalize == "no_norm":
            return m.copy()
        total = {"target": m.sum(axis=1, keepdims=True), "prediction": m.sum(axis=0, keepdims=True),
                 "all": m.sum()}[self.normalize]
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.nan_to_num(m / total)
