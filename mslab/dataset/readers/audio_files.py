"""Speech data sets of WAV files: YesNo, LJSpeech, SpeechCommands (read with Python's ``wave`` module).

A 16-bit PCM WAV file becomes ``waveform``: float32 of shape (channels, samples), each sample divided by
32767 (so -32768 gives -1.00003), and ``sample_rate`` (int32), as MindSpore 2.10 reads them (observed on CPU).
"""
import csv
import os
import wave

import numpy as np

from mslab.dataset.readers.cifar import check_folder
from mslab.dataset.readers.records import ItemRows
from mslab.dataset.sources import GeneratorDataset


def read_wav(path, what):
    """(waveform float32 (channels, samples), sample rate) of a 16-bit PCM WAV file."""
    try:
        with wave.open(path, "rb") as w:
            if w.getsampwidth() != 2:
                raise ValueError(f"{8 * w.getsampwidth()}-bit samples; mslab reads 16-bit PCM WAV files")
            data = np.frombuffer(w.readframes(w.getnframes()), "<i2").reshape(-1, w.getnchannels())
            rate = w.getframerate()
    except (wave.Error, EOFError, ValueError) as e:
        raise RuntimeError(f"{what}: cannot read {path}: {e}") from None
    return (data.T / np.float32(32767)).astype(np.float32), np.int32(rate)


class YesNoDataset(GeneratorDataset):
    """The Yes/No corpus (``waves_yesno``): files like ``0_1_0_0_1_0_1_1.wav``, each 8 words of yes (1) or no (0).

    Columns ``waveform``, ``sample_rate`` and ``label`` (int32, the 8 digits of the file name). Shuffled by default.
    """

    op_name = "YesNoDataset"

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        folder = check_folder(dataset_dir, self.op_name)
        names = sorted(n for n in os.listdir(folder) if n.endswith(".wav"))
        if not names:
            raise ValueError(f"{self.op_name}: no .wav files in {folder}")
        self.dataset_dir, self.cache = folder, cache

        def read(name):
            return read_wav(os.path.join(folder, name), self.op_name) + (
                np.array([int(v) for v in name[:-4].split("_")], np.int32),)

        super().__init__(ItemRows(names, read), ["waveform", "sample_rate", "label"],
                         num_samples=num_samples, shuffle=shuffle, sampler=sampler, num_shards=num_shards,
                         shard_id=shard_id)


class LJSpeechDataset(GeneratorDataset):
    """LJ Speech (``LJSpeech-1.1``: ``metadata.csv`` of ``id|transcription|normalized transcription``, ``wavs/``).

    Columns ``waveform``, ``sample_rate``, ``transcription``, ``normalized_transcription``, in metadata.csv's order.
    """

    op_name = "LJSpeechDataset"

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        folder = check_folder(dataset_dir, self.op_name)
        meta = os.path.join(folder, "metadata.csv")
        if not os.path.isfile(meta):
            raise ValueError(f"{self.op_name}: no metadata.csv in {folder}")
        with open(meta, encoding="utf8", newline="") as f:
            records = [r for r in csv.reader(f, delimiter="|", quoting=csv.QUOTE_NONE) if r]
        bad = [k + 1 for k, r in enumerate(records) if len(r) != 3]
        if bad:
            raise ValueError(f"{self.op_name}: line(s) {bad[:5]} of {meta} are not id|transcription|normalized")
        self.dataset_dir, self.cache = folder, cache

        def read(record):
            wav = os.path.join(folder, "wavs", f"{record[0]}.wav")
            return read_wav(wav, self.op_name) + (np.array(record[1]), np.array(record[2]))

        super().__init__(ItemRows(records, read),
                         ["waveform", "sample_rate", "transcription", "normalized_transcription"],
                         num_samples=num_samples, shuffle=shuffle, sampler=sampler, num_shards=num_shards,
                         shard_id=shard_id)


class SpeechCommandsDataset(GeneratorDataset):
    """Speech Commands: one folder per word (``yes/0a7c2a8d_nohash_1.wav``: speaker 0a7c2a8d, utterance 1).

    Columns ``waveform``, ``sample_rate``, ``label`` (the word), ``speaker_id`` and ``utterance_number`` (int32).
    ``usage`` "valid" and "test" read the files listed in ``validation_list.txt`` and ``testing_list.txt``,
    "train" the others, "all" (the default) every file; ``_background_noise_`` is left out. Words and files
    come in sorted order (observed on MindSpore 2.10). Shuffled by default.
    """

    op_name = "SpeechCommandsDataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        usage = usage or "all"
        if usage not in ("train", "valid", "test", "all"):  # MindSpore's message
            raise ValueError("Input usage is not within the valid set of ['train', 'valid', 'test', 'all'].")
        folder = check_folder(dataset_dir, self.op_name)
        words = sorted(d for d in os.listdir(folder)
                       if os.path.isdir(os.path.join(folder, d)) and d != "_background_noise_")
        files = [f"{w}/{n}" for w in words for n in sorted(os.listdir(os.path.join(folder, w))) if n.endswith(".wav")]
        lists = {}
        for key, name in (("valid", "validation_list.txt"), ("test", "testing_list.txt")):
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                with open(path, encoding="utf8") as f:
                    lists[key] = set(f.read().split())
            else:
                lists[key] = set()
        if usage in ("valid", "test"):
            files = [f for f in files if f in lists[usage]]
        elif usage == "train":
            files = [f for f in files if f not in lists["valid"] | lists["test"]]
        self.dataset_dir, self.usage, self.cache = folder, usage, cache

        def read(name):
            word, file = name.split("/")
            speaker, _, number = file[:-4].rpartition("_nohash_")
            return read_wav(os.path.join(folder, word, file), self.op_name) + (
                np.array(word), np.array(speaker), np.int32(number))

        super().__init__(ItemRows(files, read), ["waveform", "sample_rate", "label", "speaker_id", "utterance_number"],
                         num_samples=num_samples, shuffle=shuffle, sampler=sampler, num_shards=num_shards,
                         shard_id=shard_id)
