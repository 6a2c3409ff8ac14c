"""Where the columns go when ``batch``'s ``per_batch_map`` changes their number: the order of MindSpore's C++ map of
column names (mslab.dataset.column_map), after sources and every kind of operation. Each expected list was printed
by MindSpore 2.10 CPU for the same pipeline (observed)."""
import numpy as np
import pytest

import mslab.dataset as ds
from mslab.dataset.column_map import ColumnMap, string_hash


def two(x, info):
    return x, x


def columns_after_batch(data):
    """The columns after a per_batch_map turning column "a" (or the first) into P and Q, without P and Q."""
    first = "a" if "a" in data.get_col_names() else data.get_col_names()[0]
    return data.batch(1, per_batch_map=two, input_columns=[first], output_columns=["P", "Q"]).get_col_names()[2:]


def source(names="abcdefg"):
    return ds.NumpySlicesDataset({n: np.arange(4) for n in names}, shuffle=False)


@pytest.mark.parametrize("names, expected", [
    ("ab", ["b"]), ("abc", ["c", "b"]), ("abcd", ["c", "b", "d"]), ("abcde", ["e", "c", "b", "d"]),
    ("abcdef", ["f", "e", "c", "b", "d"]), ("abcdefg", ["g", "f", "e", "c", "b", "d"]),
    ("abcdefghij", ["j", "g", "f", "i", "e", "c", "h", "b", "d"]), (["image", "label"], ["label"]),
    (["data", "label", "idx"], ["idx", "label"]),
    ([f"x{i}" for i in range(1, 16)], ["x15", "x14", "x10", "x2", "x12", "x3", "x8", "x4", "x11", "x5", "x6", "x7",
                                        "x13", "x9"]),  # 14 entries and more: the map grows to 29 buckets
])
def test_after_a_source(names, expected):
    assert columns_after_batch(source(names)) == expected
    rows = ds.GeneratorDataset(lambda: iter([tuple(np.array(1) for _ in names)]), list(names), shuffle=False)
    assert columns_after_batch(rows) == expected  # MindSpore: the same for GeneratorDataset


@pytest.mark.parametrize("make, expected", [
    (lambda d: d.take(4).skip(0).repeat(2).shuffle(2), ["g", "f", "e", "c", "b", "d"]),
    (lambda d: d.filter(lambda a: True, input_columns=["a"]).sync_wait("s").batch(1), ["g", "f", "e", "c", "b", "d"]),
    (lambda d: d.concat(source()), ["g", "f", "e", "c", "b", "d"]),
    (lambda d: d.map(lambda x: x, input_columns=["b"]), ["b", "g", "f", "e", "c", "d"]),
    (lambda d: d.map(lambda x: x, input_columns=["b"], output_columns=["B"]), ["B", "g", "f", "e", "c", "d"]),
    (lambda d: d.map(lambda x, y: (y, x), input_columns=["c", "b"]), ["b", "c", "g", "f", "e", "d"]),
    (lambda d: d.map(lambda x: (x, x), input_columns=["b"], output_columns=["u", "v"]),
     ["d", "c", "e", "f", "g", "v", "u"]),
    (lambda d: d.map(lambda x, y: x, input_columns=["b", "c"], output_columns=["u"]), ["d", "e", "f", "g", "u"]),
    (lambda d: d.rename(["b"], ["B"]), ["d", "B", "c", "e", "f", "g"]),
    (lambda d: d.project(["g", "a", "c", "b"]), ["b", "c", "g"]),
    (lambda d: d.zip(source("zyx")), ["z", "x", "d", "b", "c", "e", "f", "y", "g"]),
    (lambda d: source("zyx").zip(d), ["d", "b", "c", "e", "f", "z", "g", "y", "x"]),
    (lambda d: d.batch(1, per_batch_map=lambda b, c, i: (c, b), input_columns=["b", "c"]),
     ["g", "f", "e", "c", "b", "d"]),
    (lambda d: d.batch(1, per_batch_map=lambda b, c, i: (c, b), input_columns=["b", "c"], output_columns=["C", "B"]),
     ["B", "C", "g", "f", "e", "d"]),
    (lambda d: d.batch(1, per_batch_map=lambda b, i: (b, b, b), input_columns=["b"], output_columns=["u", "v", "w"]),
     ["d", "c", "e", "f", "g", "w", "v", "u"]),
])
def test_after_operations(make, expected):
    assert columns_after_batch(make(source())) == expected


def test_map_layouts():
    data = source().map(lambda x, y: (x, y), input_columns=["f", "c"], output_columns=["u", "v"])
    assert data.get_col_names() == ["a", "b", "v", "d", "e", "u", "g"]  # MindSpore: in place, output i at input i
    data = source().map(lambda x, y: (x, y, x), input_columns=["f", "c"], output_columns=["u", "v", "w"])
    assert data.get_col_names() == ["u", "v", "w", "a", "b", "d", "e", "g"]  # MindSpore: outputs first
    data = source().batch(1, per_batch_map=lambda b, i: (b, b, b), input_columns=["b"], output_columns=["u", "v", "w"])
    assert data.get_col_names() == ["u", "v", "w", "g", "f", "e", "c", "d", "a"]  # MindSpore


def test_the_hash_is_gccs():
    assert ColumnMap(["a", "b", "c", "d"]).names() == ["c", "b", "d", "a"]
    assert [string_hash(s) % 13 for s in "abcd"] == [1, 9, 10, 1]  # a and d share a bucket of 13
