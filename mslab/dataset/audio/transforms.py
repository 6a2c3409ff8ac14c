"""Spectrograms and mel scales, as ``mindspore.dataset.audio`` (the formulas of torchaudio, which MindSpore follows).

A waveform is a 1-D float array (or a batch, ``(..., time)``); a spectrogram is ``(..., freq, time)``.

- Spectrogram: pad ``pad`` zeros at each end; with ``center`` pad n_fft // 2 more with ``pad_mode``; cut frames
  of ``n_fft`` samples every ``hop_length`` (default win_length // 2); multiply each by the periodic window of
  ``win_length`` samples (centred in n_fft); Fourier transform; ``|X| ** power``. ``normalized`` divides
  X by ``sqrt(sum(window ** 2))``.
- AmplitudeToDB: ``m log10(max(x, amin)) - m log10(max(amin, ref_value))``, m = 10 for power and 20 for
  magnitude, then floored at ``max - top_db``.
- MelScale: triangular filters evenly spaced on the mel scale between f_min and f_max (sample_rate / 2 by
  default) over ``n_stft`` frequencies from 0 to sample_rate // 2; ``mel = filters.T @ spec``.

They agree with MindSpore 2.10 on CPU to float32 rounding (observed).
"""
import numbers

import numpy as np

from mslab.dataset.audio.utils import BorderType, MelType, NormType, ScaleType, WindowType
from mslab.dataset.transforms.transforms import RandomOp, Transform


def window(kind, n):
    """The periodic window of ``n`` samples (torch's ``*_window(n)``; Kaiser with beta 12)."""
    k = np.arange(n) / n if n > 1 else np.zeros(n)
    kind = WindowType(kind)
    if kind == WindowType.HANN:
        return 0.5 - 0.5 * np.cos(2 * np.pi * k)
    if kind == WindowType.HAMMING:
        return 0.54 - 0.46 * np.cos(2 * np.pi * k)
    if kind == WindowType.BLACKMAN:
        return 0.42 - 0.5 * np.cos(2 * np.pi * k) + 0.08 * np.cos(4 * np.pi * k)
    if kind == WindowType.BARTLETT:
        return 1 - np.abs(2 * k - 1)
    return np.kaiser(n + 1, 12.0)[:-1]


def _float(x, what):
    if x.dtype.kind not in "fiu":
        raise TypeError(f"{what}: the waveform must be numbers, got {x.dtype}")
    return x if x.dtype.kind == "f" else x.astype(np.float32)


class Spectrogram(Transform):
    """The (power) spectrogram of a waveform: ``(..., time)`` -> ``(..., n_fft // 2 + 1, frames)``."""

    def __init__(self, n_fft=400, win_length=None, hop_length=None, pad=0, window=WindowType.HANN, power=2.0,
                 normalized=False, center=True, pad_mode=BorderType.REFLECT, onesided=True):
        self.n_fft, self.win_length = n_fft, win_length or n_fft
        self.hop_length = hop_length or self.win_length // 2
        if not 0 < self.win_length <= n_fft or self.hop_length < 1:
            raise ValueError(f"Spectrogram: need 0 < win_length <= n_fft and hop_length >= 1, got n_fft={n_fft}, "
                             f"win_length={win_length}, hop_length={hop_length}")
        self.pad, self.window, self.power, self.normalized = pad, WindowType(window), power, normalized
        self.center, self.pad_mode, self.onesided = center, BorderType(pad_mode), onesided

    def apply(self, x):
        x = _float(x, "Spectrogram")
        wave = x.astype(np.float64)
        ends = [(0, 0)] * (wave.ndim - 1)
        if self.pad:
            wave = np.pad(wave, ends + [(self.pad, self.pad)])
        if self.center:
            half = self.n_fft // 2
            wave = np.pad(wave, ends + [(half, half)], mode=self.pad_mode.value)
        w = np.zeros(self.n_fft)
        left = (self.n_fft - self.win_length) // 2
        w[left:left + self.win_length] = window(self.window, self.win_length)
        count = 1 + (wave.shape[-1] - self.n_fft) // self.hop_length
        if count < 1:
            raise ValueError(f"Spectrogram: the waveform ({x.shape[-1]} samples) is shorter than n_fft={self.n_fft}")
        starts = np.arange(count) * self.hop_length
        frames = wave[..., starts[:, None] + np.arange(self.n_fft)] * w  # (..., frames, n_fft)
        spec = np.fft.rfft(frames) if self.onesided else np.fft.fft(frames)
        if self.normalized:
            spec = spec / np.sqrt((w ** 2).sum())
        out = np.abs(spec) ** self.power
        return np.swapaxes(out, -1, -2).astype(x.dtype)


class AmplitudeToDB(Transform):
    """A spectrogram in decibels (see the module docstring)."""

    def __init__(self, stype=ScaleType.POWER, ref_value=1.0, amin=1e-10, top_db=80.0):
        if amin <= 0 or ref_value <= 0:
            raise ValueError(f"AmplitudeToDB: amin and ref_value must be > 0, got {amin}, {ref_value}")
        self.stype, self.ref_value, self.amin, self.top_db = ScaleType(stype), ref_value, amin, top_db

    def apply(self, x):
        x = _float(x, "AmplitudeToDB")
        m = 10.0 if self.stype == ScaleType.POWER else 20.0
        db = m * np.log10(np.maximum(x.astype(np.float64), self.amin)) - m * np.log10(max(self.amin, self.ref_value))
        if self.top_db is not None:
            db = np.maximum(db, db.max() - self.top_db)
        return db.astype(x.dtype)


def _hz_to_mel(f, mel_type):
    if mel_type == MelType.HTK:
        return 2595.0 * np.log10(1.0 + f / 700.0)
    f = np.asarray(f, np.float64)
    mel = 3.0 * f / 200.0
    log = f >= 1000.0
    return np.where(log, 15.0 + np.log(np.maximum(f, 1e-10) / 1000.0) / (np.log(6.4) / 27.0), mel)


def _mel_to_hz(m, mel_type):
    if mel_type == MelType.HTK:
        return 700.0 * (10.0 ** (m / 2595.0) - 1.0)
    return np.where(m >= 15.0, 1000.0 * np.exp((np.log(6.4) / 27.0) * (m - 15.0)), 200.0 * m / 3.0)


def mel_filters(n_stft, f_min, f_max, n_mels, sample_rate, norm, mel_type):
    """The (n_stft, n_mels) triangular mel filter bank (torchaudio's ``melscale_fbanks``)."""
    freqs = np.linspace(0, sample_rate // 2, n_stft)
    m = np.linspace(_hz_to_mel(f_min, mel_type), _hz_to_mel(f_max, mel_type), n_mels + 2)
    f_pts = _mel_to_hz(m, mel_type)
    f_diff = np.diff(f_pts)
    slopes = f_pts[None, :] - freqs[:, None]
    fb = np.maximum(0.0, np.minimum(-slopes[:, :-2] / f_diff[:-1], slopes[:, 2:] / f_diff[1:]))
    if NormType(norm) == NormType.SLANEY:
        fb *= 2.0 / (f_pts[2:n_mels + 2] - f_pts[:n_mels])
    return fb


class MelScale(Transform):
    """A spectrogram ``(..., n_stft, time)`` on the mel scale: ``(..., n_mels, time)``."""

    def __init__(self, n_mels=128, sample_rate=16000, f_min=0.0, f_max=None, n_stft=201, norm=NormType.NONE,
                 mel_type=MelType.HTK):
        f_max = float(sample_rate) / 2 if f_max is None else f_max
        if not 0 <= f_min < f_max:
            raise ValueError(f"MelScale: need 0 <= f_min < f_max, got f_min={f_min}, f_max={f_max}")
        self.n_mels, self.sample_rate, self.f_min, self.f_max, self.n_stft = n_mels, sample_rate, f_min, f_max, n_stft
        self.norm, self.mel_type = NormType(norm), MelType(mel_type)
        self._fb = mel_filters(n_stft, f_min, f_max, n_mels, sample_rate, self.norm, self.mel_type)

    def apply(self, spec):
        spec = _float(spec, "MelScale")
        if spec.ndim < 2 or spec.shape[-2] != self.n_stft:
            raise ValueError(f"MelScale: expects a spectrogram (..., {self.n_stft}, time), got shape {spec.shape}")
        return np.swapaxes(np.swapaxes(spec.astype(np.float64), -1, -2) @ self._fb, -1, -2).astype(spec.dtype)


class MelSpectrogram(Transform):
    """``MelScale(Spectrogram(waveform))``: a waveform's spectrogram on the mel scale."""

    def __init__(self, sample_rate=16000, n_fft=400, win_length=None, hop_length=None, f_min=0.0, f_max=None, pad=0,
                 n_mels=128, window=WindowType.HANN, power=2.0, normalized=False, center=True,
                 pad_mode=BorderType.REFLECT, onesided=True, norm=NormType.NONE, mel_scale=MelType.HTK):
        self.spectrogram = Spectrogram(n_fft, win_length, hop_length, pad, window, power, normalized, center, pad_mode,
                                       onesided)
        self.mel_scale = MelScale(n_mels, sample_rate, f_min, f_max, n_fft // 2 + 1, norm, mel_scale)

    def apply(self, x):
        return self.mel_scale.apply(self.spectrogram.apply(x))


class _Masking(RandomOp, Transform):
    """Mask a band of ``axis`` (-1: time, -2: frequency) of a spectrogram with ``mask_value``.

    The band's width is drawn uniformly from [0, param) and its start from where it fits (torchaudio's
    ``mask_along_axis``); ``iid_masks`` draws one band per item of a batch. The draws are mslab's own.
    """

    axis = -1

    def __init__(self, iid_masks=False, param=0, mask_start=0, mask_value=0.0):
        if not isinstance(param, numbers.Integral) or param < 0:
            raise ValueError(f"{type(self).__name__}: the mask width parameter must be an int >= 0, got {param}")
        self.iid_masks, self.param, self.mask_start, self.mask_value = iid_masks, param, mask_start, mask_value

    def apply(self, spec):
        out = _float(spec, type(self).__name__).copy()
        size = out.shape[self.axis]
        items = out.reshape((-1,) + out.shape[-2:]) if self.iid_masks else [out]
        for item in items:
            width = int(self.rng.uniform() * self.param)
            start = int(self.rng.uniform() * (size - width)) if size > width else 0
            index = [slice(None)] * item.ndim
            index[self.axis] = slice(start, start + width)
            item[tuple(index)] = self.mask_value
        return out


class TimeMasking(_Masking):
    """Mask a random band of time steps (SpecAugment)."""

    def __init__(self, iid_masks=False, time_mask_param=0, mask_start=0, mask_value=0.0):
        super().__init__(iid_masks, time_mask_param, mask_start, mask_value)


class FrequencyMasking(_Masking):
    """Mask a random band of frequencies (SpecAugment)."""

    axis = -2

    def __init__(self, iid_masks=False, freq_mask_param=0, mask_start=0, mask_value=0.0):
        super().__init__(iid_masks, freq_mask_param, mask_start, mask_value)
