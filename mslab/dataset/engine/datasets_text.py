"""The path ``mindspore.dataset.engine.datasets_text``: the text corpora (as ``mslab.dataset.X``)."""
from mslab.dataset.readers import (
    AGNewsDataset,
    AmazonReviewDataset,
    CoNLL2000Dataset,
    DBpediaDataset,
    IMDBDataset,
    PennTreebankDataset,
    SogouNewsDataset,
    SQuADDataset,
    TextFileDataset,
    UDPOSDataset,
    WikiTextDataset,
    YahooAnswersDataset,
    YelpReviewDataset,
)

__all__ = ["AGNewsDataset", "AmazonReviewDataset", "CoNLL2000Dataset", "DBpediaDataset", "IMDBDataset",
           "PennTreebankDataset", "SogouNewsDataset", "SQuADDataset", "TextFileDataset", "UDPOSDataset",
           "WikiTextDataset", "YahooAnswersDataset", "YelpReviewDataset"]
