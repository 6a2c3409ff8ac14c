"""``Dataset.filter``, ``Dataset.split`` and ``Dataset.save`` against MindSpore 2.10 (values observed on its CPU
build)."""
import json

import numpy as np
import pytest

import mslab
import mslab.dataset as ds
from mslab.mindrecord import FileReader


def rows(data, col="data"):
    return [int(r[col]) for r in data.create_dict_iterator(output_numpy=True, num_epochs=1)]


def numbers(n=10):
    return ds.GeneratorDataset(list(range(n)), "data", shuffle=False)


def two_columns():
    return ds.NumpySlicesDataset({"a": np.arange(6), "b": np.arange(6) * 2}, shuffle=False)


def test_filter():
    kept = numbers().filter(lambda x: x < 4, input_columns=["data"])
    assert rows(kept) == [0, 1, 2, 3] and kept.get_dataset_size() == 4  # MindSpore
    both = two_columns().filter(lambda a, b: a + b > 6)  # all columns by default
    pairs = [(int(r["a"]), int(r["b"])) for r in both.create_dict_iterator(output_numpy=True)]
    assert pairs == [(3, 6), (4, 8), (5, 10)]  # MindSpore
    one = two_columns().filter(lambda b: b > 6, input_columns="b")
    assert one.get_col_names() == ["a", "b"] and rows(one, "a") == [4, 5]  # MindSpore
    assert rows(two_columns().filter(lambda a: 1 if a > 3 else 0, input_columns=["a"]), "a") == [4, 5]
    assert two_columns().batch(2).filter(lambda a: a.sum() > 2, input_columns=["a"]).get_dataset_size() == 2


def test_filter_errors_as_mindspore():
    bad = two_columns().filter(lambda a: a, input_columns=["zz"])  # built without complaint, as on MindSpore
    with pytest.raises(RuntimeError, match="Invalid parameter, column name: zz does not exist in the dataset columns."):
        list(bad)
    with pytest.raises(TypeError, match="Predicate should be a Python function or a callable Python object."):
        two_columns().filter(3)


def test_split_sizes_and_fractions():
    a, b = numbers().split([8, 2], randomize=False)
    assert rows(a) == list(range(8)) and rows(b) == [8, 9] and a.get_dataset_size() == 8  # MindSpore
    parts = numbers().split([0.33, 0.33, 0.34], randomize=False)  # 3, 3, 3: the row left over goes to the first
    assert [rows(p) for p in parts] == [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]  # MindSpore
    parts = numbers(7).split([0.5, 0.3, 0.2], randomize=False)  # round(3.5) = 4 (Python's round), 2, 1
    assert [rows(p) for p in parts] == [[0, 1, 2, 3], [4, 5], [6]]  # MindSpore
    parts = numbers(7).split([0.45, 0.45, 0.1], randomize=False)
    assert [rows(p) for p in parts] == [[0, 1, 2], [3, 4, 5], [6]]  # MindSpore


def test_split_randomize_is_one_order_for_every_part_and_epoch():
    mslab.set_seed(1)
    a, b = numbers().split([0.6, 0.4])
    first = rows(a)
    assert len(first) == 6 and sorted(first + rows(b)) == list(range(10)) and rows(a) == first
    # a shuffled source: MindSpore warns, and its parts do not overlap within an epoch
    a, b = ds.GeneratorDataset(list(range(10)), "data").split([5, 5], randomize=False)
    assert sorted(rows(a) + rows(b)) == list(range(10))


def test_split_of_a_sharded_dataset_raises():
    with pytest.raises(RuntimeError, match="^Dataset should not be sharded before split.$"):  # MindSpore's message
        ds.GeneratorDataset(list(range(10)), "data", num_shards=2, shard_id=0).split([2, 3])
    sampler = ds.DistributedSampler(2, 0)
    with pytest.raises(RuntimeError, match="^Dataset should not be sharded before split.$"):
        ds.GeneratorDataset(list(range(10)), "data", sampler=sampler).split([2, 3])


def test_split_of_a_generator_function():
    def gen():
        for i in range(6):
            yield (np.array(i),)

    a, b = ds.GeneratorDataset(gen, ["data"]).split([2, 4], randomize=False)
    assert rows(a) == [0, 1] and rows(b) == [2, 3, 4, 5]  # MindSpore


@pytest.mark.parametrize("sizes, error, message", [
    ([5, 4], RuntimeError, "Sum of split sizes 9 is not equal to dataset size 10."),
    ([0.5, 0.6], ValueError, "sizes is a list of float, but the percentages do not sum up to 1."),
    ([0.99, 0.01], RuntimeError, "Split percentage 0.01 is too small."),
    ([0, 10], ValueError, "sizes is a list of int, but there should be no negative or zero numbers."),
    ((5, 5), TypeError, "Argument sizes with value (5, 5) is not of type [<class 'list'>], but got <class 'tuple'>."),
    ([5.0, 5], ValueError, "sizes should be list of int or list of float."),
])
def test_split_errors_are_mindsporess(sizes, error, message):  # each message printed by MindSpore 2.10
    with pytest.raises(error) as info:
        numbers().split(sizes, randomize=False)
    assert str(info.value) == message


def saved_rows():
    for i in range(3):
        yield (np.array([i, i + 1], np.int32), np.array(i, np.uint8), np.full((2, 2), i / 2, np.float32),
               np.array(i > 0), np.array("s%d" % i), np.array(i * 10, np.int64), np.array([1.5] * (i + 1)),
               np.array(7, np.uint32), np.array(1, np.float16))


COLUMNS = ["vec", "u8", "mat", "flag", "text", "big", "ragged", "u32", "h"]

# FileReader(...).schema() of the file MindSpore 2.10's Dataset.save wrote for saved_rows()
MINDSPORE_SCHEMA = {"big": {"type": "int64"}, "flag": {"type": "int32"}, "h": {"type": "float32"},
                    "mat": {"shape": [-1, 2], "type": "float32"}, "ragged": {"shape": [-1], "type": "float64"},
                    "text": {"type": "string"}, "u32": {"type": "int64"}, "u8": {"type": "int32"},
                    "vec": {"shape": [-1], "type": "int32"}}


def test_save_writes_mindsporess_schema_and_rows(tmp_path):
    path = str(tmp_path / "a.mindrecord")
    ds.GeneratorDataset(saved_rows, COLUMNS, shuffle=False).save(path)
    reader = FileReader(path)
    assert json.loads(json.dumps(reader.schema(), sort_keys=True)) == MINDSPORE_SCHEMA
    reader.close()
    back = ds.MindDataset(path, shuffle=False)
    assert back.get_col_names() == sorted(COLUMNS)  # MindSpore
    got = [{k: (v.tolist(), str(v.dtype)) for k, v in r.items()} for r in back.create_dict_iterator(output_numpy=True)]
    # MindDataset on MindSpore 2.10 read its own saved file as (the same rows come from mslab's file: real
    # MindSpore read the file written here and printed them too, observed)
    assert got[2] == {"big": (20, "int64"), "flag": (1, "int32"), "h": (1.0, "float32"),
                      "mat": ([[1.0, 1.0], [1.0, 1.0]], "float32"), "ragged": ([1.5, 1.5, 1.5], "float64"),
                      "text": ("s2", "<U2"), "u32": (7, "int64"), "u8": (2, "int32"), "vec": ([2, 3], "int32")}


def test_save_images_bytes_and_errors(tmp_path):
    path = str(tmp_path / "c.mindrecord")
    ds.NumpySlicesDataset({"x": np.zeros((3, 2, 2), np.uint8)}, shuffle=False).save(path)
    assert FileReader(path).schema() == {"x": {"shape": [-1, 2], "type": "int32"}}  # MindSpore
    path = str(tmp_path / "d.mindrecord")
    ds.NumpySlicesDataset({"x": np.array([b"ab", b"cd"])}, shuffle=False).save(path)
    assert FileReader(path).schema() == {"x": {"type": "bytes"}}  # MindSpore
    assert [r["x"] for r in FileReader(path).get_next()] == [b"ab", b"cd"]
    data = ds.NumpySlicesDataset({"x": np.arange(3)}, shuffle=False)
    with pytest.raises(RuntimeError, match="Invalid file, mindrecord files already exist. Please check file path:"):
        data.save(path)
    with pytest.raises(ValueError, match="tfrecord dataset format is not supported."):  # MindSpore's messages
        data.save(str(tmp_path / "e.mindrecord"), file_type="tfrecord")
    with pytest.raises(ValueError, match="num_files should between 0 and 1000."):
        data.save(str(tmp_path / "e.mindrecord"), num_files=0)
    with pytest.raises(NotImplementedError, match="num_files=1"):
        data.save(str(tmp_path / "e.mindrecord"), num_files=2)
