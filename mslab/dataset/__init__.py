"""Data pipelines, as ``mindspore.dataset`` (``import mslab.dataset as ds``).

Sources: :class:`GeneratorDataset`, :class:`NumpySlicesDataset`, :class:`MnistDataset`.
Operations (each returns a new, lazy dataset): ``map``, ``filter``, ``shuffle``, ``batch`` (with a
``per_batch_map``), ``repeat``, ``take``, ``skip``, ``project``, ``rename``, ``sync_wait``, ``zip``, ``concat``
(also ``a + b``); ``ds.zip((a, b))``; ``split`` cuts a dataset into parts, ``save`` writes it to MindRecord.
A column holds numpy arrays, or dicts (MindSpore's Python-object rows).
Reading: ``create_dict_iterator``, ``create_tuple_iterator``, or a plain ``for`` loop (lists of Tensors).
Readers of data sets on disk (CIFAR, MNIST, image folders, VOC, COCO, MindRecord, text corpora) are in
:mod:`mslab.dataset.readers`; samplers in :mod:`mslab.dataset.sources` and :mod:`mslab.dataset.samplers`.
Transforms live in :mod:`mslab.dataset.vision`, :mod:`mslab.dataset.transforms`, :mod:`mslab.dataset.text`
and :mod:`mslab.dataset.audio` (these two load on first use); ``mslab.dataset.engine`` is MindSpore's old
import path of the same names.
:func:`digits_path` is the folder of a small real handwritten-digits dataset in MNIST format.
"""
from mslab.core import missing_names as _missing_names
from mslab.dataset import combine_ops, config, engine, pipeline_ops, split_save, transforms, vision
from mslab.dataset.base import Dataset, Iterator
from mslab.dataset.cache import DatasetCache
from mslab.dataset.combine_ops import zip
from mslab.dataset.distributed_sampler import DistributedSampler
from mslab.dataset.pipeline_ops import BatchInfo
from mslab.dataset.readers import (
    AGNewsDataset,
    AmazonReviewDataset,
    Cifar10Dataset,
    Cifar100Dataset,
    CocoDataset,
    CoNLL2000Dataset,
    DBpediaDataset,
    FashionMnistDataset,
    ImageFolderDataset,
    IMDBDataset,
    LJSpeechDataset,
    MindDataset,
    PaddedDataset,
    PennTreebankDataset,
    Shuffle,
    SogouNewsDataset,
    SpeechCommandsDataset,
    SQuADDataset,
    TextFileDataset,
    UDPOSDataset,
    VOCDataset,
    WikiTextDataset,
    YahooAnswersDataset,
    YelpReviewDataset,
    YesNoDataset,
)
from mslab.dataset.samplers import IterSampler, PKSampler, WeightedRandomSampler
from mslab.dataset.sources import (
    GeneratorDataset,
    MnistDataset,
    NumpySlicesDataset,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    SubsetSampler,
    digits_path,
)

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

__all__ = ["GeneratorDataset", "NumpySlicesDataset", "MnistDataset", "Dataset", "Iterator", "config", "vision",
           "transforms", "digits_path", "Sampler", "SequentialSampler", "RandomSampler", "SubsetSampler",
           "SubsetRandomSampler", "zip", "Cifar10Dataset", "ImageFolderDataset", "FashionMnistDataset",
           "MindDataset", "DistributedSampler", "Cifar100Dataset", "PaddedDataset", "WeightedRandomSampler",
           "PKSampler", "engine", "text", "DatasetCache", "Shuffle", "TextFileDataset", "WikiTextDataset",
           "YelpReviewDataset", "AmazonReviewDataset", "SQuADDataset", "VOCDataset", "AGNewsDataset",
           "DBpediaDataset", "IMDBDataset", "PennTreebankDataset", "SogouNewsDataset", "YahooAnswersDataset",
           "IterSampler", "audio", "CocoDataset", "LJSpeechDataset",
           "YesNoDataset", "CoNLL2000Dataset", "UDPOSDataset",
           "SpeechCommandsDataset", "BatchInfo"]
