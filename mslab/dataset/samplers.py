"""Samplers that weigh rows or balance classes (``WeightedRandomSampler``, ``PKSampler``) or come from Python
(``IterSampler``); subclasses of ``Sampler`` with ``__iter__`` and child samplers follow
:mod:`mslab.dataset.sampler_rules`.

Like every sampler they pick the indices of a random-access source for one pass (see
:mod:`mslab.dataset.sources`), drawing from the dataset random generator, so ``mslab.set_seed``
repeats them; the draws are not MindSpore's own (its C++ generator), only their distribution is.
"""
import numbers

import numpy as np

from mslab.dataset.sources import Sampler

_INT64_MAX = 2**63 - 1


def _num_samples(num_samples):
    if num_samples is not None and (isinstance(num_samples, bool) or not isinstance(num_samples, numbers.Integral)):
        raise TypeError(f"num_samples must be an int, got {type(num_samples).__name__}")
    if num_samples is not None and not 0 <= num_samples <= _INT64_MAX:  # MindSpore's message
        raise ValueError("num_samples exceeds the boundary between 0 and 9223372036854775807(INT64_MAX)!")
    return num_samples or None  # 0 means all rows, as in MindSpore


class WeightedRandomSampler(Sampler):
    """Row i is drawn with probability ``weights[i] / sum(weights)``: ``num_samples`` draws per pass.

    ``weights`` may be shorter than the data set (the rows after it are never drawn) but not longer.
    ``num_samples`` (default: all rows) is capped at the number of rows, as in MindSpore 2.10 (observed:
    5 draws from 4 rows give 4). With ``replacement=False`` each row comes at most once: the rows of
    positive weight in a weighted random order, then, when more are asked for, the zero-weight rows
    (observed: 5 of 6 rows with weights [0, 1, 1, 0, 0, 1] gave [1, 2, 5, 0, 3]).
    As in MindSpore, bad weights (negative, all zero, none) are reported when the rows are read.
    """

    random = True

    def __init__(self, weights, num_samples=None, replacement=True):
        weights = list(weights)
        for i, w in enumerate(weights):
            if isinstance(w, bool) or not isinstance(w, numbers.Real):  # MindSpore's message
                raise TypeError(f"type of weights element must be number, but got w[{i}]: {w}, type: {type(w)}.")
        if not isinstance(replacement, bool):
            raise TypeError(f"WeightedRandomSampler: replacement must be a bool, got {type(replacement).__name__}")
        super().__init__(_num_samples(num_samples))
        self.weights, self.replacement = [float(w) for w in weights], replacement

    def _checked_weights(self, n):
        w = np.asarray(self.weights, np.float64)
        if w.size == 0:
            raise RuntimeError("WeightedRandomSampler: weights vector must not be empty")
        if (w < 0).any():
            i = int(np.flatnonzero(w < 0)[0])
            raise RuntimeError(f"WeightedRandomSampler: weights vector must not contain negative numbers, got: "
                               f"weights[{i}] = {w[i]:f}")
        if not w.any():
            raise RuntimeError("WeightedRandomSampler: elements of weights vector must not be all zero")
        if w.size > n:
            raise RuntimeError(f"WeightedRandomSampler: size of sample weights must be less than or equal to num of "
                               f"data, but got weight size: {w.size}, num of data: {n}")
        return w

    def _all(self, n, rng):
        w = self._checked_weights(n)
        k = min(self.num_samples or n, n)
        if self.replacement:
            return rng.choice(len(w), size=k, p=w / w.sum())
        # weighted order without replacement: sort by u ** (1 / w) (Efraimidis and Spirakis), zero weights last
        keys = np.where(w > 0, rng.random(len(w)) ** (1 / np.where(w > 0, w, 1)), -rng.random(len(w)))
        return np.argsort(-keys, kind="stable")[:k]


class PKSampler(Sampler):
    """``num_val`` rows of every class: P classes x K rows, as for metric learning (triplet losses).

    The classes are the values of the ``class_column`` column, in sorted order (or a random order
    with ``shuffle=True``); each of a class's K rows is drawn uniformly, with replacement, from that
    class's rows (as MindSpore 2.10's PKSampler: a class of 2 rows can give the same row twice).
    ``num_samples`` caps the rows of a pass. It picks rows of the data set readers (``ImageFolderDataset``,
    ``MnistDataset``, ``Cifar10Dataset``, ...); MindSpore's GeneratorDataset does not support it, and
    neither does mslab's.
    """

    random = True

    def __init__(self, num_val, num_class=None, shuffle=False, class_column="label", num_samples=None):
        if isinstance(num_val, bool) or not isinstance(num_val, numbers.Integral):
            raise TypeError(f"PKSampler: num_val must be an int, got {type(num_val).__name__}")
        if num_val < 1:
            raise ValueError(f"PKSampler: num_val must be >= 1, got {num_val}")
        if num_class is not None:  # MindSpore's message
            raise NotImplementedError("Not supported to specify num_class for PKSampler.")
        super().__init__(_num_samples(num_samples))
        self.num_val, self.shuffle, self.class_column = int(num_val), bool(shuffle), class_column

    def _check_source(self, dataset):
        if dataset.op_name in ("GeneratorDataset", "NumpySlicesDataset", "PaddedDataset"):
            raise ValueError("GeneratorDataset doesn't support PKSampler.")  # MindSpore's message
        if self.class_column not in dataset.column_names:
            raise ValueError(f"PKSampler: {dataset.op_name} has no column {self.class_column!r} (its columns are "
                             f"{dataset.column_names}); pass class_column=")

    def _classes(self, n, dataset):
        """``{label: [row indices]}`` of ``dataset``'s ``class_column``."""
        source = dataset.source
        if self.class_column == "label" and hasattr(source, "labels"):
            labels = source.labels()  # known without reading the rows (ImageFolderDataset)
        else:
            col = dataset.column_names.index(self.class_column)
            labels = [source[i][col].item() for i in range(n)]
        classes = {}
        for i, label in enumerate(labels):
            classes.setdefault(label, []).append(i)
        return classes

    def _own(self, n, rng, dataset=None):
        classes = self._classes(n, dataset)
        order = sorted(classes)
        if self.shuffle:
            order = [order[i] for i in rng.permutation(len(order))]
        idx = [rows[rng.integers(len(rows))] for c in order for rows in [classes[c]] for _ in range(self.num_val)]
        return idx if self.num_samples is None else idx[:self.num_samples]


class IterSampler(Sampler):
    """The indices a Python iterable gives (a list, or an object with ``__iter__``), iterated anew each pass;
    ``num_samples`` caps them (observed on MindSpore 2.10: an iterable of [3, 1, 1] reads rows 3, 1, 1)."""

    def __init__(self, sampler, num_samples=None):
        if not hasattr(sampler, "__iter__"):
            raise TypeError(f"IterSampler: sampler must be iterable (a list or an object with __iter__), got "
                            f"{type(sampler).__name__}")
        super().__init__(_num_samples(num_samples))
        self.sampler = sampler

    def _all(self, n, rng):
        return [int(i) for i in self.sampler]

