"""The path ``mindspore.dataset.engine.datasets_user_defined``: datasets whose rows come from Python."""
from mslab.dataset.readers import PaddedDataset
from mslab.dataset.sources import GeneratorDataset, NumpySlicesDataset

__all__ = ["GeneratorDataset", "NumpySlicesDataset", "PaddedDataset"]
