"""Evaluation metrics, as ``mindspore.train`` (1.x: ``mindspore.nn.metrics``), and the name table Model uses.

``get_metric_fn('acc')`` -> ``Accuracy()``; names: 'acc'/'accuracy', 'loss', 'mae', 'mse',
'top_1_accuracy', 'top_5_accuracy', 'precision', 'recall', 'F1',
'confusion_matrix' (which needs ``num_classes``).
"""
from mslab.core import missing_names as _missing_names
from mslab.train.metrics.accuracy import (
    Accuracy,
    Top1CategoricalAccuracy,
    Top5CategoricalAccuracy,
    TopKCategoricalAccuracy,
)
from mslab.train.metrics.confusion_matrix import ConfusionMatrix
from mslab.train.metrics.error import MAE, MSE, Loss
from mslab.train.metrics.fbeta import F1, Fbeta
from mslab.train.metrics.metric import Metric, rearrange_inputs
from mslab.train.metrics.precision_recall import Precision, Recall

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

__factory__ = {
    "accuracy": Accuracy,
    "acc": Accuracy,
    "precision": Precision,
    "recall": Recall,
    "F1": F1,
    "confusion_matrix": ConfusionMatrix,
    "top_1_accuracy": Top1CategoricalAccuracy,
    "top_5_accuracy": Top5CategoricalAccuracy,
    "mae": MAE,
    "mse": MSE,
    "loss": Loss,
}


def names():
    """The metric names ``get_metric_fn`` knows, sorted."""
    return sorted(__factory__)


def get_metric_fn(name, *args, **kwargs):
    """A new metric object by name: ``get_metric_fn('acc')`` -> ``Accuracy()``."""
    if name not in __factory__:
        raise KeyError(f"Unknown Metric name {name!r}; known names: {', '.join(names())}")
    return __factory__[name](*args, **kwargs)


def get_metrics(metrics):
    """``{name: Metric}`` from a dict (values: Metric objects or names) or a set/list of names (Model's input)."""
    if metrics is None:
        return None
    if isinstance(metrics, dict):
        return {k: get_metric_fn(v) if isinstance(v, str) else v for k, v in metrics.items()}
    if isinstance(metrics, (set, list, tuple)):
        out = {}
        for name in metrics:
            if not isinstance(name, str):
                raise TypeError(f"metrics given as a set/list must be names, got {type(name).__name__}")
            out[name] = get_metric_fn(name)
        return out
    raise TypeError(f"metrics must be a dict or a set of names, got {type(metrics).__name__}")


__all__ = [
    "Metric", "rearrange_inputs", "Accuracy", "MAE", "MSE", "Loss", "Top1CategoricalAccuracy",
    "Top5CategoricalAccuracy", "TopKCategoricalAccuracy", "Precision", "Recall", "names", "get_metric_fn",
    "get_metrics", "F1", "Fbeta", "ConfusionMatrix",
]
