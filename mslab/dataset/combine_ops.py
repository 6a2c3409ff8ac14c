"""Datasets made of several datasets: zip (columns side by side) and concat (rows one after another).

    ds.zip((a, b))      rows (a_row + b_row) while every dataset still has rows; the columns of a, then b
    a + b, a.concat(b)  every row of a, then every row of b; the datasets must have the same columns

Sizes as MindSpore 2.10 (observed on CPU): zip has the size of the shortest dataset; concat the sum.
"""
from mslab.dataset.base import INFINITE, Dataset
from mslab.dataset.column_map import ColumnMap


class ZipDataset(Dataset, operation="zip"):
    op_name = "zip"

    def __init__(self, datasets):
        datasets = list(datasets)
        if not datasets or not all(isinstance(d, Dataset) for d in datasets):
            raise TypeError(f"zip: expected datasets, got {[type(d).__name__ for d in datasets]}")
        super().__init__(datasets)
        names = [c for d in datasets for c in d.get_col_names()]
        repeated = sorted({c for c in names if names.count(c) > 1})
        if repeated:
            raise ValueError(f"zip: column name(s) {repeated} appear in more than one dataset; "
                             f"rename them first (dataset.rename)")
        self._names = names

    def _rows(self, run):
        streams = [d._rows(run) for d in self.children]
        while True:
            row = ()
            for s in streams:
                part = next(s, None)
                if part is None:  # the shortest dataset decides
                    return
                row += part
            yield row

    def _size(self):
        sizes = [d._size() for d in self.children]
        finite = [n for n in sizes if n != INFINITE]
        return min(finite) if finite else INFINITE

    def _columns(self):
        return list(self._names)

    def _column_map(self):  # MindSpore's: the children's maps, one after the other, into a new map (observed)
        return ColumnMap([name for d in self.children for name in d._column_map().names()])


class ConcatDataset(Dataset, operation="concat"):
    op_name = "concat"

    def __init__(self, datasets):
        datasets = list(datasets)
        if not all(isinstance(d, Dataset) for d in datasets):
            raise TypeError(f"concat: expected datasets, got {[type(d).__name__ for d in datasets]}")
        super().__init__(datasets)
        first = datasets[0].get_col_names()
        for d in datasets[1:]:
            if d.get_col_names() != first:
                raise ValueError(f"concat: the datasets must have the same columns, got {first} and "
                                 f"{d.get_col_names()}")

    def _rows(self, run):
        for d in self.children:
            yield from d._rows(run)

    def _size(self):
        sizes = [d._size() for d in self.children]
        return INFINITE if INFINITE in sizes else sum(sizes)


def zip(datasets):  # noqa: A001 - MindSpore's name (mindspore.dataset.zip)
    """One dataset whose rows join the rows of ``datasets`` (a tuple) side by side; see the module docstring."""
    if not isinstance(datasets, tuple):
        raise TypeError(f"Argument datasets with value {datasets!r} is not of type [<class 'tuple'>], "
                        f"but got {type(datasets)}.")
    return ZipDataset(datasets)
