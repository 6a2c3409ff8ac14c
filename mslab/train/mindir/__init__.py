"""MindIR, MindSpore's file format for a compiled graph with its weights (``mindspore.export(...,
file_format="MINDIR")``): read by ``mindspore.load`` into a graph that ``nn.GraphCell`` runs."""
from mslab.train.mindir.reading import FuncGraph, MindIRError, load, read_mindir

__all__ = ["FuncGraph", "MindIRError", "load", "read_mindir"]
