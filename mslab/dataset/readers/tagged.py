"""Tagged-sentence corpora: CoNLL2000Dataset (chunking) and UDPOSDataset (part-of-speech tags).

Each line holds a word and its tags separated by whitespace; a blank line ends a sentence. A row is one
sentence: a 1-D str array per column. As MindSpore 2.10 reads them (observed on CPU), a sentence counts
only when a blank line follows it: the last one of a file without a closing blank line is left out.
"""
import numpy as np

from mslab.dataset.readers.text_files import FileRowsDataset, RowFiles, Shuffle, usage_files


class _TaggedFiles(RowFiles):
    def __init__(self, paths, columns, what):
        super().__init__(paths, what)
        self.columns = columns

    def _parse(self, f):
        sentences, words = [], []
        with open(self.paths[f], encoding="utf8") as fh:
            for k, line in enumerate(fh, 1):
                fields = line.split()
                if not fields:
                    if words:
                        sentences.append(words)
                    words = []
                    continue
                if len(fields) != len(self.columns):
                    raise RuntimeError(f"{self.what}: line {k} of {self.paths[f]} has {len(fields)} field(s), "
                                       f"expected {len(self.columns)} ({', '.join(self.columns)})")
                words.append(fields)
        return sentences

    def _row(self, f, r):
        return tuple(np.array(column) for column in zip(*self.records(f)[r]))


class _TaggedDataset(FileRowsDataset):
    files, columns, all_order = {}, (), ("test", "train", "valid")

    def __init__(self, dataset_dir, usage=None, num_samples=None, shuffle=Shuffle.GLOBAL, num_shards=None,
                 shard_id=None, num_parallel_workers=None, cache=None):
        order = [u for u in self.all_order if u in self.files]
        self.dataset_dir, paths = usage_files(dataset_dir, usage or "all", self.files, self.op_name, order)
        self.usage, self.cache = usage or "all", cache
        self.read(_TaggedFiles(paths, self.columns, self.op_name), list(self.columns), shuffle, num_samples,
                  num_shards, shard_id, num_parallel_workers)


class CoNLL2000Dataset(_TaggedDataset):
    """CoNLL-2000 chunking (``train.txt``, ``test.txt``): columns ``word``, ``pos_tag``, ``chunk_tag``.

    ``usage`` is "train", "test" or "all" (the default: test, then train; observed).
    """

    op_name = "CoNLL2000Dataset"
    files = {"train": "train.txt", "test": "test.txt"}
    columns = ("word", "pos_tag", "chunk_tag")


class UDPOSDataset(_TaggedDataset):
    """Universal Dependencies English tags (``en-ud-tag.v2.{train,dev,test}.txt``): columns ``word``,
    ``universal``, ``stanford``. ``usage`` is "train", "valid" (the dev file), "test" or "all"."""

    op_name = "UDPOSDataset"
    files = {"train": "en-ud-tag.v2.train.txt", "valid": "en-ud-tag.v2.dev.txt", "test": "en-ud-tag.v2.test.txt"}
    columns = ("word", "universal", "stanford")
