"""Text data sets of records: the CSV ones (Yelp, Amazon, AG News, DBpedia, Sogou News, Yahoo Answers),
SQuADDataset (JSON) and IMDBDataset (a folder of reviews).

Every column is text (a 0-d str array), the label too ("1", as in the CSV file), as MindSpore 2.10 gives
them (observed on CPU). A data set's files are read in turn (see :mod:`mslab.dataset.readers.text_files`);
each file is parsed when it is first read.
"""
import csv
import json
import os

import numpy as np

from mslab.dataset.readers.cifar import check_folder
from mslab.dataset.readers.records import ItemRows
from mslab.dataset.readers.text_files import FileRowsDataset, RowFiles, Shuffle, usage_files
from mslab.dataset.sources import GeneratorDataset


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
    all_order = ("test", "train")  # the files of usage="all" (observed on MindSpore 2.10)

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        names = {"train": "train.csv", "test": "test.csv"}
        self.dataset_dir, paths = usage_files(dataset_dir, usage or "all", names, self.op_name, self.all_order)
        self.usage, self.cache = usage or "all", cache
        self.read(_CsvFiles(paths, list(self.columns), self.op_name), list(self.columns), shuffle, num_samples,
                  num_shards, shard_id, num_parallel_workers)


class YelpReviewDataset(_CsvDataset):
    """Yelp reviews (``train.csv``, ``test.csv``: label, text): columns ``label`` and ``text``.

    ``usage`` is "train", "test" or "all" (the default: both files, train.csv first; the others of these
    CSV data sets but Sogou News put test.csv first, observed).
    """

    op_name = "YelpReviewDataset"
    columns = ("label", "text")
    all_order = ("train", "test")


class AmazonReviewDataset(_CsvDataset):
    """Amazon reviews (``train.csv``, ``test.csv``: label, title, content): columns label, title, content."""

    op_name = "AmazonReviewDataset"
    columns = ("label", "title", "content")


class AGNewsDataset(_CsvDataset):
    """AG News (``train.csv``, ``test.csv``): columns ``index`` (the class), ``title``, ``description``."""

    op_name = "AGNewsDataset"
    columns = ("index", "title", "description")


class DBpediaDataset(_CsvDataset):
    """DBpedia ontology (``train.csv``, ``test.csv``): columns ``class``, ``title``, ``content``."""

    op_name = "DBpediaDataset"
    columns = ("class", "title", "content")


class SogouNewsDataset(_CsvDataset):
    """Sogou News (``train.csv``, ``test.csv``): columns ``index``, ``title``, ``content``."""

    op_name = "SogouNewsDataset"
    columns = ("index", "title", "content")
    all_order = ("train", "test")


class YahooAnswersDataset(_CsvDataset):
    """Yahoo! Answers (``train.csv``, ``test.csv``): columns ``class``, ``title``, ``content``, ``answer``."""

    op_name = "YahooAnswersDataset"
    columns = ("class", "title", "content", "answer")


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
                  num_samples, num_shards, shard_id, num_parallel_workers)


def _review(file):
    path, label = file
    with open(path, encoding="utf8") as f:
        return np.array(f.read()), np.int32(label)


class IMDBDataset(GeneratorDataset):
    """IMDB movie reviews (``aclImdb``: ``train/pos``, ``train/neg``, ``test/pos``, ``test/neg``, one review a file).

    Columns ``text`` (the file's text as it is) and ``label`` (int32: 1 positive, 0 negative); ``train/unsup``
    is left out. Rows come in sorted file order, positive before negative, train before test for
    ``usage="all"`` (the default), as MindSpore 2.10 reads them (observed). Shuffled by default.
    """

    op_name = "IMDBDataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        usage = usage or "all"
        if usage not in ("train", "test", "all"):  # MindSpore's message
            raise ValueError("Input usage is not within the valid set of ['train', 'test', 'all'].")
        root = check_folder(dataset_dir, self.op_name)
        files = []
        for split in (("train", "test") if usage == "all" else (usage,)):
            for name, label in (("pos", 1), ("neg", 0)):
                folder = os.path.join(root, split, name)
                if os.path.isdir(folder):
                    files += [(os.path.join(folder, f), label) for f in sorted(os.listdir(folder))
                              if f.endswith(".txt")]
        if not files:
            raise ValueError(f"{self.op_name}: no reviews for usage={usage!r} in {root} (expected train/pos/*.txt, "
                             f"train/neg/*.txt, test/pos/*.txt, test/neg/*.txt)")
        self.dataset_dir, self.usage, self.cache = root, usage, cache
        super().__init__(ItemRows(files, _review), ["text", "label"], num_samples=num_samples, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id)
