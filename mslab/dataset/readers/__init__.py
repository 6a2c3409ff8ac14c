"""Readers of data sets stored on disk in their usual layouts (local paths only; nothing downloads)."""
from mslab.dataset.readers.audio_files import LJSpeechDataset, SpeechCommandsDataset, YesNoDataset
from mslab.dataset.readers.cifar import Cifar10Dataset, Cifar100Dataset
from mslab.dataset.readers.coco import CocoDataset
from mslab.dataset.readers.fashion_mnist import FashionMnistDataset
from mslab.dataset.readers.image_folder import ImageFolderDataset
from mslab.dataset.readers.mindrecord import MindDataset
from mslab.dataset.readers.padded import PaddedDataset
from mslab.dataset.readers.tagged import CoNLL2000Dataset, UDPOSDataset
from mslab.dataset.readers.text_files import PennTreebankDataset, Shuffle, TextFileDataset, WikiTextDataset
from mslab.dataset.readers.text_records import (
    AGNewsDataset,
    AmazonReviewDataset,
    DBpediaDataset,
    IMDBDataset,
    SogouNewsDataset,
    SQuADDataset,
    YahooAnswersDataset,
    YelpReviewDataset,
)
from mslab.dataset.readers.voc import VOCDataset

__all__ = ["Cifar10Dataset", "Cifar100Dataset", "PaddedDataset", "FashionMnistDataset", "ImageFolderDataset",
           "MindDataset", "Shuffle", "TextFileDataset", "WikiTextDataset", "AmazonReviewDataset", "SQuADDataset",
           "YelpReviewDataset", "VOCDataset", "PennTreebankDataset", "AGNewsDataset", "DBpediaDataset",
           "IMDBDataset", "SogouNewsDataset", "YahooAnswersDataset", "CocoDataset",
           "LJSpeechDataset", "YesNoDataset", "CoNLL2000Dataset", "UDPOSDataset",
           "SpeechCommandsDataset"]
