"""Neural-network building blocks, as ``mindspore.nn``: Cell, layers, losses, optimizers, wrappers."""
from mslab.nn.cell import Cell
from mslab.nn.container import CellList, SequentialCell
