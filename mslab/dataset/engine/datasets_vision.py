"""The path ``mindspore.dataset.engine.datasets_vision``: the image datasets (as ``mslab.dataset.X``)."""
from mslab.dataset.readers import (
    Cifar10Dataset,
    Cifar100Dataset,
    CocoDataset,
    FashionMnistDataset,
    ImageFolderDataset,
    VOCDataset,
)
from mslab.dataset.sources import MnistDataset

__all__ = ["Cifar10Dataset", "Cifar100Dataset", "FashionMnistDataset", "ImageFolderDataset", "MnistDataset",
           "VOCDataset", "CocoDataset"]
