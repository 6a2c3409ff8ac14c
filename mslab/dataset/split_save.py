"""``Dataset.split`` and ``Dataset.save``, as MindSpore 2.10's.

``split(sizes)`` cuts one dataset into non-overlapping parts. ``sizes`` are row counts summing to the
dataset's size, or fractions summing to 1: part i gets ``round(f_i * K)`` of the K rows, a shortfall goes to
the first part and an excess comes off the first part that keeps at least one row (MindSpore's rule).
With ``randomize=True`` the rows are first put in one random order, drawn once at ``split`` time from the
dataset seed (``mslab.set_seed``), the same for every part and every epoch; otherwise part i takes
consecutive rows. MindSpore draws that order with its own C++ generator, so the rows each part gets
differ from MindSpore's; which sizes they have does not.

``save(file_name)`` writes one pass of rows to a MindRecord file with :class:`mslab.mindrecord.FileWriter`
(so MindSpore's ``MindDataset`` reads it too), casting types as MindSpore's table says: bool, int8, uint8,
int16, uint16, int32 -> int32; uint32, int64, uint64 -> int64; float16, float32 -> float32; float64;
text -> string; bytes -> bytes. An array of one or more axes is stored with shape ``[-1, rest...]``.
"""
import os

import numpy as np

from mslab.core import log as logger
from mslab.dataset import config
from mslab.dataset.base import INFINITE, Dataset, _Run
from mslab.dataset.distributed_sampler import DistributedSampler
from mslab.mindrecord.writer import FileWriter


def _type_check(value, kind, name):  # MindSpore's message
    if not isinstance(value, kind):
        raise TypeError(f"Argument {name} with value {value} is not of type [{kind}], but got {type(value)}.")


def absolute_sizes(sizes, dataset_size):
    """The row count of each part (MindSpore's ``_get_absolute_split_sizes`` and ``check_split``)."""
    _type_check(sizes, list, "sizes")
    if not sizes:
        raise ValueError("sizes cannot be empty.")
    all_int = all(isinstance(s, int) for s in sizes)
    all_float = all(isinstance(s, float) for s in sizes)
    if not (all_int or all_float):
        raise ValueError("sizes should be list of int or list of float.")
    if all_int and any(s <= 0 for s in sizes):
        raise ValueError("sizes is a list of int, but there should be no negative or zero numbers.")
    if all_float:
        if any(not 0 < s <= 1 for s in sizes):
            raise ValueError("sizes is a list of float, but there should be no numbers outside the range (0, 1].")
        if abs(sum(sizes) - 1) > 1e-5:
            raise ValueError("sizes is a list of float, but the percentages do not sum up to 1.")
    if dataset_size is None or dataset_size <= 0:
        raise RuntimeError("dataset_size is unknown, unable to split.")
    if all_int:
        if sum(sizes) != dataset_size:
            raise RuntimeError(f"Sum of split sizes {sum(sizes)} is not equal to dataset size {dataset_size}.")
        return list(sizes)
    result = []
    for f in sizes:
        n = int(round(f * dataset_size))
        if n == 0:
            raise RuntimeError(f"Split percentage {f} is too small.")
        result.append(n)
    difference = dataset_size - sum(result)
    if difference > 0:
        result[0] += difference
    else:
        for i, n in enumerate(result):
            if n + difference > 0:
                result[i] += difference
                break
    return result


def _is_shuffled(node):
    """Whether some node under ``node`` draws a random order (MindSpore then warns before a split)."""
    sampler = getattr(node, "sampler", None)
    if node.op_name == "shuffle" or (sampler is not None and sampler.random) or \
            (sampler is None and getattr(node, "random_access", False) and getattr(node, "shuffle_rows", False)):
        return True
    return any(_is_shuffled(c) for c in node.children)


class SplitDataset(Dataset):
    """One part of a split: positions ``start .. start + size - 1`` of the child's rows, read in ``order``
    (a fixed permutation of the child's positions) or in their own order."""

    op_name = "split"

    def __init__(self, child, start, size, order, seed):
        super().__init__([child])
        self.start, self.size, self.order, self.seed = start, size, order, seed

    def _rows(self, run):
        # every part reads its child with the same seed in the same epoch, so a shuffled child gives all
        # parts one order per epoch and the parts do not overlap (MindSpore gets this from its fixed seed)
        inner = _Run(self.children[0], seed=(self.seed + run.epoch) % 2**32)
        inner.epoch = run.epoch
        rows = self.children[0]._rows(inner)
        if self.order is None:
            for i, row in enumerate(rows):
                if i >= self.start + self.size:
                    return
                if i >= self.start:
                    yield row
            return
        rows = list(rows)
        for k in self.order[self.start:self.start + self.size]:
            yield rows[k]

    def _size(self):
        return self.size


def split(dataset, sizes, randomize=True):
    """``dataset.split(sizes, randomize)``: a tuple of datasets (see the module docstring)."""
    _type_check(sizes, list, "sizes")
    _type_check(randomize, bool, "randomize")
    if _is_shuffled(dataset):
        logger.warning("Dataset is shuffled before split.")  # MindSpore's warning
    if any(getattr(node, "shard", None) is not None or isinstance(getattr(node, "sampler", None), DistributedSampler)
           for node in _nodes(dataset)):  # MindSpore's message
        raise RuntimeError("Dataset should not be sharded before split.")
    n = dataset.get_dataset_size()
    parts = absolute_sizes(sizes, None if n == INFINITE else n)
    order = np.random.default_rng(config.launch_seed()).permutation(n) if randomize else None
    seed = config.launch_seed()
    starts = np.cumsum([0] + parts[:-1])
    return tuple(SplitDataset(dataset, int(s), p, order, seed) for s, p in zip(starts, parts))


def _nodes(node):
    yield node
    for c in node.children:
        yield from _nodes(c)


# MindSpore's implicit casts when saving (its table in Dataset.save): numpy kind+size -> MindRecord type
_SAVE_TYPES = {"b1": "int32", "i1": "int32", "u1": "int32", "i2": "int32", "u2": "int32", "i4": "int32",
               "u4": "int64", "i8": "int64", "u8": "int64", "f2": "float32", "f4": "float32", "f8": "float64"}


def _field(name, value):
    if isinstance(value, dict):
        raise TypeError(f"save: column '{name}' holds dicts; MindRecord stores numbers, text and bytes")
    kind = value.dtype.kind
    if kind in "US":
        if value.ndim > 1 or (value.ndim == 1 and value.size != 1):
            raise TypeError(f"save: column '{name}': MindRecord does not support multi-dimensional "
                            f"{'string' if kind == 'U' else 'bytes'}")
        return {"type": "string" if kind == "U" else "bytes"}
    key = f"{kind}{value.dtype.itemsize}"
    if key not in _SAVE_TYPES:
        raise TypeError(f"save: column '{name}' has type {value.dtype}, which MindRecord cannot store")
    field = {"type": _SAVE_TYPES[key]}
    if value.ndim:
        field["shape"] = [-1] + list(value.shape[1:])
    return field


def _value(field, value):
    if field["type"] in ("string", "bytes"):
        item = value.reshape(-1)[0] if value.ndim else value.item()
        return str(item) if field["type"] == "string" else bytes(item)
    cast = np.dtype(field["type"])
    return value.astype(cast) if "shape" in field else cast.type(value).item()


def save(dataset, file_name, num_files=1, file_type="mindrecord"):
    """``dataset.save(file_name)``: one pass of rows, in order, to the MindRecord file ``file_name``."""
    if file_type != "mindrecord":  # MindSpore's checks and messages
        raise ValueError(f"{file_type} dataset format is not supported.")
    if isinstance(num_files, bool) or not isinstance(num_files, int) or not 0 < num_files <= 1000:
        raise ValueError("num_files should between 0 and 1000.")
    if num_files != 1:
        raise NotImplementedError(f"save: mslab writes one MindRecord file (num_files=1), got num_files={num_files}")
    file_name = os.fspath(file_name)
    if os.path.exists(file_name) or os.path.exists(file_name + ".db"):
        raise RuntimeError(f"Invalid file, mindrecord files already exist. Please check file path: "
                           f"{os.path.abspath(file_name)}.")
    names = dataset.get_col_names()
    writer, schema, rows = FileWriter(file_name), None, []
    for row in dataset.create_tuple_iterator(num_epochs=1, output_numpy=True):
        if schema is None:
            schema = {n: _field(n, v) for n, v in zip(names, row)}
            writer.add_schema(schema, "mindrecord")  # MindSpore's description
        rows.append({n: _value(schema[n], v) for n, v in zip(names, row)})
    if schema is None:
        raise RuntimeError(f"save: the dataset has no rows to write to {file_name}")
    writer.write_raw_data(rows)
    writer.commit()


Dataset._operations["split"] = split
Dataset._operations["save"] = save
