"""The path ``mindspore.dataset.engine``: MindSpore's package behind ``mindspore.dataset``.

Old code imports datasets and samplers from here (``from mindspore.dataset.engine import Cifar10Dataset``);
each name is the same object as ``mslab.dataset.X``. The pipeline itself is :mod:`mslab.dataset.base`.
"""
from mslab.core import missing_names as _missing_names
from mslab.dataset import config
from mslab.dataset.base import Dataset, Iterator
from mslab.dataset.distributed_sampler import DistributedSampler
from mslab.dataset.engine import datasets_vision
from mslab.dataset.engine.datasets_vision import (
    Cifar10Dataset,
    Cifar100Dataset,
    FashionMnistDataset,
    ImageFolderDataset,
    MnistDataset,
)
from mslab.dataset.readers import MindDataset, PaddedDataset
from mslab.dataset.samplers import PKSampler, WeightedRandomSampler
from mslab.dataset.sources import (
    GeneratorDataset,
    NumpySlicesDataset,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    SubsetSampler,
)

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

__all__ = ["config", "datasets_vision", "Dataset", "Iterator", "GeneratorDataset", "NumpySlicesDataset", "MnistDataset",
           "FashionMnistDataset", "Cifar10Dataset", "Cifar100Dataset", "ImageFolderDataset", "MindDataset",
           "PaddedDataset", "Sampler", "SequentialSampler", "RandomSampler", "SubsetSampler", "SubsetRandomSampler",
           "DistributedSampler", "WeightedRandomSampler", "PKSampler"]
