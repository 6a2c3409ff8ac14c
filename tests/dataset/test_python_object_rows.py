"""GeneratorDataset rows holding dicts (MindSpore's ``dataset/python_objects.md``), against MindSpore 2.10.

Each expected value below was printed by the same program on MindSpore 2.10 CPU (observed).
"""
import numpy as np
import pytest

import mslab.dataset as ds
from mslab.core.tensor import Tensor


class Obj:
    def __init__(self, v):
        self.v = v

    def __repr__(self):
        return f"Obj({self.v})"


def nested():
    for i in range(2):
        yield {"a": i, "b": [1, 2], "c": {"d": np.array([i, i + 1])}}, np.array([i])


def squares():
    for i in range(3):
        yield {"number": i, "square": i ** 2}, i


def test_dict_rows_come_out_converted_inside():
    data = ds.GeneratorDataset(nested, ["col1", "col2"], shuffle=False)
    rows = list(data.create_dict_iterator(output_numpy=True))
    # MindSpore: {'col1': {'a': array(0), 'b': [array(1), array(2)], 'c': {'d': array([0, 1])}}, 'col2': array([0])}
    assert repr(rows[0]["col1"]) == "{'a': array(0), 'b': [array(1), array(2)], 'c': {'d': array([0, 1])}}"
    assert rows[1]["col1"]["c"]["d"].tolist() == [1, 2] and rows[1]["col2"].tolist() == [1]
    tensors = next(iter(data.create_dict_iterator()))["col1"]
    assert isinstance(tensors["a"], Tensor) and isinstance(tensors["b"][1], Tensor)
    assert repr(tensors["c"]["d"]) == "Tensor(shape=[2], dtype=Int64, value= [0, 1])"
    assert data.output_types() == [np.dtype("O"), np.dtype("int64")]  # MindSpore: [dtype('O'), dtype('int64')]
    assert data.output_shapes() == [[0], [1]] and data.get_dataset_size() == 2  # MindSpore: [[0], [1]] 2


def test_map_gets_the_dict_as_it_was_yielded():
    seen = []

    def look(d):
        seen.append(d)
        return d

    data = ds.GeneratorDataset(nested, ["col1", "col2"], shuffle=False).map(look, input_columns="col1")
    out = [r[0] for r in data.create_tuple_iterator(output_numpy=True)]
    assert isinstance(seen[0], dict) and seen[0]["a"] == 0 and isinstance(seen[0]["a"], int)  # as on MindSpore
    assert out[1]["a"].tolist() == 1


def test_map_returning_dicts_and_objects_inside_them():
    base = ds.GeneratorDataset(squares, ["dict", "num"], shuffle=False)
    rows = list(base.map(lambda d: {"k": [1, 2]}, input_columns=["dict"]).create_dict_iterator(output_numpy=True))
    assert repr(rows[0]["dict"]) == "{'k': [array(1), array(2)]}"  # MindSpore
    base = ds.GeneratorDataset(squares, ["dict", "num"], shuffle=False)
    rows = list(base.map(lambda d: {"k": Obj(1)}, input_columns=["dict"]).create_dict_iterator(output_numpy=True))
    assert repr(rows[2]["dict"]) == "{'k': Obj(1)}"  # MindSpore: an object inside a dict comes as it is


def test_batch_stacks_each_key():
    data = ds.GeneratorDataset(squares, ["dict", "num"], shuffle=False).batch(3)
    row = next(data.create_dict_iterator(output_numpy=True))
    # MindSpore: {'dict': {'number': array([0, 1, 2]), 'square': array([0, 1, 4])}, 'num': array([0, 1, 2])}
    assert {k: v.tolist() for k, v in row["dict"].items()} == {"number": [0, 1, 2], "square": [0, 1, 4]}
    powers = ds.GeneratorDataset(squares, ["dict", "num"], shuffle=False).map(
        lambda d: {"p": np.power(d["number"], [1, 2, 3])}, input_columns=["dict"]).batch(2)
    assert [r["dict"]["p"].tolist() for r in powers.create_dict_iterator(output_numpy=True)] == \
        [[[0, 0, 0], [1, 1, 1]], [[2, 4, 8]]]  # MindSpore


def test_batch_of_nested_or_ragged_dicts_raises_mindsporess_error():
    data = ds.GeneratorDataset(nested, ["col1", "col2"], shuffle=False).batch(2)
    with pytest.raises(RuntimeError, match="failed to create a NumPy array with primitive types for the dictionary "
                                           "objects in column 0, key: 'c'"):  # MindSpore's message
        list(data)
    ragged = ds.GeneratorDataset(squares, ["dict", "num"], shuffle=False).map(
        lambda d: {"p": np.zeros(d["number"])}, input_columns=["dict"]).batch(3)
    with pytest.raises(RuntimeError, match="Failed to batch Python dictionary: ValueError: setting an array element "
                                           "with a sequence"):  # MindSpore's message
        list(ragged)


def test_other_objects_are_refused_as_on_mindspore():
    def objects():
        yield (Obj(0),)

    with pytest.raises(TypeError, match="Data type of 1th item of the input or its converted Numpy array is expected "
                                        "to be int or float or str, but got object."):  # MindSpore's message
        list(ds.GeneratorDataset(objects, ["o"], shuffle=False))
    data = ds.GeneratorDataset(squares, ["dict", "num"], shuffle=False).map(lambda n: Obj(n), input_columns=["num"])
    with pytest.raises(RuntimeError, match="Failed to create tensor from numpy array, data type is unknown"):
        list(data)


def test_a_list_returned_by_map_is_one_value():
    src = ds.NumpySlicesDataset({"a": np.arange(3)}, shuffle=False)
    rows = [r["a"].tolist() for r in src.map(lambda x: [x, x + 1], input_columns="a")
            .create_dict_iterator(output_numpy=True)]
    assert rows == [[0, 1], [1, 2], [2, 3]]  # MindSpore: a list is one column
    chained = ds.NumpySlicesDataset({"a": np.arange(3)}, shuffle=False).map(
        [lambda x: [x, x + 1], lambda y: y * 2], input_columns="a")
    assert [r["a"].tolist() for r in chained.create_dict_iterator(output_numpy=True)][0] == [0, 1, 0, 1]  # MindSpore


def test_dict_rows_through_repeat_skip_and_numpy_slices():
    data = ds.GeneratorDataset(squares, ["dict", "num"], shuffle=False).repeat(2).skip(4)
    assert [r["dict"]["square"].tolist() for r in data.create_dict_iterator(output_numpy=True)] == [1, 4]  # MindSpore
    slices = ds.NumpySlicesDataset([{"a": 1}, {"a": 2}], shuffle=False)
    assert [repr(r) for r in slices.create_dict_iterator(output_numpy=True)] == \
        ["{'column_0': {'a': array(1)}}", "{'column_0': {'a': array(2)}}"]  # MindSpore


def keyed():
    for i in range(4):
        yield {"k": i, "v": np.array([i, i])}, np.array(i)


def test_per_batch_map_with_dicts():
    def wrap(col1, col2, info):
        return {"orig": col1, "idx": np.arange(len(col1))}, {"n": col2}

    data = ds.GeneratorDataset(keyed, ["col1", "col2"]).batch(2, per_batch_map=wrap, input_columns=["col1", "col2"])
    first = next(data.create_dict_iterator(num_epochs=1, output_numpy=True))
    # MindSpore: a dict returned for a column is the batch's value as it is
    assert repr(first) == ("{'col1': {'orig': [{'k': array(0), 'v': array([0, 0])}, "
                           "{'k': array(1), 'v': array([1, 1])}], 'idx': array([0, 1])}, "
                           "'col2': {'n': [array(0), array(1)]}}")

    def tens(col1, info):
        return ([{"s": c["k"] * 10} for c in col1],)

    data = ds.GeneratorDataset(keyed, ["col1", "col2"]).batch(2, per_batch_map=tens, input_columns=["col1"])
    rows = [repr(r) for r in data.create_dict_iterator(num_epochs=1, output_numpy=True)]
    assert rows == ["{'col1': {'s': [array(0), array(10)]}, 'col2': array([0, 1], dtype=int64)}",
                    "{'col1': {'s': [array(20), array(30)]}, 'col2': array([2, 3], dtype=int64)}"]  # MindSpore


def test_tutorial_nested_dict_then_batch():
    def my_generator():
        for i in range(5):
            yield {"nested_dict": {"powers": np.power(i, [1, 2, 3])}}, i

    data = ds.GeneratorDataset(source=my_generator, column_names=["col1", "col2"])
    data = data.map(operations=lambda col1: col1["nested_dict"], input_columns=["col1"])
    before = [str(d) for d in data.create_dict_iterator(num_epochs=1)]
    assert before[3] == ("{'col1': {'powers': Tensor(shape=[3], dtype=Int64, value= [ 3,  9, 27])}, "
                         "'col2': Tensor(shape=[], dtype=Int64, value= 3)}")  # MindSpore
    after = [str(d) for d in data.batch(batch_size=5).create_dict_iterator(num_epochs=1)]
    assert after == ["{'col1': {'powers': Tensor(shape=[5, 3], dtype=Int64, value=\n[[ 0,  0,  0],\n [ 1,  1,  1],\n"
                     " [ 2,  4,  8],\n [ 3,  9, 27],\n [ 4, 16, 64]])}, 'col2': Tensor(shape=[5], dtype=Int64, "
                     "value= [0, 1, 2, 3, 4])}"]  # MindSpore


def test_numpy_columns_print_as_mindsporess():
    data = ds.NumpySlicesDataset({"a": np.arange(2), "b": np.arange(2, dtype=np.uint64), "f": np.arange(2.0)},
                                 shuffle=False)
    row = next(data.create_dict_iterator(output_numpy=True))
    # MindSpore 2.10: {'a': array(0, dtype=int64), 'b': array(0, dtype=uint64), 'f': array(0.)}
    assert repr(row) == "{'a': array(0, dtype=int64), 'b': array(0, dtype=uint64), 'f': array(0.)}"
    assert row["a"].dtype == np.int64
