"""MindRecord files, as ``mindspore.mindrecord``: ``FileWriter`` writes them, ``FileReader`` and
``mslab.dataset.MindDataset`` read them, in MindSpore 2.10's on-disk format (files written by either
library read in the other). Loaded on first use: ``import mslab`` does not import it.
"""
from mslab.core import missing_names as _missing_names
from mslab.mindrecord.cifar10_to_mr import Cifar10ToMR
from mslab.mindrecord.reader import FileReader
from mslab.mindrecord.writer import FileWriter

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

__all__ = ["FileWriter", "FileReader", "Cifar10ToMR"]
