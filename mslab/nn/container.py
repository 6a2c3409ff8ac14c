"""Containers: SequentialCell (runs children in order) and CellList (holds them), as in MindSpore."""
from collections import OrderedDict

from mslab.nn.cell import Cell


class _CellSequence(Cell):
    """What SequentialCell and CellList share: children "0", "1", ... indexed, counted and iterated."""

    def __getitem__(self, index):
        cells = list(self._cells.values())
        if isinstance(index, slice):
            return type(self)(cells[index])
        return cells[index]

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells.values())

    def append(self, cell):
        self.insert_child_to_cell(str(len(self._cells)), cell)
        return self


class SequentialCell(_CellSequence):
    """Children named "0", "1", ... run one after another: ``SequentialCell([Dense(2, 4), ReLU()])``.

    An OrderedDict keeps its own names.
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            cells = list(args[0])
        elif len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, c in args[0].items():
                self.insert_child_to_cell(name, c)
            return
        else:
            cells = list(args)
        for i, c in enumerate(cells):
            self.insert_child_to_cell(str(i), c)

    def construct(self, x):
        for c in self._cells.values():
            x = c(x)
        return x


class CellList(_CellSequence):
    """A list of Cells registered as children "0", "1", ... (no construct of its own)."""

    def __init__(self, *args, **kwargs):
        super().__init__(**kwargs)
        cells = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
        for c in cells:
            self.append(c)

    def __setitem__(self, index, cell):
        key = list(self._cells.keys())[index]
        self.insert_child_to_cell(key, cell)

    def extend(self, cells):
        for c in cells:
            self.append(c)
        return self

    def insert(self, index, cell):
        cells = list(self._cells.values())
        cells.insert(index, cell)
        for k in list(self._cells):
            self._forget(k)
            self.__dict__.pop(k, None)
        for c in cells:
            self.append(c)

    def construct(self, *inputs):
        raise NotImplementedError("CellList holds cells; call them from your own construct")
