"""The path ``mindspore.dataset.engine``: MindSpore's package behind ``mindspore.dataset``.

Old code imports datasets and samplers from here (``from mindspore.dataset.engine import Cifar10Dataset``);
each name is the same object as ``mslab.dataset.X``. The pipeline itself is :mod:`mslab.dataset.base`.
The submodules are MindSpore's homes of each class (``datasets_vision.MnistDataset``, ``datasets.BatchDataset``,
``samplers.RandomSampler``, ...); each class records its home, which is how classes print under
MindSpore's name (:class:`mslab.dataset.base.MindSporeClassPath`).
"""
from mslab.core import missing_names as _missing_names
from mslab.dataset import config
from mslab.dataset.base import Dataset, Iterator
from mslab.dataset.distributed_sampler import DistributedSampler
from mslab.dataset.engine import (
    datasets,
    datasets_audio,
    datasets_standard_format,
    datasets_text,
    datasets_user_defined,
    datasets_vision,
    samplers,
)
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


def _record_homes():
    """Record on each class exported by a submodule its MindSpore path (``"mindspore.dataset.engine.datasets"``),
    which :class:`mslab.dataset.base.MindSporeClassPath` prints under MindSpore's name."""
    for module in (datasets, datasets_user_defined, datasets_vision, datasets_standard_format, datasets_text,
                   datasets_audio, samplers):
        for name in module.__all__:
            getattr(module, name)._mindspore_home = "mindspore" + module.__name__[len("mslab"):]


_record_homes()

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

__all__ = ["config", "datasets", "datasets_user_defined", "datasets_standard_format", "datasets_text",
           "datasets_audio", "samplers", "datasets_vision", "Dataset", "Iterator", "GeneratorDataset",
           "NumpySlicesDataset", "MnistDataset", "FashionMnistDataset", "Cifar10Dataset", "Cifar100Dataset",
           "ImageFolderDataset", "MindDataset", "PaddedDataset", "Sampler", "SequentialSampler", "RandomSampler",
           "SubsetSampler", "SubsetRandomSampler", "DistributedSampler", "WeightedRandomSampler", "PKSampler"]
