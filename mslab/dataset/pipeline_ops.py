"""The pipeline operations: each wraps the dataset before it and transforms its rows lazily.

``batch`` stacks rows, ``shuffle`` draws from a buffer, ``map`` applies transforms to columns,
``repeat``/``take``/``skip`` change how many rows pass, ``project``/``rename`` pick and name columns.
``Dataset``'s methods (in ``engine``) create them; nothing runs until an iterator pulls rows.
"""
import itertools

import numpy as np

from mslab.core import log as logger
from mslab.dataset.base import INFINITE, Dataset, MindSporeClassPath, _as_list, _count, _Run, _to_numpy
from mslab.dataset.column_map import ColumnMap
from mslab.dataset.std_random import buffer_shuffle


class BatchInfo(metaclass=MindSporeClassPath):
    """What a callable ``batch_size`` or a ``per_batch_map`` learns about the batch being made (MindSpore's
    ``BatchInfo``): ``get_batch_num()`` counts the batches of this pass from 0, ``get_epoch_num()`` the
    iterator's epochs from 0 (a ``repeat`` after the batch restarts the batch count but not the epoch,
    as observed on MindSpore 2.10)."""

    def __init__(self, batch_num, epoch_num):
        self._batch_num, self._epoch_num = batch_num, epoch_num

    def get_batch_num(self):
        return self._batch_num

    def get_epoch_num(self):
        return self._epoch_num


def _stack_dicts(values, column):
    """A batch of dict values: one dict whose every key holds the stacked values of that key (MindSpore's rule)."""
    out = {}
    for key in values[0]:
        try:
            array = np.array([v[key] for v in values]) if all(key in v for v in values) else None
        except ValueError as e:  # ragged values: MindSpore's message
            raise RuntimeError(f"Failed to batch Python dictionary: ValueError: {e}") from None
        if array is None or array.dtype == object:  # MindSpore's message
            raise RuntimeError(f"Batch: failed to create a NumPy array with primitive types for the dictionary "
                               f"objects in column {column}, key: '{key}'.\nIf you want a customized array, "
                               f"define a custom 'per_batch_map' function.")
        out[key] = array
    return out


class BatchDataset(Dataset, operation="batch"):
    """``batch``: rows stacked into batches, optionally through a ``per_batch_map``, as MindSpore 2.10.

    With ``per_batch_map``, the function gets one list per input column (that column's rows) and the
    :class:`BatchInfo`, and returns one list (or array) of rows per output column; each is stacked
    (a dict it returns is the column's value as it is; a list of dicts becomes one dict of lists).
    When the outputs are as many as the inputs, output i takes the place of input i (named by
    ``output_columns``, or keeping the input's name). When their number differs, the outputs come first
    and the other columns follow in the order MindSpore's C++ map of column names iterates them, which
    :mod:`mslab.dataset.column_map` replays (observed: columns a, b, c, d with input a and two outputs x, y
    give x, y, c, b, d).
    """

    op_name = "batch"

    def __init__(self, child, batch_size, drop_remainder, per_batch_map=None, input_columns=None,
                 output_columns=None):
        super().__init__([child])
        self.batch_size_func = batch_size if callable(batch_size) else None
        self.batch_size = -1 if self.batch_size_func else _count(batch_size, "batch: batch_size")
        self.drop_remainder = bool(drop_remainder)
        if input_columns is not None and per_batch_map is None:  # MindSpore's message
            raise ValueError("input_columns can be specified only when per_batch_map is set.")
        if per_batch_map is not None and not callable(per_batch_map):
            raise TypeError(f"batch: per_batch_map must be callable, got {type(per_batch_map).__name__}")
        self.per_batch_map = per_batch_map
        names = child.get_col_names()
        self.input_columns = _as_list(input_columns, "batch: input_columns") or list(names)
        missing = [c for c in self.input_columns if c not in names]
        if per_batch_map is not None and missing:
            raise ValueError(f"batch: input_columns {missing} not in the dataset's columns {names}")
        self.output_columns = _as_list(output_columns, "batch: output_columns") or list(self.input_columns)
        self._names = self._out_names(names) if per_batch_map is not None else list(names)
        if self.batch_size_func is None:
            for node in child._sync_notifiers().values():  # sync_wait counts rows: num_batch batches of this size
                node.rows_per_batch(self.batch_size)

    def _out_names(self, names):
        if len(self.output_columns) == len(self.input_columns):
            rename = dict(zip(self.input_columns, self.output_columns))
            return [rename.get(c, c) for c in names]
        child_map = self.children[0]._column_map().names()
        return list(self.output_columns) + [c for c in child_map if c not in self.input_columns]

    def _column_map(self):  # MindSpore's BatchOp (observed): see mslab.dataset.column_map
        child = self.children[0]._column_map()
        if self.per_batch_map is None:
            return child
        if len(self.output_columns) != len(self.input_columns):
            return ColumnMap(self._names)
        for old, new in zip(self.input_columns, self.output_columns):
            if old != new:  # a renamed input's entry replaced; a kept name stays where it is
                child.erase(old)
                child.insert(new)
        return child

    def _rows(self, run):
        names = self.children[0].get_col_names()
        rows = iter(self.children[0]._rows(run))
        batch_num = 0
        while True:
            info = BatchInfo(batch_num, run.epoch)
            size = self.batch_size if self.batch_size_func is None else self._size_of(info)
            buf = list(itertools.islice(rows, size))
            if not buf or (len(buf) < size and self.drop_remainder):
                return
            yield self._map(buf, names, info) if self.per_batch_map is not None else self._stack(buf, names)
            batch_num += 1

    def _size_of(self, info):
        size = self.batch_size_func(info)
        return _count(size, "batch: the batch_size function's result")

    def _map(self, rows, names, info):
        idx = {c: i for i, c in enumerate(names)}
        lists = [[r[idx[c]] for r in rows] for c in self.input_columns]
        out = self.per_batch_map(*lists, info)
        out = out if isinstance(out, tuple) else (out,)
        if len(out) != len(self.output_columns):  # MindSpore's message
            raise RuntimeError(f"Invalid per_batch_map, the number of columns returned in 'per_batch_map' function "
                               f"should be {len(self.output_columns)} , but got: {len(out)}")
        made = {}
        for k, (name, column) in enumerate(zip(self.output_columns, out)):
            if isinstance(column, dict):  # a dict is the batch's value as it is (observed on MindSpore 2.10)
                made[name] = column
            elif isinstance(column, (list, tuple)) and column and isinstance(column[0], dict):
                made[name] = {key: [v[key] for v in column] for key in column[0]}  # dicts: one list per key
            else:
                made[name] = self._stack_column([_to_numpy(v) for v in column], k, name)
        kept = {c: self._stack_column([r[idx[c]] for r in rows], idx[c], c) for c in names
                if c not in self.input_columns}
        if len(self.output_columns) == len(self.input_columns):
            kept.update(dict(zip(self.input_columns, (made[c] for c in self.output_columns))))
            return tuple(kept[c] for c in names)
        return tuple({**made, **kept}[c] for c in self._names)

    def _stack(self, rows, names):
        return tuple(self._stack_column([r[c] for r in rows], c, name) for c, name in enumerate(names))

    @staticmethod
    def _stack_column(values, c, name):
        if values and isinstance(values[0], dict):
            return _stack_dicts(values, c)
        shapes = [v.shape for v in values]
        if any(s != shapes[0] for s in shapes):
            shown = ", ".join(str(s) for s in shapes[:8]) + (", ..." if len(shapes) > 8 else "")
            raise ValueError(
                f"batch: column '{name}' has rows of different shapes in one batch: {shown}. "
                f"Rows of a batch are stacked, so each column needs one shape; resize or pad the rows "
                f"first (for example with map), or use batch_size=1.")
        return np.stack(values)

    def _size(self):
        n = self.children[0]._size()
        if n == INFINITE:
            return n
        if self.batch_size_func is not None:  # count the batches the function makes over n rows
            count, left = 0, n
            while left > 0:
                size = self._size_of(BatchInfo(count, 0))
                if size > left and self.drop_remainder:
                    break
                count, left = count + 1, left - size
            return count
        return n // self.batch_size if self.drop_remainder else -(-n // self.batch_size)

    def _columns(self):
        return list(self._names)


class FilterDataset(Dataset, operation="filter"):
    """``filter``: the rows for which ``predicate(*input_columns)`` is true (MindSpore casts its result to bool)."""

    op_name = "filter"

    def __init__(self, child, predicate, input_columns):
        super().__init__([child])
        if not callable(predicate):
            raise TypeError("Predicate should be a Python function or a callable Python object.")  # MindSpore's
        self.predicate = predicate
        self.input_columns = _as_list(input_columns, "filter: input_columns")

    def _rows(self, run):
        names = self.children[0].get_col_names()
        wanted = self.input_columns or names
        missing = [c for c in wanted if c not in names]
        if missing:  # MindSpore's message, raised when the rows are read as there
            raise RuntimeError(f"Invalid parameter, column name: {missing[0]} does not exist in the dataset columns.")
        idx = [names.index(c) for c in wanted]
        for row in self.children[0]._rows(run):
            if bool(np.asarray(self.predicate(*(row[i] for i in idx)))):
                yield row

    def _size(self):
        return sum(1 for _ in self._rows(_Run(self, seed=0)))


class SyncWaitDataset(Dataset, operation="sync_wait"):
    """``sync_wait``: rows pass only while ``sync_update`` has released them, as MindSpore's ``BlockReleasePair``.

    A counter starts at ``-num_batch`` (times the batch size of a ``batch`` above); each row adds 1 and may
    pass while the counter was below 0; ``sync_update`` subtracts its batches' rows and calls ``callback(data)``.
    In MindSpore the pipeline runs in its own threads and a blocked row waits for the training loop's
    ``sync_update`` (60 s at most, then it warns and stops waiting). mslab reads rows on demand in the loop's
    own thread, so nothing could release a blocked row: it warns with MindSpore's message at once and stops
    waiting, as MindSpore does after its timeout.
    """

    op_name = "sync_wait"

    def __init__(self, child, condition_name, num_batch, callback):
        super().__init__([child])
        if isinstance(num_batch, int) and num_batch <= 0:  # MindSpore's checks and messages
            raise ValueError("num_batch need to be greater than 0.")
        if condition_name in child._sync_notifiers():
            raise RuntimeError("Condition name is already in use.")
        self.condition_name, self.callback = condition_name, callback
        self.default_rows = num_batch
        self.count = -num_batch
        self.disabled = False

    def rows_per_batch(self, batch_size):
        """A ``batch`` above counts in batches of ``batch_size`` rows."""
        self.count *= batch_size
        self.default_rows *= batch_size

    def release(self, rows=None, data=None):
        self.count -= self.default_rows if rows is None else rows
        if self.callback is not None:
            self.callback(data)

    def _sync_notifiers(self):
        return {**super()._sync_notifiers(), self.condition_name: self}

    def _rows(self, run):
        self.count = -self.default_rows  # each pass starts with num_batch batches released
        for row in self.children[0]._rows(run):
            if self.count >= 0 and not self.disabled:
                logger.warning("Timeout happened in sync_wait, maybe dataset.sync_update(condition=...) "
                               "is not added after dataset.create_dict_iterator(...), now disabling lock.")
                self.disabled = True
            self.count += 1
            yield row


class ShuffleDataset(Dataset, operation="shuffle"):
    op_name = "shuffle"

    def __init__(self, child, buffer_size):
        super().__init__([child])
        self.buffer_size = _count(buffer_size, "shuffle: buffer_size")
        if self.buffer_size < 2:
            raise ValueError(f"shuffle: buffer_size must be >= 2, got {buffer_size}")

    def _rows(self, run):
        # MindSpore's buffer shuffle, with its generator: fill a buffer, send the row in a random slot, move the
        # last row into that slot and refill the last slot; the buffer drains at the end (std_random).
        yield from buffer_shuffle(self.children[0]._rows(run), self.buffer_size, run.shuffle_draws(self))


class MapDataset(Dataset, operation="map"):
    """``map``: ``operations`` applied in turn to ``input_columns`` of each row, giving ``output_columns``.

    As many outputs as inputs replace the inputs where they stand (output i at input i's place); a
    different number puts the outputs first and the other columns after them, in their order (as
    MindSpore 2.10: columns a..g, map on ["f", "c"] to ["u", "v"] gives a, b, v, d, e, u, g; on ["c"] to
    ["u", "v"] gives u, v, a, b, d, e, f, g).
    """

    op_name = "map"

    def __init__(self, child, operations, input_columns, output_columns, column_order):
        super().__init__([child])
        if operations is None:
            raise ValueError("map: give operations (a callable or a list of them)")
        ops = list(operations) if isinstance(operations, (list, tuple)) else [operations]
        for op in ops:
            if not callable(op):
                raise TypeError(f"map: operation {op!r} is not callable")
        self.operations = ops
        names = child.get_col_names()
        self.input_columns = _as_list(input_columns, "map: input_columns") or names[:1]
        missing = [c for c in self.input_columns if c not in names]
        if missing:
            raise ValueError(f"map: input_columns {missing} not in the dataset's columns {names}")
        self.output_columns = _as_list(output_columns, "map: output_columns") or list(self.input_columns)
        self.column_order = _as_list(column_order, "map: column_order")
        # MindSpore 2.10's layout (observed): as many outputs as inputs take the inputs' places, in order;
        # otherwise the outputs come first and the other columns follow in their order
        if len(self.output_columns) == len(self.input_columns):
            self._layout = [(True, self.input_columns.index(c)) if c in self.input_columns else (False, names.index(c))
                            for c in names]
        else:
            self._layout = [(True, i) for i in range(len(self.output_columns))] + \
                [(False, names.index(c)) for c in names if c not in self.input_columns]
        self._out_names = [self.output_columns[i] if made else names[i] for made, i in self._layout]
        if len(set(self._out_names)) != len(self._out_names):
            raise ValueError(f"map: the output columns would repeat a name: {self._out_names}")
        self._in_idx = [names.index(c) for c in self.input_columns]
        if self.column_order is not None:
            bad = [c for c in self.column_order if c not in self._out_names]
            if bad:
                raise ValueError(f"map: column_order {bad} not among the columns {self._out_names}")

    def _apply(self, row, index):
        args = tuple(row[i] for i in self._in_idx)
        for op in self.operations:
            name = getattr(op, "__name__", type(op).__name__)
            try:
                out = op(*args)
            except Exception as e:
                raise RuntimeError(f"map: operation {name} failed on column(s) {self.input_columns} "
                                   f"of row {index}: {type(e).__name__}: {e}") from e
            args = out if isinstance(out, tuple) else (out,)  # a list is one value, as in MindSpore
        if len(args) != len(self.output_columns):
            raise ValueError(f"map: the operations return {len(args)} value(s) for row {index}, but "
                             f"output_columns has {len(self.output_columns)}: {self.output_columns}")
        try:
            made = tuple(_to_numpy(a) for a in args)
        except TypeError as e:  # MindSpore's message, then mslab's detail
            raise RuntimeError(f"map operation: [PyFunc] failed. Failed to create tensor from numpy array, data type "
                               f"is unknown. (row {index}: {e})") from None
        return tuple(made[i] if is_made else row[i] for is_made, i in self._layout)

    def _rows(self, run):
        order = None if self.column_order is None else [self._out_names.index(c) for c in self.column_order]
        for index, row in enumerate(self.children[0]._rows(run)):
            out = self._apply(row, index)
            yield out if order is None else tuple(out[i] for i in order)

    def _columns(self):
        return list(self.column_order or self._out_names)

    def _column_map(self):  # MindSpore's MapOp (observed): see mslab.dataset.column_map
        if self.column_order is not None:  # MindSpore 1.x's column_order: a projection
            return ColumnMap(self.column_order)
        child = self.children[0]._column_map()
        if len(self.output_columns) != len(self.input_columns):  # a new map: the outputs, then the rest
            return ColumnMap(self.output_columns + [c for c in child.names() if c not in self.input_columns])
        for old, new in zip(self.input_columns, self.output_columns):  # each input's entry replaced
            child.erase(old)
            child.insert(new)
        return child


class RepeatDataset(Dataset, operation="repeat"):
    op_name = "repeat"

    def __init__(self, child, count):
        super().__init__([child])
        self.count = _count(count, "repeat: count", allow_infinite=True)

    def _rows(self, run):
        n = 0
        while self.count == INFINITE or n < self.count:
            empty = True
            for row in self.children[0]._rows(run):
                empty = False
                yield row
            if empty:  # an empty pass repeated forever would never end
                return
            n += 1

    def _size(self):
        n = self.children[0]._size()
        return INFINITE if INFINITE in (n, self.count) else n * self.count


class TakeDataset(Dataset, operation="take"):
    op_name = "take"

    def __init__(self, child, count):
        super().__init__([child])
        self.count = _count(count, "take: count", allow_infinite=True)

    def _rows(self, run):
        if self.count == INFINITE:
            yield from self.children[0]._rows(run)
            return
        if self.count == 0:
            return
        for i, row in enumerate(self.children[0]._rows(run)):
            yield row
            if i + 1 == self.count:
                return

    def _size(self):
        n = self.children[0]._size()
        if self.count == INFINITE:
            return n
        return self.count if n == INFINITE else min(n, self.count)


class SkipDataset(Dataset, operation="skip"):
    op_name = "skip"

    def __init__(self, child, count):
        super().__init__([child])
        self.count = _count(count, "skip: count")

    def _rows(self, run):
        for i, row in enumerate(self.children[0]._rows(run)):
            if i >= self.count:
                yield row

    def _size(self):
        n = self.children[0]._size()
        return n if n == INFINITE else max(n - self.count, 0)


class ProjectDataset(Dataset, operation="project"):
    op_name = "project"

    def __init__(self, child, columns):
        super().__init__([child])
        self.columns = _as_list(columns, "project")
        names = child.get_col_names()
        missing = [c for c in self.columns if c not in names]
        if missing:
            raise ValueError(f"project: no column(s) {missing}; the columns are {names}")
        self._idx = [names.index(c) for c in self.columns]

    def _rows(self, run):
        for row in self.children[0]._rows(run):
            yield tuple(row[i] for i in self._idx)

    def _columns(self):
        return list(self.columns)

    def _column_map(self):  # MindSpore's: a new map of the kept columns, in their new order (observed)
        return ColumnMap(self.columns)


class RenameDataset(Dataset, operation="rename"):
    op_name = "rename"

    def __init__(self, child, input_columns, output_columns):
        super().__init__([child])
        inp = _as_list(input_columns, "rename: input_columns")
        out = _as_list(output_columns, "rename: output_columns")
        if len(inp) != len(out):
            raise ValueError(f"rename: {len(inp)} input column(s) but {len(out)} output column(s)")
        names = child.get_col_names()
        missing = [c for c in inp if c not in names]
        if missing:
            raise ValueError(f"rename: no column(s) {missing}; the columns are {names}")
        self._mapping = mapping = dict(zip(inp, out))
        self._names = [mapping.get(c, c) for c in names]
        if len(set(self._names)) != len(self._names):
            raise ValueError(f"rename: the new names would repeat a column: {self._names}")

    def _columns(self):
        return list(self._names)

    def _column_map(self):  # MindSpore's: a new map, filled in the child's map order with the new names (observed)
        return ColumnMap([self._mapping.get(c, c) for c in self.children[0]._column_map().names()])
