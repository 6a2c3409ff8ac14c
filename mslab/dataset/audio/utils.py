"""Audio enums, as ``mindspore.dataset.audio``: WindowType, ScaleType, NormType, MelType, BorderType, NormMode."""
from enum import Enum


class WindowType(str, Enum):
    """The window a short-time Fourier transform multiplies each frame by (periodic, as torch's windows)."""

    BARTLETT = "bartlett"
    BLACKMAN = "blackman"
    HAMMING = "hamming"
    HANN = "hann"
    KAISER = "kaiser"


class ScaleType(str, Enum):
    """Whether a spectrogram holds power (|X|**2: 10 log10 in decibels) or magnitude (|X|: 20 log10)."""

    POWER = "power"
    MAGNITUDE = "magnitude"


class NormType(str, Enum):
    """Normalization of the mel filters: none, or Slaney's (each filter's area 1 in Hz)."""

    SLANEY = "slaney"
    NONE = "none"


class MelType(str, Enum):
    """The mel scale: HTK's ``2595 log10(1 + f / 700)``, or Slaney's (linear below 1 kHz, logarithmic above)."""

    HTK = "htk"
    SLANEY = "slaney"


class BorderType(str, Enum):
    """How a signal is padded at its ends (numpy's pad modes of the same names; EDGE repeats the end sample)."""

    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class NormMode(str, Enum):
    """Normalization of a discrete cosine transform: none, or orthonormal."""

    ORTHO = "ortho"
    NONE = "none"
