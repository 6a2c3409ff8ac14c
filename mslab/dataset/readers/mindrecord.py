"""``MindDataset``: rows of MindRecord files (written by MindSpore's or mslab's ``FileWriter``).

Columns are the schema's fields in sorted order (or ``columns_list``). A ``bytes`` field comes as a
length-1 ``S`` array (as MindSpore gives it; ``vision.Decode()`` decodes it), a string as a 0-d
``U`` array, numbers as 0-d arrays of their type, arrays in their schema shape.
"""
import os

from mslab.dataset.sources import GeneratorDataset
from mslab.mindrecord.reader import MindRecordRows


class _Rows:
    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        row = self.rows[i]
        return tuple(row[c] for c in self.rows.columns)


class MindDataset(GeneratorDataset):
    """MindRecord file(s) ``dataset_files`` (a path or a list of paths): one row per record; shuffled by default."""

    op_name = "MindDataset"

    def __init__(self, dataset_files, columns_list=None, num_parallel_workers=None, shuffle=None, num_shards=None,
                 shard_id=None, sampler=None, padded_sample=None, num_padded=None, num_samples=None, cache=None):
        paths = [dataset_files] if isinstance(dataset_files, (str, os.PathLike)) else list(dataset_files)
        rows = MindRecordRows(paths, columns_list, self.op_name)
        self.dataset_files, self.cache = paths, cache
        super().__init__(_Rows(rows), rows.columns, num_samples=num_samples, shuffle=shuffle, sampler=sampler,
                         num_shards=num_shards, shard_id=shard_id)
