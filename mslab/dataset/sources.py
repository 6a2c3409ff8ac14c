"""Where rows come from: GeneratorDataset, NumpySlicesDataset, MnistDataset, and samplers.

A *random-access* source (it has ``__getitem__`` and ``__len__``, like a list or a class in the
PyTorch style) is read by index, so it can be shuffled, and is shuffled by default
(``shuffle=None``). A generator function or other iterable is read in order, once per epoch.
A generator *object* (``gen()``) can be read only once, so its rows are kept the first time it is
read (by ``get_dataset_size()``, a peek, or the first epoch) and every epoch reads them again, as
MindSpore does. Counting reads every row, as MindSpore counts them (a finite generator of millions of
rows has its size); after ``COUNTING_NOTICE_ROWS`` rows a warning says that counting goes on, so a
source that never ends is not a silent hang: interrupt it and give ``num_samples``.
"""
import copy
import os
import warnings

import numpy as np

from mslab.core import dtype as mstype
from mslab.dataset import sampler_rules
from mslab.dataset.base import Dataset, MindSporeClassPath, _as_list, _Run, to_row
from mslab.dataset.idx import read_idx
from mslab.dataset.sharding import Shard

# ---- samplers: which indices of a random-access source, in which order ----------------------------


class Sampler(metaclass=MindSporeClassPath):
    """Base of the samplers, and of user-defined samplers as MindSpore's ``ds.Sampler``.

    A built-in sampler gives ``_all(n, rng)``, the indices of one pass over n rows. A user-defined one
    subclasses Sampler with ``__iter__`` yielding indices (ints, or lists of ints that are flattened),
    reading ``self.dataset_size`` (set before each pass); ``num_samples`` (or ``len(self)``) caps them and
    ``reset()`` is called after each pass. ``add_child(sampler)``: this sampler then picks among the
    indices its child gives (its dataset_size is the child's count); see :mod:`mslab.dataset.sampler_rules`.
    """

    random = False

    def __init__(self, num_samples=None):
        self.num_samples = num_samples
        self.dataset_size = 0
        self.child_sampler = None
        if num_samples is None and hasattr(self, "__len__"):
            self.num_samples = len(self)

    def __iter__(self):
        raise NotImplementedError(f"{type(self).__name__}: a user-defined Sampler must define __iter__ (yielding "
                                  f"indices); MindSpore raises NotImplementedError too")

    def reset(self):
        """Called after each pass; a user-defined sampler may override it."""

    def add_child(self, sampler):
        """Pick among the indices ``sampler`` gives instead of among the rows."""
        sampler_rules.add_child(self, sampler, user_defined=type(self)._all is Sampler._all)

    def get_child(self):
        return getattr(self, "child_sampler", None)

    def _all(self, n, rng):
        self.dataset_size = n
        return sampler_rules.user_indices(self)

    def _check_source(self, dataset):
        """Raise if this sampler cannot pick rows of ``dataset`` (every sampler but PKSampler can)."""

    def draws_as_mindspore(self):
        """Whether one pass is MindSpore's ``RandomSampler`` order as ``mslab.dataset.std_random`` draws it (a plain
        RandomSampler over all rows, without replacement or a child); other random samplers draw their own."""
        return False

    def _own(self, n, rng, dataset=None):
        idx = list(self._all(n, rng))
        num_samples = getattr(self, "num_samples", None)
        return idx if num_samples is None else idx[:num_samples]

    def _indices(self, n, rng, dataset=None):
        child = self.get_child()
        if child is None:
            return self._own(n, rng, dataset)
        return sampler_rules.through_child(self, child, n, rng, dataset)

    def _count(self, n, dataset=None):
        """The indices one pass gives (a user-defined sampler's counted on a deep copy of it, as MindSpore counts)."""
        sampler = copy.deepcopy(self) if type(self)._all is Sampler._all else self
        return len(sampler._indices(n, np.random.default_rng(0), dataset))


class SequentialSampler(Sampler):
    """Indices ``start_index, start_index + 1, ...`` in order."""

    def __init__(self, start_index=None, num_samples=None):
        super().__init__(num_samples)
        self.start_index = start_index or 0

    def _all(self, n, rng):
        return range(self.start_index, n)


class RandomSampler(Sampler):
    """A random order of all indices (with ``replacement``: n independent draws)."""

    random = True

    def __init__(self, replacement=False, num_samples=None):
        super().__init__(num_samples)
        self.replacement = replacement

    def _all(self, n, rng):
        if self.replacement:
            return rng.integers(0, n, self.num_samples or n)
        return rng.permutation(n)

    def draws_as_mindspore(self):
        return not self.replacement and self.get_child() is None


class SubsetSampler(Sampler):
    """The given indices, in the given order."""

    def __init__(self, indices, num_samples=None):
        super().__init__(num_samples)
        self.indices = [int(i) for i in indices]

    def _all(self, n, rng):
        return self.indices


class SubsetRandomSampler(SubsetSampler):
    """The given indices, in a random order."""

    random = True

    def _all(self, n, rng):
        return [self.indices[i] for i in rng.permutation(len(self.indices))]


# ---- GeneratorDataset -------------------------------------------------------------------------------


COUNTING_NOTICE_ROWS = 1_000_000  # rows read from an in-order source before a warning says counting goes on


def _is_random_access(source):
    return hasattr(source, "__getitem__") and hasattr(source, "__len__")


def _is_one_shot(source):
    """A generator object or other iterator: ``iter(source) is source``, so a second pass finds nothing."""
    try:
        return hasattr(source, "__next__") and iter(source) is source
    except TypeError:
        return False


class GeneratorDataset(Dataset):
    """Rows from Python: a random-access object, a generator function, or an iterable.

    Each item the source gives is one row: a tuple of arrays (one per column) or a single array
    (one column). Values become numpy arrays (Tensors become their numpy arrays).

    ``GeneratorDataset(my_list_of_tuples, ["data", "label"])`` is shuffled each epoch (it is random
    access; pass ``shuffle=False`` to keep the order); ``GeneratorDataset(gen_fn, ["data"])`` calls
    ``gen_fn()`` at the start of each epoch and reads it in order (a generator *object*, ``gen_fn()``,
    can be read only once). ``num_samples`` caps the rows; ``sampler`` (a Sampler or a list of
    indices) picks the indices of a random-access source instead of ``shuffle``.
    ``num_parallel_workers`` and ``python_multiprocessing`` are accepted and ignored: mslab reads
    in one process.
    """

    op_name = "GeneratorDataset"
    cache = None  # a reader's DatasetCache: reading through it raises, as without a cache server

    def __init__(self, source, column_names=None, column_types=None, schema=None, num_samples=None,
                 num_parallel_workers=1, shuffle=None, sampler=None, num_shards=None, shard_id=None,
                 python_multiprocessing=True, max_rowsize=None):
        super().__init__()
        self.source = source
        self.random_access = _is_random_access(source)
        self.shard = Shard.from_args(self.op_name, num_shards, shard_id, self.random_access)
        if self.shard is not None and sampler is not None:
            raise ValueError(f"{self.op_name}: mslab does not combine a sampler with num_shards/shard_id")
        if not self.random_access and not hasattr(source, "__iter__") and not callable(source):
            raise TypeError(f"{self.op_name}: source must be random access (__getitem__ and __len__), "
                            f"iterable, or a generator function; got {type(source).__name__}")
        if not self.random_access and (shuffle or sampler is not None):
            raise ValueError(f"{self.op_name}: shuffle and sampler need a random-access source "
                             f"(with __getitem__ and __len__); a generator or iterable is read in order")
        if sampler is not None and shuffle is not None:
            raise ValueError(f"{self.op_name}: give shuffle or sampler, not both (the sampler sets the order)")
        if schema is not None and column_names is None:
            column_names = getattr(schema, "column_names", None)
        if column_names is None and schema is None:
            # MindSpore's own message (its parameter is spelled column_names)
            raise ValueError("Neither columns_names nor schema are provided.")
        self.column_names = _as_list(column_names, self.op_name)
        self.column_types = list(column_types) if column_types is not None else None
        if self.column_types is not None and self.column_names is not None \
                and len(self.column_types) != len(self.column_names):
            raise ValueError(f"{self.op_name}: {len(self.column_types)} column_types for "
                             f"{len(self.column_names)} column_names")
        if num_samples is not None and (not isinstance(num_samples, (int, np.integer)) or num_samples < 0):
            raise ValueError(f"{self.op_name}: num_samples must be an int >= 0, got {num_samples!r}")
        self.num_samples = num_samples or None  # 0 means all, as in MindSpore
        if sampler is not None and not isinstance(sampler, Sampler):
            sampler = SubsetSampler(sampler)
        self.sampler = sampler
        if sampler is not None:
            sampler._check_source(self)
        self.shuffle_rows = shuffle is None or bool(shuffle)
        self._ncols = None if self.column_names is None else len(self.column_names)
        self._one_shot = not self.random_access and _is_one_shot(source)
        self._kept = None  # the items of a one-shot source, once read

    def _still_counting(self, what):
        """Say, once, that counting has gone on for ``COUNTING_NOTICE_ROWS`` rows (an endless source never ends)."""
        warnings.warn(f"{self.op_name}: {what} has read {COUNTING_NOTICE_ROWS} rows from the source without reaching "
                      f"its end and goes on counting (MindSpore counts every row of a source). A source that never "
                      f"ends never finishes: interrupt it and give num_samples=N to {self.op_name} to read N rows "
                      "per epoch", stacklevel=4)

    def _one_shot_items(self):
        """The one-shot source's items, read once and kept (a generator object cannot be read twice)."""
        if self._kept is None:
            kept = []
            for item in self.source:
                if len(kept) == self.num_samples:
                    break
                if len(kept) == COUNTING_NOTICE_ROWS:
                    self._still_counting("reading a generator object")
                kept.append(item)
            self._kept = kept
        return self._kept

    # ---- reading -------------------------------------------------------------------------------
    def _indices(self, run):
        n = len(self.source)
        if self.sampler is not None and self.sampler.draws_as_mindspore():
            idx = run.mindspore_order(self, n)[:self.sampler.num_samples or n]
        elif self.sampler is not None:
            idx = self.sampler._indices(n, run.rng(self) if self.sampler.random else None, self)
        elif self.shuffle_rows and self.shard is None:  # MindSpore's RandomSampler: its order, pass by pass
            idx = run.mindspore_order(self, n)
        elif self.shuffle_rows:  # shards share one permutation, so a shared seed
            idx = run.rng(self, shared=True).permutation(n)
        else:
            idx = range(n)
        if self.shard is not None:
            idx = self.shard.take(idx)
        return idx if self.num_samples is None else idx[:self.num_samples]

    def _items(self, run):
        if self.random_access:
            for k, i in enumerate(self._indices(run)):
                yield k, self.source[int(i)], f" (source index {int(i)})"
            if self.sampler is not None:
                self.sampler.reset()  # as MindSpore, after each pass
            return
        if self._one_shot:
            src = self._one_shot_items()
        else:
            src = self.source if hasattr(self.source, "__iter__") else self.source()
        for k, item in enumerate(src):
            if self.num_samples is not None and k >= self.num_samples:
                return
            yield k, item, ""

    def _rows(self, run):
        if self.cache is not None:
            raise self.cache.unreachable(self.op_name)
        ncols = self._ncols
        for k, item, where in self._items(run):
            try:
                row = to_row(item)
            except (TypeError, ValueError) as e:
                raise TypeError(f"{self.op_name}: row {k}{where}: {e}") from e
            if ncols is None:
                ncols = len(row)
            elif len(row) != ncols:
                expected = (f"column_names has {ncols}: {self.column_names}" if self.column_names is not None
                            else f"row 0 had {ncols}")
                raise ValueError(f"{self.op_name}: row {k}{where} has {len(row)} column(s), but {expected}")
            if self.column_types is not None:
                row = tuple(a.astype(mstype.to_numpy(t), copy=False) for a, t in zip(row, self.column_types))
            yield row

    def _size(self):
        if self.random_access:
            n = len(self.source)
            if self.sampler is not None:
                n = self.sampler._count(n, self)
            if self.shard is not None:
                n = self.shard.size(n)
            return n if self.num_samples is None else min(n, self.num_samples)
        n = 0  # an in-order source: count one pass
        for n, _ in enumerate(self._items(_Run(self, seed=0)), 1):
            if n == COUNTING_NOTICE_ROWS + 1 and not self._one_shot:  # a one-shot source has said it already
                self._still_counting("get_dataset_size()")
        return n

    def _columns(self):
        if self.column_names is not None:
            return list(self.column_names)
        if self._ncols is None:
            self._ncols = len(self._first_row())
        return [f"column_{i}" for i in range(self._ncols)]


# ---- NumpySlicesDataset -----------------------------------------------------------------------------


class _Slices:
    """Rows i of each column array: random access over a list of equally long arrays."""

    def __init__(self, columns):
        self.columns = columns

    def __len__(self):
        return len(self.columns[0])

    def __getitem__(self, i):
        return tuple(c[i] for c in self.columns)


class NumpySlicesDataset(GeneratorDataset):
    """Rows sliced along the first axis of arrays, as ``mindspore.dataset.NumpySlicesDataset``.

    ``data`` is a dict (its keys name the columns), a tuple of arrays (one column each), a list of
    arrays (one column each), or one array / list of numbers (one column). Columns not named are
    ``column_0, column_1, ...``. Shuffled by default, like every random-access source.
    """

    op_name = "NumpySlicesDataset"

    def __init__(self, data, column_names=None, num_samples=None, num_parallel_workers=1, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None):
        names = None
        if isinstance(data, dict):
            names, cols = list(data), list(data.values())
        elif isinstance(data, tuple) or (isinstance(data, list) and data
                                         and all(hasattr(c, "shape") and len(c.shape) >= 1 for c in data)):
            cols = list(data)
        else:
            cols = [data]
        cols = [c.asnumpy() if hasattr(c, "asnumpy") else np.asarray(c) for c in cols]
        if not cols:
            raise ValueError(f"{self.op_name}: data has no columns")
        column_names = _as_list(column_names, self.op_name) or names or [f"column_{i}" for i in range(len(cols))]
        if len(column_names) != len(cols):
            raise ValueError(f"{self.op_name}: {len(column_names)} column_names for {len(cols)} columns")
        for name, c in zip(column_names, cols):
            if c.ndim == 0:
                raise ValueError(f"{self.op_name}: column '{name}' is a scalar; slicing needs a first axis")
            if len(c) != len(cols[0]):
                lengths = {n: len(a) for n, a in zip(column_names, cols)}
                raise ValueError(f"{self.op_name}: columns have different lengths along the first axis: {lengths}")
        super().__init__(_Slices(cols), column_names, num_samples=num_samples, shuffle=shuffle, sampler=sampler,
                         num_shards=num_shards, shard_id=shard_id)


# ---- MnistDataset -----------------------------------------------------------------------------------

_PREFIXES = {"train": "train", "test": "t10k"}


def _find(folder, prefix, kind, ndim):
    for sep in ("-", "."):
        for ext in ("", ".gz"):
            path = os.path.join(folder, f"{prefix}-{kind}{sep}idx{ndim}-ubyte{ext}")
            if os.path.isfile(path):
                return path
    return None


class _MnistFiles:
    """Random access over the (image, label) pairs of the IDX files, read on first use."""

    def __init__(self, pairs):
        self.pairs = pairs
        self._images = self._labels = None

    def _load(self):
        images, labels = [], []
        for img_path, lbl_path in self.pairs:
            img, lbl = read_idx(img_path), read_idx(lbl_path)
            if img.ndim != 3 or lbl.ndim != 1 or len(img) != len(lbl):
                raise ValueError(f"MnistDataset: {img_path} holds shape {img.shape} and {lbl_path} shape "
                                 f"{lbl.shape}; expected (N, height, width) images and N labels")
            images.append(img.astype(np.uint8, copy=False))
            labels.append(lbl.astype(np.uint32))
        self._images = np.concatenate(images)[..., None]
        self._labels = np.concatenate(labels)

    def __len__(self):
        if self._images is None:
            self._load()
        return len(self._labels)

    def __getitem__(self, i):
        if self._images is None:
            self._load()
        return self._images[i], self._labels[i]


class MnistDataset(GeneratorDataset):
    """MNIST-style IDX files: columns ``image`` (uint8, (height, width, 1)) and ``label`` (uint32).

    ``dataset_dir`` holds ``train-images-idx3-ubyte`` / ``train-labels-idx1-ubyte`` and/or
    ``t10k-images-idx3-ubyte`` / ``t10k-labels-idx1-ubyte`` (each may end in ``.gz``).
    ``usage`` is ``"train"``, ``"test"`` or ``"all"`` (the default: whichever are there, the test rows
    first and then the training rows, as MindSpore 2.10 reads them; observed on CPU). Shuffled by
    default. mslab ships a small real dataset in this format:
    ``MnistDataset(mslab.dataset.digits_path(), usage="train")``.
    """

    op_name = "MnistDataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        usage = "all" if usage is None else usage
        if usage not in ("train", "test", "all"):
            raise ValueError(f"MnistDataset: usage must be 'train', 'test' or 'all', got {usage!r}")
        dataset_dir = os.fspath(dataset_dir)
        if not os.path.isdir(dataset_dir):
            raise ValueError(f"MnistDataset: dataset_dir {dataset_dir!r} is not a folder")
        pairs = []
        for part in (("test", "train") if usage == "all" else (usage,)):
            prefix = _PREFIXES[part]
            img, lbl = _find(dataset_dir, prefix, "images", 3), _find(dataset_dir, prefix, "labels", 1)
            if img and lbl:
                pairs.append((img, lbl))
            elif usage != "all" or img or lbl:
                raise ValueError(f"MnistDataset: usage={usage!r} needs {prefix}-images-idx3-ubyte and "
                                 f"{prefix}-labels-idx1-ubyte (optionally .gz) in {dataset_dir!r}; "
                                 f"found {sorted(os.listdir(dataset_dir))}")
        if not pairs:
            raise ValueError(f"MnistDataset: no MNIST files (train-images-idx3-ubyte, t10k-images-idx3-ubyte, "
                             f"...) in {dataset_dir!r}; found {sorted(os.listdir(dataset_dir))}")
        self.dataset_dir, self.usage, self.cache = dataset_dir, usage, cache
        super().__init__(_MnistFiles(pairs), ["image", "label"], num_samples=num_samples, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id)


def digits_path():
    """The folder of mslab's shipped handwritten digits (MNIST format, 8x8 images).

    1797 digits from the UCI "Optical Recognition of Handwritten Digits" data (E. Alpaydin and
    C. Kaynak, 1998; CC BY 4.0): 1497 in ``train-*`` and 300 in ``t10k-*``, pixels 0..255.
    Use it like MNIST: ``MnistDataset(digits_path(), usage="train")``. See the README there.
    """
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "digits")
