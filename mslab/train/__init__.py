"""Training helpers, as ``mindspore.train``: Model, callbacks, DatasetHelper, metrics and checkpoints."""
from mslab.core import missing_names as _missing_names
from mslab.train import callback, dataset_helper, metrics, model, serialization
from mslab.train.callback import (
    Callback,
    CheckpointConfig,
    EarlyStopping,
    History,
    LearningRateScheduler,
    LossMonitor,
    ModelCheckpoint,
    ProgressBar,
    RunContext,
    SummaryCollector,
    TimeMonitor,
)
from mslab.train.data_sink import data_sink
from mslab.train.dataset_helper import DatasetHelper, connect_network_with_dataset
from mslab.train.metrics import (
    F1,
    MAE,
    MSE,
    Accuracy,
    ConfusionMatrix,
    Fbeta,
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
from mslab.train.model import Model
from mslab.train.serialization import export, load_checkpoint, load_param_into_net, save_checkpoint
from mslab.train.summary import SummaryRecord

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error
