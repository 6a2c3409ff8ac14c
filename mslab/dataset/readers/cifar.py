"""``Cifar10Dataset``, ``Cifar100Dataset``: the CIFAR binary versions, read from a local folder (nothing downloads).

The folder (``cifar-10-batches-bin``) holds ``data_batch_1.bin`` ... ``data_batch_5.bin`` (training)
and ``test_batch.bin``. Each file is a run of 3073-byte records: one label byte (0-9), then the
32x32 image as three planes (red, green, blue: channels first, 1024 bytes each). MindSpore gives
each row as ``image`` (uint8, 32x32x3: channels last) and ``label`` (uint32).

CIFAR-100 (``cifar-100-binary``) has ``train.bin`` and ``test.bin`` of 3074-byte records: a coarse label
byte (0-19), a fine label byte (0-99), then the image as above; rows are ``image``, ``coarse_label``
and ``fine_label`` (uint32).
"""
import glob
import os

import numpy as np

from mslab.dataset.readers.records import RecordFiles
from mslab.dataset.sources import GeneratorDataset

SIDE, CHANNELS = 32, 3


class _CifarRecords(RecordFiles):
    """Records of ``labels`` label bytes, then a channels-first 32x32x3 image."""

    def __init__(self, paths, labels, what):
        super().__init__(paths, labels + CHANNELS * SIDE * SIDE, what)
        self.label_bytes = labels

    def __getitem__(self, i):
        rec = self.record(i)
        image = np.frombuffer(rec, np.uint8, offset=self.label_bytes).reshape(CHANNELS, SIDE, SIDE).transpose(1, 2, 0)
        return (np.ascontiguousarray(image),) + tuple(np.uint32(b) for b in rec[:self.label_bytes])


def _check_usage(usage, what):
    usage = "all" if usage is None else usage
    if usage not in ("train", "test", "all"):
        raise ValueError(f"{what}: usage must be 'train', 'test' or 'all', got {usage!r}")
    return usage


def check_folder(dataset_dir, what):
    """``dataset_dir`` as a string, or MindSpore's ValueError if it is not a folder."""
    dataset_dir = os.fspath(dataset_dir)
    if not os.path.isdir(dataset_dir):
        raise ValueError(f"{what}: the folder {dataset_dir} does not exist or is not a directory")
    return dataset_dir


class Cifar10Dataset(GeneratorDataset):
    """CIFAR-10 (binary version) from ``dataset_dir``: columns ``image`` (uint8, (32, 32, 3)) and ``label`` (uint32).

    ``usage`` is ``"train"`` (the data_batch files), ``"test"`` (test_batch) or ``"all"`` (the
    default: train, then test). Shuffled by default; ``num_samples``, ``sampler`` as in every source.
    Records are read from disk one at a time, so a pass over 50,000 images keeps memory flat.
    """

    op_name = "Cifar10Dataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        usage = _check_usage(usage, self.op_name)
        dataset_dir = check_folder(dataset_dir, self.op_name)
        train = sorted(glob.glob(os.path.join(dataset_dir, "data_batch_*.bin")))
        test = sorted(glob.glob(os.path.join(dataset_dir, "test_batch*.bin")))
        paths = {"train": train, "test": test, "all": train + test}[usage]
        if not paths:
            raise ValueError(f"{self.op_name}: no CIFAR-10 binary files for usage={usage!r} in {dataset_dir} "
                             f"(expected data_batch_1.bin ... and test_batch.bin); found "
                             f"{sorted(os.listdir(dataset_dir))[:10]}")
        self.dataset_dir, self.usage, self.cache = dataset_dir, usage, cache
        super().__init__(_CifarRecords(paths, 1, self.op_name), ["image", "label"], num_samples=num_samples,
                         shuffle=shuffle, sampler=sampler, num_shards=num_shards, shard_id=shard_id)


class Cifar100Dataset(GeneratorDataset):
    """CIFAR-100 (binary version) from ``dataset_dir``: columns ``image``, ``coarse_label``, ``fine_label``.

    ``usage`` is ``"train"`` (train.bin), ``"test"`` (test.bin) or ``"all"`` (the default: test.bin,
    then train.bin, in sorted file order as MindSpore 2.10 reads them; observed on CPU). Shuffled by
    default; records are read one at a time.
    """

    op_name = "Cifar100Dataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        usage = _check_usage(usage, self.op_name)
        dataset_dir = check_folder(dataset_dir, self.op_name)
        names = {"train": ["train.bin"], "test": ["test.bin"], "all": ["test.bin", "train.bin"]}[usage]
        paths = [os.path.join(dataset_dir, n) for n in names if os.path.isfile(os.path.join(dataset_dir, n))]
        if not paths:
            raise ValueError(f"{self.op_name}: no CIFAR-100 binary files for usage={usage!r} in {dataset_dir} "
                             f"(expected train.bin and test.bin); found {sorted(os.listdir(dataset_dir))[:10]}")
        self.dataset_dir, self.usage, self.cache = dataset_dir, usage, cache
        super().__init__(_CifarRecords(paths, 2, self.op_name), ["image", "coarse_label", "fine_label"],
                         num_samples=num_samples, shuffle=shuffle, sampler=sampler, num_shards=num_shards,
                         shard_id=shard_id)
