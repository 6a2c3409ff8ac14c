"""ds.zip, Dataset.zip, Dataset.concat and ``a + b``, with MindSpore's sizes and rows (observed on
MindSpore 2.10 CPU with the same generators: docs/mindspore_observed/api_additions.md section 2)."""
import numpy as np
import pytest

import mslab.dataset as ds


def gen():
    for k in range(3):
        yield (np.array([k], np.float32),)


def three(col="a"):
    return ds.GeneratorDataset(gen, [col], shuffle=False)


def two():
    return ds.GeneratorDataset(lambda: ((np.array([10 * k], np.int32),) for k in range(2)), ["b"], shuffle=False)


def rows(data):
    return [[c.tolist() for c in r] for r in data.create_tuple_iterator(output_numpy=True)]


def test_zip():
    z = ds.zip((three(), two()))
    assert z.get_col_names() == ["a", "b"] and z.get_dataset_size() == 2     # the shortest decides
    assert rows(z) == [[[0.0], [0]], [[1.0], [10]]]
    z = three().zip(two())
    assert z.get_col_names() == ["a", "b"] and z.get_dataset_size() == 2
    assert three().zip((two(), three("c"))).get_col_names() == ["a", "b", "c"]
    with pytest.raises(TypeError, match="is not of type \\[<class 'tuple'>\\]"):
        ds.zip(three())
    with pytest.raises(ValueError, match="column name.*'a'.*rename"):  # MindSpore fails later, when iterating
        ds.zip((three(), three()))


def test_concat():
    c = three() + three()
    assert c.get_dataset_size() == 6
    assert rows(c) == [[[0.0]], [[1.0]], [[2.0]], [[0.0]], [[1.0]], [[2.0]]]
    assert three().concat([three(), three()]).get_dataset_size() == 9
    batched = (three() + three()).batch(2)
    assert rows(batched) == [[[[0.0], [1.0]]], [[[2.0], [0.0]]], [[[1.0], [2.0]]]]
    with pytest.raises(ValueError, match="same columns.*\\['a'\\].*\\['q'\\]"):  # MindSpore: when iterating
        three() + three("q")


def test_zip_and_concat_with_shuffle_repeat():
    data = ds.zip((ds.NumpySlicesDataset({"x": np.arange(6)}, shuffle=True), three("y"))).repeat(2)
    assert data.get_dataset_size() == 6
    got = rows(data)
    assert len(got) == 6 and [r[1] for r in got] == [[0.0], [1.0], [2.0]] * 2
    assert (three() + three().repeat(2)).get_dataset_size() == 9
