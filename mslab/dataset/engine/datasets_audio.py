"""The path ``mindspore.dataset.engine.datasets_audio``: the speech data sets (as ``mslab.dataset.X``)."""
from mslab.dataset.readers import LJSpeechDataset, SpeechCommandsDataset, YesNoDataset

__all__ = ["LJSpeechDataset", "SpeechCommandsDataset", "YesNoDataset"]
