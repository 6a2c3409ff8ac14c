"""Training helpers, as ``mindspore.train``: metrics and checkpoints."""
from mslab.train import metrics, serialization
from mslab.train.metrics import (
    MAE,
    MSE,
    Accuracy,
    Loss,
    Metric,
    Precision,
    Recall,
    Top1CategoricalAccuracy,
    Top5CategoricalAccuracy,
    TopKCategoricalAccuracy,
    get_metric_fn,
    get_metrics,
    names,
)
from mslab.train.serialization import load_checkpoint, load_param_into_net, save_checkpoint
