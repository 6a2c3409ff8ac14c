"""The dataset pipeline's base, as ``mindspore.dataset``'s Dataset: lazy operations over rows of numpy arrays.

A dataset is a chain of nodes. A source (``GeneratorDataset``, ``NumpySlicesDataset``,
``MnistDataset``) produces *rows*: tuples of numpy arrays (or dicts), one per column. Each operation
(``map``, ``filter``, ``shuffle``, ``batch``, ``repeat``, ``take``, ``skip``, ``project``, ``rename``,
``sync_wait``) returns a new dataset that wraps the one before it; nothing runs until an iterator pulls
rows through.

    >>> import numpy as np, mslab.dataset as ds
    >>> data = ds.NumpySlicesDataset({"x": np.arange(10.0), "y": np.arange(10)}, shuffle=False)
    >>> data = data.map(lambda x: x * 2, input_columns="x").batch(4)
    >>> data.get_dataset_size(), data.get_col_names()
    (3, ['x', 'y'])
    >>> [b["x"].shape for b in data.create_dict_iterator()]
    [(4,), (4,), (2,)]

An iterator runs one or more *epochs* (passes). Each epoch restarts the pipeline from its source;
the shuffles draw new orders per epoch from a seed the iterator takes when it is created
(see :mod:`mslab.dataset.config`). Iterating a dataset directly yields lists of Tensors, one epoch.
"""
import copy
import sys

import numpy as np

from mslab.core.tensor import Tensor
from mslab.dataset import config, std_random
from mslab.dataset.column_map import ColumnMap

INFINITE = -1


class _Run:
    """The state of one iterator: a base seed, and how many passes each random node has started.

    A random node asks :meth:`rng` at the start of each of its passes; the generator depends on the
    base seed, the node's position in the pipeline and the pass number, so orders are repeatable
    for the same base seed and differ from epoch to epoch.
    """

    def __init__(self, dataset, seed=None):
        self.seed = config.launch_seed() if seed is None else seed
        self.epoch = 0  # the iterator's epoch (BatchInfo.get_epoch_num)
        self._position = {}
        self._passes = {}
        self._orders = {}  # node position -> (pass, its MindSpore order): the next pass reshuffles it
        self._draws = {}  # node position -> the shuffle operator's generator
        stack = [dataset]
        while stack:
            node = stack.pop()
            if id(node) not in self._position:
                self._position[id(node)] = len(self._position)
                stack.extend(node.children)

    def rng(self, node, shared=False):
        """The generator for ``node``'s next pass; ``shared``: seeded alike on every rank (sharded shuffles)."""
        pos, n = self._next_pass(node)
        return np.random.default_rng([config.shared_seed() if shared else self.seed, pos, n])

    def _next_pass(self, node):
        pos = self._position.get(id(node), 0)
        n = self._passes.get(pos, 0)
        self._passes[pos] = n + 1
        return pos, n

    def std_seed(self):
        """The seed MindSpore's C++ samplers and shuffle operators start from: the dataset seed, or, when none was
        set (MindSpore 2.10 then draws one from /dev/urandom for each new pipeline), this iterator's own."""
        seed = config.get_seed()
        return self.seed & 0xFFFFFFFF if seed is None or seed == std_random.DEFAULT_SEED else seed

    def mindspore_order(self, node, n):
        """The row order MindSpore's ``RandomSampler`` gives ``node``'s next pass over ``n`` rows: the previous
        pass's order shuffled again with the seed plus the pass number (``mslab.dataset.std_random``)."""
        pos, k = self._next_pass(node)
        done, order = self._orders.get(pos, (-1, None))
        if order is None or len(order) != n or done >= k:
            done, order = -1, list(range(n))
        for e in range(done + 1, k + 1):
            std_random.shuffle(order, std_random.Mt19937(self.std_seed() + e))
        self._orders[pos] = (k, order)
        return list(order)

    def shuffle_draws(self, node):
        """The ``std::mt19937_64`` of MindSpore's shuffle operator at ``node``: seeded once, drawn on across
        passes (``mslab.dataset.std_random.buffer_shuffle``)."""
        pos = self._position.get(id(node), 0)
        draw = self._draws.get(pos)
        if draw is None:
            draw = self._draws[pos] = std_random.Mt19937_64(self.std_seed())
        return draw


def _to_numpy(value):
    """One column value as the pipeline holds it: a numpy array, or a dict kept as the Python object it is.

    MindSpore keeps a dict column as a Python object (its values untouched until an iterator converts them);
    any other value must become a numeric or text array (an ``object`` array raises, as in MindSpore).
    """
    if isinstance(value, (np.ndarray, dict)):
        return value
    if isinstance(value, Tensor):
        return value.asnumpy()
    array = np.asarray(value)
    if array.dtype == object:
        raise TypeError(f"the value {type(value).__name__} {value!r:.60} is not a number, string or array "
                        f"(a dict is kept as it is; other Python objects only inside a dict)")
    return array


def to_row(item):
    """A row as a tuple of column values: a tuple/list gives one column per item, anything else (a dict too) one.

    Values become numpy arrays; dicts stay Python dicts (MindSpore's ``python_objects`` rows).
    """
    items = tuple(item) if isinstance(item, (tuple, list)) else (item,)
    row = []
    for k, v in enumerate(items, 1):
        try:
            row.append(_to_numpy(v))
        except TypeError:  # MindSpore's message (its count starts at 1)
            raise TypeError(f"Data type of {k}th item of the input or its converted Numpy array is expected to be "
                            f"int or float or str, but got object.") from None
    return tuple(row)


def _convert_python(value, to_numpy, do_copy):
    """A dict column's value as an iterator gives it: numbers and arrays become numpy arrays (or Tensors), dicts,
    lists and tuples are converted inside, other objects come as they are (MindSpore's ``__convert_python``)."""
    if isinstance(value, (bool, int, float, str, bytes, np.ndarray, np.generic)):
        array = np.array(value, copy=True) if do_copy or not isinstance(value, np.ndarray) else value
        return array if to_numpy or array.dtype.kind in "US" else Tensor(array)
    if isinstance(value, dict):
        return {k: _convert_python(v, to_numpy, do_copy) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_convert_python(v, to_numpy, do_copy) for v in value)
    return copy.deepcopy(value) if do_copy else value


def _as_list(columns, what):
    if columns is None:
        return None
    if isinstance(columns, str):
        return [columns]
    columns = list(columns)
    if not all(isinstance(c, str) for c in columns):
        raise TypeError(f"{what}: column names must be strings, got {columns!r}")
    return columns


def _count(value, what, allow_infinite=False):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be an int, got {type(value).__name__}")
    value = int(value)
    if value == INFINITE and allow_infinite:
        return value
    if value < (0 if what.startswith(("take", "skip")) else 1):
        raise ValueError(f"{what} must be {'>= 0' if what.startswith(('take', 'skip')) else '>= 1'}"
                         f"{' (or -1 for all)' if allow_infinite else ''}, got {value}")
    return value


def running_as_mindspore():
    """Whether this session imports mslab under MindSpore's name (``sys.modules["mindspore"]`` is mslab)."""
    alias = sys.modules.get("mindspore")
    return alias is not None and (alias is sys.modules.get("mslab") or getattr(alias, "__name__", None) == "mslab")


class MindSporeClassPath(type):
    """Prints a dataset or sampler class at MindSpore's module path when mslab runs as ``mindspore``.

    MindSpore 2.10 prints ``type(ds.MnistDataset(...))`` as
    ``<class 'mindspore.dataset.engine.datasets_vision.MnistDataset'>``. mslab's class lives in a file laid out
    for reading (``__module__`` stays that file, so pickle and ``inspect.getsource`` keep working), and is
    also exported at MindSpore's path by :mod:`mslab.dataset.engine`, which records that path on the class
    (``_mindspore_home``; a subclass of the user's has none). When ``sys.modules["mindspore"]`` is mslab (the
    import alias that lets ``import mindspore`` load mslab), that path imports this very class, so the class
    prints as MindSpore's; otherwise it prints as Python prints any class.
    """

    def __repr__(cls):
        home = vars(cls).get("_mindspore_home")  # set by mslab.dataset.engine for the classes it exports
        if home is not None and running_as_mindspore():
            return f"<class '{home}.{cls.__qualname__}'>"
        return super().__repr__()


class Dataset(metaclass=MindSporeClassPath):
    """Base of every dataset node. Subclasses give ``_rows(run)``, ``_size()`` and ``_columns()``."""

    op_name = "Dataset"
    # Pipeline operations (``pipeline_ops``) subclass Dataset and register under the method that makes
    # them: ``class BatchDataset(Dataset, operation="batch")``. Dataset itself never imports them.
    _operations = {}

    def __init_subclass__(cls, operation=None, **kwargs):
        super().__init_subclass__(**kwargs)
        if operation is not None:
            Dataset._operations[operation] = cls

    def __init__(self, children=()):
        self.children = list(children)
        self._cached_size = None

    # ---- what a node does (overridden) ---------------------------------------------------------
    def _rows(self, run):
        """Yield the rows (tuples of numpy arrays) of one pass."""
        return self.children[0]._rows(run)

    def _size(self):
        return self.children[0]._size()

    def _columns(self):
        return self.children[0]._columns()

    def _column_map(self):
        """MindSpore's column-name map of this node (:mod:`mslab.dataset.column_map`): a source's holds its columns
        in order; most operations copy their child's."""
        if not self.children:
            return ColumnMap(self.get_col_names())
        return self.children[0]._column_map().copy()

    # ---- pipeline operations -------------------------------------------------------------------
    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, per_batch_map=None,
              input_columns=None, output_columns=None, **kwargs):
        """Stack ``batch_size`` consecutive rows into one (each column gains a leading axis).

        ``batch_size`` may be a callable taking a :class:`BatchInfo` (the size of each batch in turn).
        ``per_batch_map(col_1, ..., col_k, batch_info)`` gets, for each of ``input_columns`` (default: all),
        the list of that column's rows, and returns a tuple of lists (one per ``output_columns``), which are
        stacked; see :class:`mslab.dataset.pipeline_ops.BatchDataset`.
        """
        if kwargs.get("pad_info"):
            raise NotImplementedError("batch: pad_info is not supported by mslab")
        return self._operations["batch"](self, batch_size, drop_remainder, per_batch_map, input_columns,
                                         output_columns)

    def filter(self, predicate, input_columns=None, num_parallel_workers=None):
        """Keep the rows for which ``predicate(*columns)`` is true (``input_columns``: which columns it gets; all
        by default)."""
        return self._operations["filter"](self, predicate, input_columns)

    def split(self, sizes, randomize=True):
        """Split into non-overlapping datasets of ``sizes`` rows (ints summing to the size, or fractions summing
        to 1); ``randomize``: rows drawn in one random order, the same every epoch. See
        :mod:`mslab.dataset.split_save`."""
        return self._operations["split"](self, sizes, randomize)

    def save(self, file_name, num_files=1, file_type="mindrecord"):
        """Write every row of one pass to the MindRecord file ``file_name`` (read it back with ``MindDataset``)."""
        return self._operations["save"](self, file_name, num_files, file_type)

    def sync_wait(self, condition_name, num_batch=1, callback=None):
        """Let ``num_batch`` batches through, then wait for ``sync_update(condition_name)`` before the next ones
        (which calls ``callback(data)``); see :class:`mslab.dataset.pipeline_ops.SyncWaitDataset`."""
        return self._operations["sync_wait"](self, condition_name, num_batch, callback)

    def sync_update(self, condition_name, num_batch=None, data=None):
        """Release ``num_batch`` more batches (default: the ``sync_wait``'s) at ``condition_name`` and call its
        callback with ``data``."""
        if (not isinstance(num_batch, int) and num_batch is not None) or \
                (isinstance(num_batch, int) and num_batch <= 0):  # MindSpore's checks and messages
            self._disable_sync()
            raise RuntimeError(f"Sync_update batch size can only be positive integer, got: {num_batch}.")
        notifiers = self._sync_notifiers()
        if not isinstance(condition_name, str):
            raise TypeError(f"Argument condition_name with value {condition_name} is not of type str, "
                            f"but got {type(condition_name)}.")
        if condition_name not in notifiers:
            self._disable_sync()
            raise RuntimeError("Condition name not found.")
        if num_batch is not None:
            num_batch *= self.get_batch_size()
        notifiers[condition_name].release(num_batch, data)

    def _sync_notifiers(self):
        """``{condition name: SyncWaitDataset}`` below this node."""
        found = {}
        for child in self.children:
            found.update(child._sync_notifiers())
        return found

    def _disable_sync(self):
        for node in self._sync_notifiers().values():
            node.disabled = True

    def shuffle(self, buffer_size):
        """Shuffle rows through a buffer of ``buffer_size`` rows (a full shuffle when it holds them all)."""
        if self._sync_notifiers():  # MindSpore's check and message
            raise RuntimeError("No shuffle after sync operators.")
        return self._operations["shuffle"](self, buffer_size)

    def map(self, operations=None, input_columns=None, output_columns=None, column_order=None,
            num_parallel_workers=None, python_multiprocessing=False, **kwargs):
        """Apply ``operations`` (one callable or a list, run in order) to ``input_columns`` of each row."""
        return self._operations["map"](self, operations, input_columns, output_columns, column_order)

    def repeat(self, count=None):
        """Run the pipeline ``count`` times in a row (forever when None or -1); shuffles reshuffle each time."""
        return self._operations["repeat"](self, INFINITE if count is None else count)

    def take(self, count=-1):
        """The first ``count`` rows (all when -1)."""
        return self._operations["take"](self, count)

    def skip(self, count):
        """All rows but the first ``count``."""
        return self._operations["skip"](self, count)

    def project(self, columns):
        """Keep only ``columns``, in that order."""
        return self._operations["project"](self, columns)

    def rename(self, input_columns, output_columns):
        """Rename columns ``input_columns[i]`` to ``output_columns[i]``."""
        return self._operations["rename"](self, input_columns, output_columns)

    def zip(self, datasets):
        """This dataset's columns side by side with those of ``datasets`` (one dataset or a tuple)."""
        others = datasets if isinstance(datasets, tuple) else (datasets,)
        return self._operations["zip"]((self,) + others)

    def concat(self, datasets):
        """This dataset's rows, then those of ``datasets`` (one dataset or a list); also ``a + b``."""
        others = list(datasets) if isinstance(datasets, (list, tuple)) else [datasets]
        return self._operations["concat"]([self] + others)

    def __add__(self, other):
        return self.concat(other)

    # ---- questions about the pipeline ----------------------------------------------------------
    def get_dataset_size(self):
        """Rows one epoch yields (after batch, repeat, take, ...); -1 when it repeats forever."""
        if self._cached_size is None:
            self._cached_size = self._size()
        return self._cached_size

    def get_col_names(self):
        """The column names, in row order."""
        return list(self._columns())

    def get_batch_size(self):
        """The batch size of the last ``batch`` in the pipeline (1 when there is none)."""
        node = self
        while node.children:
            if node.op_name == "batch":
                return node.batch_size
            node = node.children[0]
        return 1

    def get_repeat_count(self):
        """The count of the last ``repeat`` in the pipeline (1 when there is none)."""
        node = self
        while node.children:
            if node.op_name == "repeat":
                return node.count
            node = node.children[0]
        return 1

    def _first_row(self):
        row = next(iter(self._rows(_Run(self, seed=0))), None)  # a peek: leave the dataset seed alone
        if row is None:
            raise RuntimeError(f"{self.op_name}: the dataset is empty")
        return row

    def output_shapes(self):
        """The shape of each column in the first row (a dict column: [0], as MindSpore 2.10 prints it)."""
        return [list(a.shape) if isinstance(a, np.ndarray) else [0] for a in self._first_row()]

    def output_types(self):
        """The numpy dtype of each column in the first row (a dict column: ``object``)."""
        return [a.dtype if isinstance(a, np.ndarray) else np.dtype(object) for a in self._first_row()]

    # ---- iterators -----------------------------------------------------------------------------
    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False, do_copy=True):
        """An iterator yielding each row as a list of Tensors (numpy arrays with ``output_numpy``)."""
        return Iterator(self, columns, num_epochs, output_numpy, do_copy, as_dict=False)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=True):
        """An iterator yielding each row as ``{column name: Tensor}`` (numpy arrays with ``output_numpy``)."""
        return Iterator(self, None, num_epochs, output_numpy, do_copy, as_dict=True)

    def __iter__(self):
        return self.create_tuple_iterator(num_epochs=1)

    def __repr__(self):
        names = []
        node = self
        while True:
            names.append(node.op_name)
            if not node.children:
                break
            node = node.children[0]
        return "<" + " <- ".join(names) + ">"


_LONG_LONG = {"l": np.longlong, "L": np.ulonglong} if np.dtype("l").itemsize == 8 else {}


class Iterator:
    """Rows of a dataset, epoch after epoch, as MindSpore's dict/tuple iterators.

    A ``for`` loop over the iterator ends at the end of an epoch; looping over it again runs the
    next epoch (reshuffled), until ``num_epochs`` epochs have run (-1: no limit). Breaking out of
    a loop early and looping again continues where it stopped.
    """

    def __init__(self, dataset, columns, num_epochs, output_numpy, do_copy, as_dict):
        if num_epochs != INFINITE:
            _count(num_epochs, "num_epochs", allow_infinite=True)
        self.dataset = dataset
        self._names = dataset.get_col_names()
        columns = _as_list(columns, "create_tuple_iterator")
        if columns is not None:
            missing = [c for c in columns if c not in self._names]
            if missing:
                raise ValueError(f"create_tuple_iterator: no column(s) {missing}; the columns are {self._names}")
        self._pick = None if columns is None else [self._names.index(c) for c in columns]
        self._epochs_left = num_epochs
        self._output_numpy = output_numpy
        self._do_copy = do_copy
        self._as_dict = as_dict
        self._run = _Run(dataset)
        self._rows = None
        self.epoch = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self._rows is None:
            if self._epochs_left == 0:
                raise StopIteration
            self._run.epoch = self.epoch
            self._rows = iter(self.dataset._rows(self._run))
        try:
            row = next(self._rows)
        except StopIteration:
            self._rows = None
            self.epoch += 1
            if self._epochs_left > 0:
                self._epochs_left -= 1
            raise
        return self._format(row)

    def _format(self, row):
        row = tuple(self._convert(a) for a in row)
        if self._as_dict:
            return dict(zip(self._names, row))
        if self._pick is not None:
            return [row[i] for i in self._pick]
        return list(row)

    def _convert(self, a):
        if not isinstance(a, np.ndarray):  # a dict column
            return _convert_python(a, self._output_numpy, self._do_copy)
        if self._do_copy:
            a = np.array(a)
        if self._output_numpy:  # MindSpore's 64-bit integers come as C long long: numpy prints "dtype=int64"
            return a.view(_LONG_LONG[a.dtype.char]) if a.dtype.char in _LONG_LONG else a
        # text stays a numpy array, as in MindSpore (a Tensor holds numbers)
        return a if a.dtype.kind in "USO" else Tensor(a)

    def stop(self):
        """End the iterator: further ``next`` calls raise StopIteration."""
        self._rows = None
        self._epochs_left = 0

    def get_next(self):
        return next(self)

