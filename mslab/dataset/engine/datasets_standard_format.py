"""The path ``mindspore.dataset.engine.datasets_standard_format``: MindRecord files."""
from mslab.dataset.readers import MindDataset

__all__ = ["MindDataset"]
