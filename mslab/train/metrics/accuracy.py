"""Accuracy, and top-k accuracy (``mindspore.train.Accuracy``, ``TopKCategoricalAccuracy``)."""
import numpy as np

from mslab.train.metrics.metric import Metric, MetricValue, labels_from, rearrange_inputs


class Accuracy(Metric):
    """The fraction of samples classified right.

    ``eval_type='classification'``: predicted class = ``argmax(y_pred, axis=1)``; labels are class indices
    or one-hot rows (argmax-ed). ``'multilabel'``: ``y_pred`` rounded, a sample counts when its whole
    row matches.
    """

    def __init__(self, eval_type="classification"):
        super().__init__()
        if eval_type not in ("classification", "multilabel"):
            raise ValueError(f"Accuracy: eval_type must be 'classification' or 'multilabel', got {eval_type!r}")
        self.eval_type = eval_type
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._total_num = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._prediction_and_label(inputs)
        if self.eval_type == "classification":
            if y_pred.ndim < 2:
                raise ValueError(f"Accuracy: y_pred must have shape (N, C), got {y_pred.shape}")
            labels = labels_from(y_pred, y)
            if labels.shape[0] != y_pred.shape[0]:
                raise ValueError(f"Accuracy: {y_pred.shape[0]} predictions but {labels.shape[0]} labels")
            result = (np.argmax(y_pred, axis=1) == labels).reshape(-1)
        else:
            if y_pred.shape != y.shape:
                raise ValueError(f"Accuracy (multilabel): y_pred {y_pred.shape} and y {y.shape} must match")
            result = (np.round(y_pred) == y).reshape(y.shape[0], -1).all(axis=1)
        self._class_num = y_pred.shape[1] if y_pred.ndim > 1 else 1
        self._correct_num += int(result.sum())
        self._total_num += int(result.shape[0])

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("Accuracy can not be calculated, because the number of samples is 0.")
        return MetricValue(self._correct_num / self._total_num)  # MindSpore returns numpy.float64


class TopKCategoricalAccuracy(Metric):
    """The fraction of samples whose label is among the ``k`` highest predictions."""

    def __init__(self, k):
        super().__init__()
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"TopKCategoricalAccuracy: k must be a positive int, got {k!r}")
        self.k = k
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._prediction_and_label(inputs)
        y = labels_from(y_pred, y)
        # a stable sort of -y_pred: among equal scores the lower class index ranks first
        top = np.argsort(-y_pred, axis=1, kind="stable")[:, :self.k]
        self._correct_num += int(sum(int(y[i] in top[i]) for i in range(y_pred.shape[0])))
        self._samples_num += int(y_pred.shape[0])

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError(f"{type(self).__name__} can not be calculated, because the number of samples is 0.")
        return MetricValue(self._correct_num / self._samples_num)


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-1 accuracy (``'top_1_accuracy'``)."""

    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-5 accuracy (``'top_5_accuracy'``)."""

    def __init__(self):
        super().__init__(5)
