"""Text data sets of records: YelpReviewDataset, AmazonReviewDataset (CSV files) and SQuADDataset (JSON).

Every column is text (a 0-d str array), the label too ("1", as in the CSV file), as MindSpore 2.10 gives
them (observed on CPU). A data set's files are read in turn (see :mod:`mslab.dataset.readers.text_files`);
each file is parsed when it is first read.
"""
import csv
import json
import os

import numpy as np

from mslab.dataset.readers.text_files import FileRowsDataset, RowFiles, Shuffle, usage_files


class _CsvFiles(RowFiles):
    """The records of CSV files (quoted or not; doubled quotes inside quotes; blank lines skipped)."""

    def __init__(self, paths, columns, what):
        super().__init__(paths, what)
        self.columns = columns

    def _parse(self, f):
        with open(self.paths[f], newline="", encoding="utf8") as fh:
            records = [r for r in csv.reader(fh) if r]
        for k, r in enumerate(records):
            if len(r) != len(self.columns):
                raise RuntimeError(f"{self.what}: record {k + 1} of {self.paths[f]} has {len(r)} field(s), but "
                                   f"the file's columns are {self.columns}")
        return records

    def _row(self, f, r):
        return tuple(np.array(v) for v in self.records(f)[r])


class _CsvDataset(FileRowsDataset):
    columns = ()

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        names = {"train": "train.csv", "test": "test.csv"}
        self.dataset_dir, paths = usage_files(dataset_dir, usage or "all", names, self.op_name)
        self.usage, self.cache = usage or "all", cache
        self.read(_CsvFiles(paths, list(self.columns), self.op_name), list(self.columns), shuffle, num_samples,
                  num_shards, shard_id)


class YelpReviewDataset(_CsvDataset):
    """Yelp reviews (``train.csv``, ``test.csv``: label, text): columns ``label`` and ``text``.

    ``usage`` is "train", "test" or "all" (the default: train and test read in turn).
    """

    op_name = "YelpReviewDataset"
    columns = ("label", "text")


class AmazonReviewDataset(_CsvDataset):
    """Amazon reviews (``train.csv``, ``test.csv``: label, title, content): columns label, title, content."""

    op_name = "AmazonReviewDataset"
    columns = ("label", "title", "content")


class _SquadFiles(RowFiles):
    """One row per question of SQuAD JSON files: context, question, answer texts, answer starts."""

    def _parse(self, f):
        try:
            with open(self.paths[f], encoding="utf8") as fh:
                data = json.load(fh)["data"]
            return [(p["context"], q) for article in data for p in article["paragraphs"] for q in p["qas"]]
        except (ValueError, KeyError, TypeError) as e:
            raise RuntimeError(f"{self.what}: {self.paths[f]} is not a SQuAD JSON file "
                               f"(data -> paragraphs -> qas): {type(e).__name__}: {e}") from None

    def _row(self, f, r):
        context, q = self.records(f)[r]
        answers = q.get("answers") or [{"text": "", "answer_start": -1}]  # an unanswerable SQuAD 2.0 question
        starts = np.array([a["answer_start"] for a in answers], np.int64).astype(np.uint32)  # -1 -> 4294967295
        return np.array(context), np.array(q["question"]), np.array([a["text"] for a in answers]), starts


class SQuADDataset(FileRowsDataset):
    """SQuAD 1.1 / 2.0 (``train-v1.1.json`` / ``dev-v1.1.json`` or the v2.0 files) from ``dataset_dir``.

    Columns ``context``, ``question``, ``text`` (the answers, 1-D) and ``answer_start`` (uint32, 1-D). A
    question without answers (SQuAD 2.0) gives text ``[""]`` and answer_start ``[4294967295]`` (-1 as
    uint32), as MindSpore 2.10 gives it (observed). ``usage`` is "train", "dev" or "all" (train and dev in turn).
    """

    op_name = "SQuADDataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        v1 = any(os.path.isfile(os.path.join(os.fspath(dataset_dir), f"{u}-v1.1.json")) for u in ("train", "dev"))
        version = "v1.1" if v1 else "v2.0"
        names = {"train": f"train-{version}.json", "dev": f"dev-{version}.json"}
        self.dataset_dir, paths = usage_files(dataset_dir, usage or "all", names, self.op_name)
        self.usage, self.cache = usage or "all", cache
        self.read(_SquadFiles(paths, self.op_name), ["context", "question", "text", "answer_start"], shuffle,
                  num_samples, num_shards, shard_id)
