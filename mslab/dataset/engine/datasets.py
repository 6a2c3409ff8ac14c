"""The path ``mindspore.dataset.engine.datasets``: the pipeline's base class and its operations' classes.

In MindSpore 2.10, ``type(dataset.batch(2))`` is ``mindspore.dataset.engine.datasets.BatchDataset``; mslab's
classes of the same names are here (they live in :mod:`mslab.dataset.base` and :mod:`mslab.dataset.pipeline_ops`).
"""
from mslab.dataset.base import Dataset
from mslab.dataset.combine_ops import ConcatDataset, ZipDataset
from mslab.dataset.pipeline_ops import (
    BatchDataset,
    BatchInfo,
    FilterDataset,
    MapDataset,
    ProjectDataset,
    RenameDataset,
    RepeatDataset,
    ShuffleDataset,
    SkipDataset,
    SyncWaitDataset,
    TakeDataset,
)

__all__ = ["Dataset", "BatchInfo", "BatchDataset", "MapDataset", "ShuffleDataset", "RepeatDataset", "TakeDataset",
           "SkipDataset", "ProjectDataset", "RenameDataset", "FilterDataset", "SyncWaitDataset", "ZipDataset",
           "ConcatDataset"]
