"""audio.Spectrogram, AmplitudeToDB, MelScale, MelSpectrogram and the SpecAugment masks against MindSpore 2.10
(observed on MindSpore 2.10 CPU; docs/mindspore_observed/dsmore.md, obs22). The waveform is
``sin(0.3 t) + 0.1 cos(1.7 t)`` for t = 0..63, as float32."""
import numpy as np
import pytest

import mslab
import mslab.dataset as ds
import mslab.dataset.audio as A

T = np.arange(64)
X = np.sin(T * 0.3).astype(np.float32) + 0.1 * np.cos(T * 1.7).astype(np.float32)


def close(a, b):
    np.testing.assert_allclose(a, b, rtol=2e-6, atol=1e-6)


def test_spectrogram():
    s = A.Spectrogram(n_fft=16)(X)
    assert s.dtype == np.float32 and s.shape == (9, 9)
    close(s[:3, :4], [[20.354216, 13.330696, 29.002407, 18.44211], [1.27052, 14.806838, 16.706923, 15.376936],
                      [2.875552, 1.723008, 1.60761, 1.730389]])
    s2 = A.Spectrogram(n_fft=16, hop_length=4, window=A.WindowType.HAMMING, power=1.0, normalized=True,
                       center=False)(X)
    assert s2.shape == (9, 13)
    close(s2[:3, :4], [[1.447255, 0.913823, 2.106725, 0.611198], [1.621765, 1.616459, 1.692388, 1.587172],
                       [0.448879, 0.42656, 0.437609, 0.443241]])
    s3 = A.Spectrogram(n_fft=8, win_length=6, pad=2, pad_mode=A.BorderType.CONSTANT, onesided=False)(X)
    assert s3.shape == (8, 23)
    close(s3[:3, :3], [[6.25e-04, 8.35193e-01, 7.184484], [6.25e-04, 5.012116e-01, 3.83741],
                       [6.25e-04, 8.214428e-02, 4.650849e-01]])
    assert A.Spectrogram(n_fft=16)(np.stack([X, 2 * X])).shape == (2, 9, 9)
    assert A.Spectrogram(n_fft=16)(X.astype(np.float64)).dtype == np.float64


def test_amplitude_to_db():
    s = A.Spectrogram(n_fft=16)(X)
    db = A.AmplitudeToDB()(s)
    assert db.dtype == np.float32
    close(db[:3, :4], [[13.086543, 11.248529, 14.62434, 12.658106], [1.039815, 11.704624, 12.228965, 11.868698],
                       [4.587212, 2.362873, 2.061808, 2.381439]])
    db2 = A.AmplitudeToDB(stype=A.ScaleType.MAGNITUDE, ref_value=2.0, amin=1e-5, top_db=20.0)(s)
    close([db2.min(), db2.max()], [3.2280807, 23.22808])  # floored at max - top_db


def test_mel_scale_and_mel_spectrogram():
    s = A.Spectrogram(n_fft=16)(X)
    expected = [[2.914833, 10.75334, 11.8924, 11.1279], [1.152774, 0.5589749, 0.5291053, 0.5765322],
                [8.715387e-03, 0.155519, 0.150905, 0.1458598], [3.41257e-02, 1.471311e-02, 1.537241e-02, 1.599849e-02]]
    m = A.MelScale(n_mels=4, sample_rate=100, n_stft=9)(s)
    assert m.dtype == np.float32 and m.shape == (4, 9)
    close(m[:, :4], expected)
    m2 = A.MelScale(n_mels=4, sample_rate=100, n_stft=9, norm=A.NormType.SLANEY, mel_type=A.MelType.SLANEY, f_min=5,
                    f_max=40)(s)
    close(m2[:, :4], [[0.415771, 0.6062881, 0.6395106, 0.621985], [8.095072e-02, 2.089479e-02, 2.095173e-02,
                                                                   2.497697e-02],
                      [4.922466e-04, 2.26966e-02, 2.077883e-02, 1.886562e-02],
                      [1.364663e-03, 8.749069e-03, 9.354076e-03, 9.889487e-03]])
    close(A.MelSpectrogram(sample_rate=100, n_fft=16, n_mels=4)(X)[:, :4], expected)
    with pytest.raises(ValueError, match=r"expects a spectrogram \(\.\.\., 9, time\)"):
        A.MelScale(n_mels=4, sample_rate=100, n_stft=9)(np.zeros((5, 3), np.float32))


def test_masks_and_pipeline():
    s = A.Spectrogram(n_fft=16)(X)
    assert (A.TimeMasking(time_mask_param=0)(s) == s).all()  # a width drawn from [0, 0): nothing masked
    mslab.set_seed(0)
    masked = A.FrequencyMasking(freq_mask_param=5, mask_value=-1.0)(s)
    rows = np.flatnonzero((masked == -1.0).all(axis=1))
    assert masked.shape == s.shape and len(rows) < 5 and (len(rows) == 0 or np.ptp(rows) == len(rows) - 1)
    data = ds.NumpySlicesDataset({"wave": np.stack([X, X])}, shuffle=False).map(
        [A.MelSpectrogram(sample_rate=100, n_fft=16, n_mels=4), A.AmplitudeToDB()])
    assert [r[0].shape for r in data.create_tuple_iterator(output_numpy=True)] == [(4, 9), (4, 9)]
    assert A.WindowType.HANN.value == "hann" and A.ScaleType.POWER.value == "power"  # observed names and values


def test_spectral_centroid_bass_biquad_resample():
    # observed on MindSpore 2.10 CPU (obs23)
    c = A.SpectralCentroid(sample_rate=100, n_fft=16)(X)
    assert c.dtype == np.float32 and c.shape == (1, 9)
    close(c[0], [7.399737, 6.455903, 5.537062, 6.19065, 9.27761, 7.102634, 5.582055, 5.85445, 9.544549])
    c2 = A.SpectralCentroid(sample_rate=100, n_fft=16, hop_length=4, window=A.WindowType.HAMMING)(X)
    assert c2.shape == (1, 17)
    close(c2[0, :6], [7.094091, 6.183489, 6.77311, 8.042998, 5.473931, 8.706104])
    b = A.BassBiquad(100, 3.0)(X)
    assert b.dtype == np.float32 and b.shape == (64,)
    close(b[:10], [0.1, 0.282636, 0.467963, 0.821125, 1.0, 0.937294, 0.902421, 0.941816, 0.726634, 0.335587])
    b2 = A.BassBiquad(100, -6.0, 20.0, 0.5)(X)
    close(b2[-5:], [-0.355838, -0.353974, -0.283437, -0.020384, 0.16435])
    close(A.BassBiquad(100, 20.0)(X * 3)[:4], [0.3, 0.847907, 1.0, 1.0])  # clipped to [-1, 1]
    r = A.Resample(100, 50)(X)
    assert r.dtype == np.float32 and r.shape == (32,)
    close(r[:5], [0.086683, 0.527757, 0.958214, 0.953943, 0.688811])
    assert A.Resample(100, 150)(X).shape == (96,)
    close(A.Resample(100, 150)(X)[:4], [0.100328, 0.225914, 0.334239, 0.468267])
    k = A.Resample(100, 60, resample_method=A.ResampleMethod.KAISER_WINDOW)(X)
    assert k.shape == (39,)
    close(k[:4], [0.101239, 0.408934, 0.898478, 0.956651])
    close(A.Resample(100, 60, resample_method=A.ResampleMethod.KAISER_WINDOW, beta=5.0, lowpass_filter_width=4,
                     rolloff=0.9)(X)[:4], [0.096024, 0.416519, 0.88994, 0.965408])


def _write_wav(path, samples, rate):
    import wave

    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(np.asarray(samples, "<i2").tobytes())


def test_yes_no_and_lj_speech(tmp_path):
    y = tmp_path / "waves_yesno"
    y.mkdir()
    _write_wav(y / "0_1_0_0_1_0_1_1.wav", [0, 16384, -32768, 100], 8000)
    _write_wav(y / "1_1_0_0_1_0_1_0.wav", [1, 2, 3], 8000)
    (y / "README").write_text("x")
    data = ds.YesNoDataset(str(y), shuffle=False)
    assert data.get_col_names() == ["waveform", "sample_rate", "label"] and data.get_dataset_size() == 2
    wave_, rate, label = next(iter(data.create_tuple_iterator(output_numpy=True)))
    # observed on MindSpore 2.10 CPU: samples / 32767, shape (channels, samples), int32 rate and label
    assert wave_.dtype == np.float32 and wave_.shape == (1, 4) and rate.dtype == np.int32 and int(rate) == 8000
    close(wave_[0], [0.0, 0.5000152587890625, -1.000030517578125, 0.0030518509447574615])
    assert label.dtype == np.int32 and label.tolist() == [0, 1, 0, 0, 1, 0, 1, 1]
    lj = tmp_path / "LJSpeech-1.1"
    (lj / "wavs").mkdir(parents=True)
    _write_wav(lj / "wavs" / "LJ001-0001.wav", [0, 8192, -8192], 22050)
    _write_wav(lj / "wavs" / "LJ001-0002.wav", [5], 22050)
    (lj / "metadata.csv").write_text("LJ001-0001|Printing, in the only sense|Printing, in the only sense\n"
                                     "LJ001-0002|in being comparatively modern.|in being comparatively modern 1.\n")
    data = ds.LJSpeechDataset(str(lj), shuffle=False)
    assert data.get_col_names() == ["waveform", "sample_rate", "transcription", "normalized_transcription"]
    got = [[a.tolist() for a in r] for r in data.create_tuple_iterator(output_numpy=True)]
    assert got[1][1:] == [22050, "in being comparatively modern.", "in being comparatively modern 1."]  # observed
    close(got[0][0][0], [0.0, 0.25000762939453125, -0.25000762939453125])


def test_speech_commands(tmp_path):
    s = tmp_path / "sc"
    words = (("yes", ["0a7c2a8d_nohash_0.wav", "0a7c2a8d_nohash_1.wav", "1b2c_nohash_0.wav"]),
             ("no", ["ffd2_nohash_3.wav"]), ("_background_noise_", ["white.wav"]))
    for word, files in words:
        (s / word).mkdir(parents=True)
        for k, name in enumerate(files):
            _write_wav(s / word / name, [k, 100], 16000)
    (s / "validation_list.txt").write_text("yes/0a7c2a8d_nohash_1.wav\n")
    (s / "testing_list.txt").write_text("no/ffd2_nohash_3.wav\n")

    def rows_of(usage):
        data = ds.SpeechCommandsDataset(str(s), usage=usage, shuffle=False)
        return [[a.tolist() for a in r][1:] for r in data.create_tuple_iterator(output_numpy=True)]

    data = ds.SpeechCommandsDataset(str(s), shuffle=False)
    assert data.get_col_names() == ["waveform", "sample_rate", "label", "speaker_id", "utterance_number"]
    # observed on MindSpore 2.10 CPU
    assert rows_of("train") == [[16000, "yes", "0a7c2a8d", 0], [16000, "yes", "1b2c", 0]]
    assert rows_of("valid") == [[16000, "yes", "0a7c2a8d", 1]]
    assert rows_of("test") == [[16000, "no", "ffd2", 3]]
    assert rows_of("all") == [[16000, "no", "ffd2", 3], [16000, "yes", "0a7c2a8d", 0], [16000, "yes", "0a7c2a8d", 1],
                              [16000, "yes", "1b2c", 0]]
    last = next(iter(data.create_tuple_iterator(output_numpy=True)))
    assert last[4].dtype == np.int32 and last[1].dtype == np.int32
