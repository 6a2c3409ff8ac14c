"""Text data sets stored as files of records: TextFileDataset, WikiTextDataset, and the base of the others.

MindSpore reads the files of one data set with ``num_parallel_workers`` workers (by default
``config.get_num_parallel_workers()``): file i goes to worker i mod K, each worker reads its files one
after the other, and without shuffling the rows come from the workers in turn, one from each, a worker
that has run out dropping out of the turn (observed on MindSpore 2.10 CPU: files of 3, 1 and 2 rows with
2 workers give f0-0, f1-0, f0-1, f0-2, f2-0, f2-1; with 1 worker the files one after the other).
So the order depends on the worker count, as in MindSpore. ``shuffle`` is a bool or a
:class:`Shuffle`: GLOBAL (the default, also True) shuffles all rows, FILES the order of the files,
INFILE the rows within each file, FALSE (also False) none.

A line file keeps only each line's byte offset in memory and reads a line when its row is read.
Empty lines are skipped; a line of spaces is a row (observed).
"""
import glob
import os
from enum import Enum

import numpy as np

from mslab.dataset import config
from mslab.dataset.readers.cifar import check_folder
from mslab.dataset.sources import GeneratorDataset, Sampler


class Shuffle(str, Enum):
    """How a data set of several files is shuffled (``mindspore.dataset.Shuffle``)."""

    FALSE = "false"
    ADAPTIVE = "adaptive"
    GLOBAL = "global"
    PARTIAL = "partial"
    FILES = "files"
    INFILE = "infile"


def take_turns(counts, workers):
    """(file, row) of each row when files of ``counts`` rows are shared among ``workers`` workers as MindSpore
    shares them: file i to worker i mod workers; the workers give one row each in turn."""
    counts = np.asarray(list(counts), np.int64)
    files = np.repeat(np.arange(len(counts)), counts)
    rows = np.concatenate([np.arange(c) for c in counts]) if len(counts) else np.zeros(0, np.int64)
    worker = files % workers
    before = np.zeros(len(counts), np.int64)  # rows of the same worker's earlier files
    for w in range(min(workers, len(counts))):
        mine = np.arange(w, len(counts), workers)
        before[mine] = np.concatenate([[0], np.cumsum(counts[mine])[:-1]])
    order = np.lexsort((worker, before[files] + rows))  # by place in the worker's queue, then by worker
    return files[order], rows[order]


class RowFiles:
    """Random access to the rows of several files, in MindSpore's turn-taking order.

    Subclasses give ``_parse(f)`` (file f's records, a sequence; called once, on first use) and
    ``_row(f, r)`` (record r of file f as a tuple of arrays).
    """

    def __init__(self, paths, what):
        self.paths, self.what, self.workers = list(paths), what, 1
        self._turns, self._parsed = None, [None] * len(self.paths)

    def records(self, f):
        if self._parsed[f] is None:
            self._parsed[f] = self._parse(f)
        return self._parsed[f]

    def _count(self, f):
        return len(self.records(f))

    def counts(self):
        return [self._count(f) for f in range(len(self.paths))]

    def _order(self):
        if self._turns is None:
            files, rows = take_turns(self.counts(), self.workers)
            rank = [np.empty(c, np.int64) for c in self.counts()]
            for i, (f, r) in enumerate(zip(files, rows)):
                rank[f][r] = i
            self._turns = files, rows, rank
        return self._turns

    def __len__(self):
        return len(self._order()[0])

    def __getitem__(self, i):
        files, rows, _ = self._order()
        return self._row(int(files[i]), int(rows[i]))

    def index(self, f, r):
        """The position of file f's row r in the turn-taking order."""
        return int(self._order()[2][f][r])


class _FileShuffle(Sampler):
    """Shuffle.FILES (a new file order each pass) or Shuffle.INFILE (each file's rows in a new order)."""

    random = True

    def __init__(self, source, mode):
        super().__init__()
        self.source, self.mode = source, mode

    def _all(self, n, rng):
        counts = self.source.counts()
        if self.mode == Shuffle.FILES:
            perm = rng.permutation(len(counts))
            files, rows = take_turns([counts[p] for p in perm], self.source.workers)
            return [self.source.index(int(perm[f]), int(r)) for f, r in zip(files, rows)]
        inner = [rng.permutation(c) for c in counts]
        files, rows = take_turns(counts, self.source.workers)
        return [self.source.index(int(f), int(inner[f][r])) for f, r in zip(files, rows)]


def shuffle_args(shuffle, source):
    """(shuffle, sampler) for GeneratorDataset from MindSpore's ``shuffle`` of a file data set."""
    mode = Shuffle.GLOBAL if shuffle is None or shuffle is True else Shuffle.FALSE if shuffle is False \
        else Shuffle(shuffle)
    if mode in (Shuffle.FILES, Shuffle.INFILE):
        return None, _FileShuffle(source, mode)
    return mode != Shuffle.FALSE, None


class LineFiles(RowFiles):
    """The non-empty lines of text files, one row (a 0-d str array) each; only their offsets are kept."""

    def _parse(self, f):
        spans, offset = [], 0  # (start byte, length) of each non-empty line
        with open(self.paths[f], "rb") as fh:
            for line in fh:
                body = line[:-1] if line.endswith(b"\n") else line
                if body:
                    spans.append((offset, len(body)))
                offset += len(line)
        return np.array(spans, np.int64).reshape(-1, 2)

    def _row(self, f, r):
        start, length = self.records(f)[r]
        with open(self.paths[f], "rb") as fh:
            fh.seek(int(start))
            data = fh.read(int(length))
        try:
            return (np.array(data.decode("utf8")),)
        except UnicodeDecodeError as e:
            raise ValueError(f"{self.what}: line {r + 1} of {self.paths[f]} is not UTF-8 text: {e}") from None


def find_files(patterns, what):
    """The files ``patterns`` (a path, a glob pattern, or a list of them) name, in the order given."""
    patterns = [patterns] if isinstance(patterns, (str, os.PathLike)) else list(patterns)
    paths, unmatched = [], []
    for p in patterns:
        found = sorted(glob.glob(os.fspath(p)))
        paths += found
        unmatched += [] if found else [os.fspath(p)]
    if unmatched:  # MindSpore's message
        raise ValueError(f"The following patterns did not match any files: {unmatched}.")
    return paths


def usage_files(dataset_dir, usage, names, what, all_order=None):
    """The files of ``usage`` (a key of ``names``, or "all": every file there, in ``all_order`` of the keys)."""
    if usage not in list(names) + ["all"]:  # MindSpore's message
        raise ValueError(f"Input usage is not within the valid set of {list(names) + ['all']}.")
    dataset_dir = check_folder(dataset_dir, what)
    wanted = [names[k] for k in all_order or names] if usage == "all" else [names[usage]]
    paths = [os.path.join(dataset_dir, n) for n in wanted if os.path.isfile(os.path.join(dataset_dir, n))]
    if not paths:
        raise ValueError(f"{what}: no {' or '.join(wanted)} for usage={usage!r} in {dataset_dir}; found "
                         f"{sorted(os.listdir(dataset_dir))[:10]}")
    return dataset_dir, paths


class FileRowsDataset(GeneratorDataset):
    """Base of the data sets read from files in turn: ``read(source, columns, shuffle, ...)`` sets it up."""

    def read(self, source, columns, shuffle, num_samples, num_shards, shard_id, num_parallel_workers):
        source.workers = num_parallel_workers or config.get_num_parallel_workers()
        shuffle, sampler = shuffle_args(shuffle, source)
        super().__init__(source, columns, num_samples=num_samples, shuffle=shuffle, sampler=sampler,
                         num_shards=num_shards, shard_id=shard_id)


class TextFileDataset(FileRowsDataset):
    """The lines of ``dataset_files`` (a path, a glob pattern, or a list): one column ``text``."""

    op_name = "TextFileDataset"

    def __init__(self, dataset_files, num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        source = LineFiles(find_files(dataset_files, self.op_name), self.op_name)
        self.dataset_files, self.cache = source.paths, cache
        self.read(source, ["text"], shuffle, num_samples, num_shards, shard_id, num_parallel_workers)


class _LinesDataset(FileRowsDataset):
    """A data set of line files named by ``usage``: ``files`` maps each usage to its file."""

    files = {}

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        self.dataset_dir, paths = usage_files(dataset_dir, usage or "all", self.files, self.op_name,
                                              all_order=["test", "train", "valid"])
        self.usage, self.cache = usage or "all", cache
        self.read(LineFiles(paths, self.op_name), ["text"], shuffle, num_samples, num_shards, shard_id,
                  num_parallel_workers)


class WikiTextDataset(_LinesDataset):
    """WikiText-2 / WikiText-103 (``wiki.train.tokens``, ``wiki.valid.tokens``, ``wiki.test.tokens``): column ``text``.

    ``usage`` is "train", "valid", "test" or "all" (the default: test, train and valid, as MindSpore 2.10
    orders them; observed).
    """

    op_name = "WikiTextDataset"
    files = {"train": "wiki.train.tokens", "valid": "wiki.valid.tokens", "test": "wiki.test.tokens"}


class PennTreebankDataset(_LinesDataset):
    """Penn Treebank (``ptb.train.txt``, ``ptb.valid.txt``, ``ptb.test.txt``): column ``text``, one line a row.

    ``usage`` is "train", "valid", "test" or "all" (the default: test, train and valid; observed).
    """

    op_name = "PennTreebankDataset"
    files = {"train": "ptb.train.txt", "valid": "ptb.valid.txt", "test": "ptb.test.txt"}
