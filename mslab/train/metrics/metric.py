"""Metric: the base of evaluation metrics (``mindspore.train.Metric``): ``clear``, ``update``, ``eval``.

A metric accumulates over batches: ``clear()`` resets, ``update(*outputs)`` adds one batch (Tensors or
numpy arrays; numbers are read with ``asnumpy``), ``eval()`` returns the result as a Python number.
``set_indexes([1, 2])`` picks which of the evaluation network's outputs ``update`` receives (with
``WithEvalCell`` returning ``(loss, outputs, label)``, ``[1, 2]`` selects outputs and label).
"""
import functools

import numpy as np

from mslab.core.tensor import Tensor


def _convert_data(data):
    """A numpy array from a Tensor, list, tuple, number or array."""
    if isinstance(data, Tensor):
        return data.asnumpy()
    if isinstance(data, np.ndarray):
        return data
    if isinstance(data, (list, tuple, int, float, np.number)):
        return np.array(data)
    raise TypeError(f"metric inputs must be Tensors, numpy arrays, lists or numbers, got {type(data).__name__}")


def rearrange_inputs(func):
    """Decorate ``update`` so that ``set_indexes`` picks and orders its inputs."""
    @functools.wraps(func)
    def wrapper(self, *inputs):
        indexes = self.indexes
        if indexes is not None:
            inputs = tuple(inputs[i] for i in indexes)
        return func(self, *inputs)
    return wrapper


class MetricValue(np.float64):
    """A metric's number: a ``numpy.float64`` (what MindSpore 2.10's metrics return) that prints as ``0.93``.

    MindSpore 2.10 runs on numpy 1.x, where a float64 prints as the bare number; numpy 2 prints it as
    ``np.float64(0.93)``. This subclass keeps the bare number, so ``print(model.eval(data))`` shows
    ``{'Accuracy': 0.93}`` as MindSpore users see it, rounded (``round(acc, 4)``) too; other arithmetic on it
    gives plain float64s.
    """

    def __repr__(self):
        return repr(float(self))

    def __round__(self, ndigits=None):
        return round(float(self)) if ndigits is None else MetricValue(np.float64(self).__round__(ndigits))


class Metric:
    """Base class of metrics; subclasses define ``clear``, ``update`` and ``eval``."""

    def __init__(self):
        self._indexes = None

    @property
    def indexes(self):
        """The output positions ``update`` receives (None: all of them, in order)."""
        return getattr(self, "_indexes", None)

    def set_indexes(self, indexes):
        """Select (and order) the evaluation outputs passed to ``update``; returns self."""
        if not isinstance(indexes, (list, tuple)) or not all(isinstance(i, int) for i in indexes):
            raise ValueError(f"set_indexes: indexes must be a list of ints, got {indexes!r}")
        self._indexes = list(indexes)
        return self

    def _convert_data(self, data):
        return _convert_data(data)

    def _prediction_and_label(self, inputs):
        """``(y_pred, y)`` as numpy arrays from ``update``'s two inputs (an error names the metric otherwise)."""
        if len(inputs) != 2:
            raise ValueError(f"{type(self).__name__}.update needs 2 inputs (y_pred, y), got {len(inputs)}")
        return _convert_data(inputs[0]), _convert_data(inputs[1])

    def clear(self):
        raise NotImplementedError(f"{type(self).__name__} must define clear()")

    def update(self, *inputs):
        raise NotImplementedError(f"{type(self).__name__} must define update(*inputs)")

    def eval(self):
        raise NotImplementedError(f"{type(self).__name__} must define eval()")

    def __call__(self, *inputs):
        """``clear``, ``update(*inputs)`` and ``eval`` in one go."""
        self.clear()
        self.update(*inputs)
        return self.eval()


def labels_from(y_pred, y):
    """Class indices of ``y``: one-hot (or probability) labels with ``y_pred``'s rank are argmax-ed."""
    if y.ndim == y_pred.ndim and y.ndim > 1:
        return np.argmax(y, axis=-1)
    return y.reshape(-1) if y.ndim > 1 else y
