"""The pipeline operations: each wraps the dataset before it and transforms its rows lazily.

``batch`` stacks rows, ``shuffle`` draws from a buffer, ``map`` applies transforms to columns,
``repeat``/``take``/``skip`` change how many rows pass, ``project``/``rename`` pick and name columns.
``Dataset``'s methods (in ``engine``) create them; nothing runs until an iterator pulls rows.
"""
import numpy as np

from mslab.dataset.base import INFINITE, Dataset, _as_list, _count, _to_numpy


class BatchDataset(Dataset, operation="batch"):
    op_name = "batch"

    def __init__(self, child, batch_size, drop_remainder):
        super().__init__([child])
        self.batch_size = _count(batch_size, "batch: batch_size")
        self.drop_remainder = bool(drop_remainder)

    def _rows(self, run):
        names = None
        buf = []
        for row in self.children[0]._rows(run):
            buf.append(row)
            if len(buf) == self.batch_size:
                names = names or self.get_col_names()
                yield self._stack(buf, names)
                buf = []
        if buf and not self.drop_remainder:
            yield self._stack(buf, names or self.get_col_names())

    def _stack(self, rows, names):
        out = []
        for c, name in enumerate(names):
            shapes = [r[c].shape for r in rows]
            if any(s != shapes[0] for s in shapes):
                shown = ", ".join(str(s) for s in shapes[:8]) + (", ..." if len(shapes) > 8 else "")
                raise ValueError(
                    f"batch: column '{name}' has rows of different shapes in one batch: {shown}. "
                    f"Rows of a batch are stacked, so each column needs one shape; resize or pad the rows "
                    f"first (for example with map), or use batch_size=1.")
            out.append(np.stack([r[c] for r in rows]))
        return tuple(out)

    def _size(self):
        n = self.children[0]._size()
        if n == INFINITE:
            return n
        return n // self.batch_size if self.drop_remainder else -(-n // self.batch_size)


class ShuffleDataset(Dataset, operation="shuffle"):
    op_name = "shuffle"

    def __init__(self, child, buffer_size):
        super().__init__([child])
        self.buffer_size = _count(buffer_size, "shuffle: buffer_size")
        if self.buffer_size < 2:
            raise ValueError(f"shuffle: buffer_size must be >= 2, got {buffer_size}")

    def _rows(self, run):
        # MindSpore's buffer shuffle: fill a buffer, then emit a random buffered row and put the next
        # row in its place; at the end emit what is left in random order.
        rng = run.rng(self)
        buf = []
        for row in self.children[0]._rows(run):
            if len(buf) < self.buffer_size:
                buf.append(row)
                continue
            j = int(rng.integers(len(buf)))
            yield buf[j]
            buf[j] = row
        for j in rng.permutation(len(buf)):
            yield buf[j]


class MapDataset(Dataset, operation="map"):
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
        first = names.index(self.input_columns[0])
        kept = [c for c in names if c not in self.input_columns]
        before = [c for c in names[:first] if c in kept]
        after = [c for c in kept if c not in before]
        self._out_names = before + self.output_columns + after
        if len(set(self._out_names)) != len(self._out_names):
            raise ValueError(f"map: the output columns would repeat a name: {self._out_names}")
        self._in_idx = [names.index(c) for c in self.input_columns]
        self._keep_before = [names.index(c) for c in before]
        self._keep_after = [names.index(c) for c in after]
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
            args = tuple(out) if isinstance(out, (tuple, list)) else (out,)
        if len(args) != len(self.output_columns):
            raise ValueError(f"map: the operations return {len(args)} value(s) for row {index}, but "
                             f"output_columns has {len(self.output_columns)}: {self.output_columns}")
        return (tuple(row[i] for i in self._keep_before) + tuple(_to_numpy(a) for a in args)
                + tuple(row[i] for i in self._keep_after))

    def _rows(self, run):
        order = None if self.column_order is None else [self._out_names.index(c) for c in self.column_order]
        for index, row in enumerate(self.children[0]._rows(run)):
            out = self._apply(row, index)
            yield out if order is None else tuple(out[i] for i in order)

    def _columns(self):
        return list(self.column_order or self._out_names)


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
        mapping = dict(zip(inp, out))
        self._names = [mapping.get(c, c) for c in names]
        if len(set(self._names)) != len(self._names):
            raise ValueError(f"rename: the new names would repeat a column: {self._names}")

    def _columns(self):
        return list(self._names)
