"""``PaddedDataset``: rows given as a list of dicts, used to pad a data set so it splits evenly into shards.

Each dict is one row; its keys name the columns (every dict needs the same keys). Values become numpy
arrays as numpy makes them (``1`` -> int64, ``2.5`` -> float64, ``"x"`` -> a ``<U1`` string array, as
MindSpore 2.10 gives them; observed on CPU). Not shuffled: the rows come in the order given, so
``dataset + PaddedDataset([...])`` appends them.
"""
import numpy as np

from mslab.dataset.sources import GeneratorDataset


class _DictRows:
    def __init__(self, samples, columns):
        self.samples, self.columns = samples, columns

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        row = self.samples[i]
        if set(row) != set(self.columns):
            raise ValueError(f"PaddedDataset: padded_samples[{i}] has the keys {sorted(row)}, but padded_samples[0] "
                             f"has {self.columns}; every row needs the same columns")
        return tuple(np.asarray(row[c]) for c in self.columns)


class PaddedDataset(GeneratorDataset):
    """The rows ``padded_samples`` (a non-empty list of dicts ``{column: value}``), in order."""

    op_name = "PaddedDataset"

    def __init__(self, padded_samples):
        if not isinstance(padded_samples, list):
            raise TypeError(f"PaddedDataset: padded_samples must be a list of dicts, got "
                            f"{type(padded_samples).__name__}")
        if not padded_samples:
            raise ValueError("padded_samples cannot be empty.")  # MindSpore's message
        for s in padded_samples:
            if not isinstance(s, dict):  # MindSpore's message
                raise TypeError(f"Argument padded_element with value {s!r} is not of type [<class 'dict'>], "
                                f"but got {type(s)}.")
        self.padded_samples = padded_samples
        columns = list(padded_samples[0])
        super().__init__(_DictRows(padded_samples, columns), columns, shuffle=False)
