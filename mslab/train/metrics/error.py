"""MAE, MSE and Loss (``mindspore.train.MAE``, ``MSE``, ``Loss``)."""
import numpy as np

from mslab.train.metrics.metric import Metric, MetricValue, rearrange_inputs


class _ErrorSum(Metric):
    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._error_sum = 0.0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._prediction_and_label(inputs)
        if y.size != y_pred.size:
            raise ValueError(f"{type(self).__name__}: y_pred {y_pred.shape} and y {y.shape} differ in size")
        diff = y.reshape(y_pred.shape) - y_pred
        self._error_sum += float(self._error(diff).sum())
        self._samples_num += int(y.shape[0]) if y.ndim else 1

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError(f"The number of input samples must not be 0 ({type(self).__name__}).")
        return MetricValue(self._error_sum / self._samples_num)  # MindSpore returns numpy.float64


class MAE(_ErrorSum):
    """Mean absolute error: ``sum(|y - y_pred|) / samples`` (summed over each sample's elements)."""

    @staticmethod
    def _error(diff):
        return np.abs(diff)


class MSE(_ErrorSum):
    """Mean squared error: ``sum((y - y_pred) ** 2) / samples``."""

    @staticmethod
    def _error(diff):
        return diff * diff


class Loss(Metric):
    """The mean of the loss values given to ``update`` (one loss per call; a vector is averaged first)."""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._sum_loss = 0.0
        self._total_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 1:
            raise ValueError(f"Loss.update needs 1 input (the loss), got {len(inputs)}")
        loss = self._convert_data(inputs[0])
        if loss.ndim == 0:
            loss = loss.reshape(1)
        if loss.ndim != 1:
            raise ValueError(f"Loss.update: the loss must be a scalar or a 1-D vector, got shape {loss.shape}")
        self._sum_loss += float(loss.mean(-1))
        self._total_num += 1

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("The total number of losses must not be 0 (call update first).")
        return MetricValue(self._sum_loss / self._total_num)
