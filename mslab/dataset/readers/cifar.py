"""``Cifar10Dataset``: the CIFAR-10 binary version, read from a local folder (nothing downloads).

The folder (``cifar-10-batches-bin``) holds ``data_batch_1.bin`` ... ``data_batch_5.bin`` (training)
and ``test_batch.bin``. Each file is a run of 3073-byte records: one label byte (0-9), then the
32x32 image as three planes (red, green, blue: channels first, 1024 bytes each). MindSpore gives
each row as ``image`` (uint8, 32x32x3: channels last) and ``label`` (uint32).
"""
import glob
import os

import numpy as np

from mslab.dataset.readers.records import RecordFiles
from mslab.dataset.sources import GeneratorDataset

SIDE, CHANNELS = 32, 3
RECORD = 1 + CHANNELS * SIDE * SIDE


class _Cifar10Records(RecordFiles):
    def __getitem__(self, i):
        rec = self.record(i)
        image = np.frombuffer(rec, np.uint8, offset=1).reshape(CHANNELS, SIDE, SIDE).transpose(1, 2, 0)
        return np.ascontiguousarray(image), np.uint32(rec[0])


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
        usage = "all" if usage is None else usage
        if usage not in ("train", "test", "all"):
            raise ValueError(f"{self.op_name}: usage must be 'train', 'test' or 'all', got {usage!r}")
        dataset_dir = check_folder(dataset_dir, self.op_name)
        train = sorted(glob.glob(os.path.join(dataset_dir, "data_batch_*.bin")))
        test = sorted(glob.glob(os.path.join(dataset_dir, "test_batch*.bin")))
        paths = {"train": train, "test": test, "all": train + test}[usage]
        if not paths:
            raise ValueError(f"{self.op_name}: no CIFAR-10 binary files for usage={usage!r} in {dataset_dir} "
                             f"(expected data_batch_1.bin ... and test_batch.bin); found "
                             f"{sorted(os.listdir(dataset_dir))[:10]}")
        self.dataset_dir, self.usage = dataset_dir, usage
        super().__init__(_Cifar10Records(paths, RECORD, self.op_name), ["image", "label"], num_samples=num_samples,
                         shuffle=shuffle, sampler=sampler, num_shards=num_shards, shard_id=shard_id)
