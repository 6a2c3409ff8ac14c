"""SpectralCentroid, BassBiquad and Resample, as ``mindspore.dataset.audio`` (torchaudio's formulas).

- SpectralCentroid: the magnitude spectrogram's mean frequency per frame, ``sum(f * |X|) / sum(|X|)``, with f
  from 0 to sample_rate // 2; shape ``(..., 1, frames)``.
- BassBiquad: a low-shelf biquad filter (the Audio EQ Cookbook's) boosting or cutting ``gain`` dB below
  ``central_freq``, run as a difference equation; the output is clipped to [-1, 1].
- Resample: band-limited sinc interpolation (a Hann-windowed sinc of ``lowpass_filter_width`` zero crossings,
  or a Kaiser window), after reducing the two rates by their greatest common divisor.

They agree with MindSpore 2.10 on CPU to float32 rounding (observed).
"""
import math
from enum import Enum

import numpy as np

from mslab.dataset.audio.transforms import Spectrogram, _float
from mslab.dataset.audio.utils import WindowType
from mslab.dataset.transforms.transforms import Transform


class SpectralCentroid(Transform):
    """The spectral centroid of each frame of a waveform: ``(..., time)`` -> ``(..., 1, frames)``."""

    def __init__(self, sample_rate, n_fft=400, win_length=None, hop_length=None, pad=0, window=WindowType.HANN):
        self.sample_rate = sample_rate
        self.spectrogram = Spectrogram(n_fft, win_length, hop_length, pad, window, power=1.0)

    def apply(self, x):
        spec = self.spectrogram.apply(x).astype(np.float64)
        freqs = np.linspace(0, self.sample_rate // 2, spec.shape[-2])[:, None]
        centroid = (freqs * spec).sum(-2, keepdims=True) / spec.sum(-2, keepdims=True)
        return centroid.astype(x.dtype if x.dtype.kind == "f" else np.float32)


def lfilter(x, b, a, clamp=True):
    """``y[n] = (b0 x[n] + b1 x[n-1] + b2 x[n-2] - a1 y[n-1] - a2 y[n-2]) / a0`` along the last axis."""
    b, a = np.asarray(b, np.float64) / a[0], np.asarray(a, np.float64) / a[0]
    x = x.astype(np.float64)
    y = np.zeros_like(x)
    for n in range(x.shape[-1]):
        acc = sum(b[k] * x[..., n - k] for k in range(len(b)) if n - k >= 0)
        y[..., n] = acc - sum(a[k] * y[..., n - k] for k in range(1, len(a)) if n - k >= 0)
    return np.clip(y, -1.0, 1.0) if clamp else y


class BassBiquad(Transform):
    """Boost (``gain`` > 0) or cut the bass below ``central_freq`` Hz by ``gain`` dB; ``Q`` sets the slope."""

    def __init__(self, sample_rate, gain, central_freq=100.0, Q=0.707):
        if sample_rate == 0 or Q <= 0:
            raise ValueError(f"BassBiquad: need sample_rate != 0 and Q > 0, got {sample_rate}, {Q}")
        w0 = 2 * math.pi * central_freq / sample_rate
        alpha, amp, cos = math.sin(w0) / 2 / Q, math.exp(gain / 40 * math.log(10)), math.cos(w0)
        t1, t2, t3 = 2 * math.sqrt(amp) * alpha, (amp - 1) * cos, (amp + 1) * cos
        self.b = [amp * ((amp + 1) - t2 + t1), 2 * amp * ((amp - 1) - t3), amp * ((amp + 1) - t2 - t1)]
        self.a = [(amp + 1) + t2 + t1, -2 * ((amp - 1) + t3), (amp + 1) + t2 - t1]
        self.sample_rate, self.gain, self.central_freq, self.Q = sample_rate, gain, central_freq, Q

    def apply(self, x):
        return lfilter(_float(x, "BassBiquad"), self.b, self.a).astype(x.dtype if x.dtype.kind == "f" else np.float32)


class ResampleMethod(str, Enum):
    """The window of Resample's sinc kernel: Hann (``SINC_INTERPOLATION``) or Kaiser (``KAISER_WINDOW``)."""

    SINC_INTERPOLATION = "sinc_interpolation"
    KAISER_WINDOW = "kaiser_window"


def sinc_kernel(orig, new, width_zeros, rolloff, method, beta):
    """(new, 2 * width + orig) taps of the windowed sinc, and ``width`` (torchaudio's resampling kernel)."""
    base = min(orig, new) * rolloff
    width = math.ceil(width_zeros * orig / base)
    idx = np.arange(-width, width + orig, dtype=np.float64)[None, :] / orig
    t = (np.arange(0, -new, -1, dtype=np.float64)[:, None] / new + idx) * base
    t = np.clip(t, -width_zeros, width_zeros)
    if method == ResampleMethod.SINC_INTERPOLATION:
        window = np.cos(t * math.pi / width_zeros / 2) ** 2
    else:
        beta = 14.769656459379492 if beta is None else beta
        window = np.i0(beta * np.sqrt(1 - (t / width_zeros) ** 2)) / np.i0(beta)
    t = t * math.pi
    safe = np.where(t == 0, 1.0, t)
    return np.where(t == 0, 1.0, np.sin(safe) / safe) * window * (base / orig), width


class Resample(Transform):
    """A waveform at ``orig_freq`` samples per second, resampled to ``new_freq``: ``ceil(n * new / orig)`` samples."""

    def __init__(self, orig_freq=16000, new_freq=16000, resample_method=ResampleMethod.SINC_INTERPOLATION,
                 lowpass_filter_width=6, rolloff=0.99, beta=None):
        if orig_freq <= 0 or new_freq <= 0 or lowpass_filter_width <= 0 or not 0 < rolloff <= 1:
            raise ValueError(f"Resample: need positive rates and lowpass_filter_width and 0 < rolloff <= 1, got "
                             f"{orig_freq}, {new_freq}, {lowpass_filter_width}, {rolloff}")
        self.orig_freq, self.new_freq, self.method = orig_freq, new_freq, ResampleMethod(resample_method)
        gcd = math.gcd(int(orig_freq), int(new_freq))
        self._orig, self._new = int(orig_freq) // gcd, int(new_freq) // gcd
        self._kernel, self._width = sinc_kernel(self._orig, self._new, lowpass_filter_width, rolloff, self.method,
                                                beta)

    def apply(self, x):
        x = _float(x, "Resample")
        if self.orig_freq == self.new_freq:
            return x.copy()
        wave = x.reshape(-1, x.shape[-1]).astype(np.float64)
        n = wave.shape[-1]
        padded = np.pad(wave, ((0, 0), (self._width, self._width + self._orig)))
        steps = (padded.shape[-1] - self._kernel.shape[-1]) // self._orig + 1
        windows = padded[:, np.arange(steps)[:, None] * self._orig + np.arange(self._kernel.shape[-1])]
        out = (windows @ self._kernel.T).reshape(len(wave), -1)  # (waves, steps * new): each step gives `new`
        out = out[:, :math.ceil(self._new * n / self._orig)]
        return out.reshape(x.shape[:-1] + (out.shape[-1],)).astype(x.dtype)
