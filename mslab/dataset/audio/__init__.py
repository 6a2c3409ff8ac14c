"""Audio transforms, as ``mindspore.dataset.audio``: spectrograms, decibels, mel scales, SpecAugment masks,
spectral centroids, a bass filter and resampling."""
from mslab.core import missing_names as _missing_names
from mslab.dataset.audio.filters import BassBiquad, Resample, ResampleMethod, SpectralCentroid
from mslab.dataset.audio.transforms import (
    AmplitudeToDB,
    FrequencyMasking,
    MelScale,
    MelSpectrogram,
    Spectrogram,
    TimeMasking,
)
from mslab.dataset.audio.utils import BorderType, MelType, NormMode, NormType, ScaleType, WindowType

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

__all__ = ["Spectrogram", "AmplitudeToDB", "MelScale", "MelSpectrogram", "TimeMasking", "FrequencyMasking",
           "WindowType", "ScaleType", "NormType", "MelType", "BorderType", "NormMode", "SpectralCentroid", "BassBiquad",
           "Resample", "ResampleMethod"]
