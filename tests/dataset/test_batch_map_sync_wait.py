"""``batch(per_batch_map=..., input_columns=..., output_columns=...)``, ``BatchInfo``, callable batch sizes,
``sync_wait``/``sync_update``, against MindSpore 2.10 (every expected value printed by its CPU build)."""
import numpy as np
import pytest

import mslab.dataset as ds


def source():
    return ds.NumpySlicesDataset({"a": np.arange(5), "b": np.arange(5) * 10, "c": np.arange(5) * 100}, shuffle=False)


def epochs(data, n=1):
    it = data.create_dict_iterator(output_numpy=True, num_epochs=n)
    return [[{k: v.tolist() for k, v in r.items()} for r in it] for _ in range(n)]


def test_per_batch_map_gets_lists_and_batch_info():
    calls = []

    def double_add(a, b, info):
        calls.append((type(a).__name__, type(a[0]).__name__, info.get_batch_num(), info.get_epoch_num()))
        return [x * 2 for x in a], [x + 1 for x in b]

    out = epochs(source().batch(2, per_batch_map=double_add, input_columns=["a", "b"]), 2)
    assert out[0] == out[1] == [{"a": [0, 2], "b": [1, 11], "c": [0, 100]},
                                {"a": [4, 6], "b": [21, 31], "c": [200, 300]},
                                {"a": [8], "b": [41], "c": [400]}]  # MindSpore
    assert calls == [("list", "ndarray", k, e) for e in (0, 1) for k in (0, 1, 2)]  # MindSpore's (batch, epoch) numbers


def test_output_columns_replace_the_inputs_in_place():
    def swap(x, y, info):
        return y, x

    data = ds.NumpySlicesDataset({c: np.arange(4) * m for c, m in zip("abcd", (1, 10, 100, 1000))}, shuffle=False)
    out = data.batch(2, per_batch_map=swap, input_columns=["c", "a"], output_columns=["p", "q"])
    assert out.get_col_names() == ["q", "b", "p", "d"]  # MindSpore
    assert epochs(out)[0][0] == {"q": [0, 100], "b": [0, 10], "p": [0, 1], "d": [0, 1000]}  # MindSpore
    data = ds.NumpySlicesDataset({c: np.arange(4) * m for c, m in zip("abcd", (1, 10, 100, 1000))}, shuffle=False)
    same = data.batch(2, per_batch_map=swap, input_columns=["b", "d"])
    assert epochs(same)[0][0] == {"a": [0, 1], "b": [0, 1000], "c": [0, 100], "d": [0, 10]}  # MindSpore


def test_more_outputs_than_inputs():
    def two(b, info):
        return [x * 2 for x in b], [x + 1 for x in b]

    out = ds.NumpySlicesDataset({"image": np.arange(4), "label": np.arange(4) * 10}, shuffle=False).batch(
        2, per_batch_map=two, input_columns=["label"], output_columns=["x", "y"])
    assert out.get_col_names() == ["x", "y", "image"]  # MindSpore (one other column: its order is fixed)
    assert epochs(out)[0][1] == {"x": [40, 60], "y": [21, 31], "image": [2, 3]}
    # two or more other columns follow in the order of MindSpore's C++ map of names (mslab.dataset.column_map)
    out = source().batch(2, per_batch_map=two, input_columns=["b"], output_columns=["x", "y"])
    assert out.get_col_names() == ["x", "y", "c", "a"]  # MindSpore
    assert epochs(out)[0][0] == {"x": [0, 20], "y": [1, 11], "c": [0, 100], "a": [0, 1]}  # MindSpore
    assert out.get_dataset_size() == 3 and out.get_batch_size() == 2  # MindSpore: 3 2


def test_per_batch_map_errors():
    with pytest.raises(RuntimeError, match="Invalid per_batch_map, the number of columns returned in 'per_batch_map' "
                                           "function should be 1 , but got: 2"):  # MindSpore's message
        list(source().batch(2, per_batch_map=lambda c, info: (c, c), input_columns=["c"]))
    with pytest.raises(TypeError, match="'int' object is not iterable"):  # as on MindSpore
        list(source().batch(2, per_batch_map=lambda c, info: (5,), input_columns=["c"]))
    with pytest.raises(ValueError, match="input_columns can be specified only when per_batch_map is set."):
        source().batch(2, input_columns=["a"])
    assert epochs(source().batch(2, per_batch_map=lambda c, info: [x for x in c], input_columns=["c"]))[0][2] == \
        {"a": [4], "b": [40], "c": [400]}  # MindSpore takes a returned list as the one column


def test_callable_batch_size_and_repeat_after_batch():
    data = source().batch(lambda info: info.get_batch_num() + 1)
    assert [r["a"] for r in epochs(data)[0]] == [[0], [1, 2], [3, 4]]  # MindSpore
    assert data.get_dataset_size() == 3 and data.get_batch_size() == -1  # MindSpore: 3 -1
    seen = []

    def note(a, b, info):
        seen.append((info.get_batch_num(), info.get_epoch_num()))
        return a, b

    data = source().batch(2, drop_remainder=True, per_batch_map=note, input_columns=["a", "b"]).repeat(2)
    assert len(epochs(data)[0]) == 4 and seen == [(0, 0), (1, 0), (0, 0), (1, 0)]  # MindSpore


def counting():
    for i in range(10):
        yield (np.array(i),)


class Augment:
    def __init__(self, loss):
        self.loss = loss
        self.updates = []

    def preprocess(self, input_):
        return input_ + self.loss

    def update(self, data):
        self.updates.append(data)
        self.loss = data["loss"]


def test_sync_wait_releases_a_batch_per_update():
    aug = Augment(0)
    data = ds.GeneratorDataset(counting, column_names=["input"])
    data = data.sync_wait(condition_name="policy", callback=aug.update)
    data = data.map(operations=[aug.preprocess], input_columns=["input"]).batch(2)
    got, count = [], 0
    for row in data.create_dict_iterator(num_epochs=1, output_numpy=True):
        got.append(row["input"].tolist())
        count += 2
        data.sync_update(condition_name="policy", data={"loss": count * 100})
    assert got == [[0, 1], [202, 203], [404, 405], [606, 607], [808, 809]]  # MindSpore
    assert aug.updates[-1] == {"loss": 1000} and data.get_batch_size() == 2


def test_sync_wait_without_batch_and_its_errors():
    seen = []
    data = ds.GeneratorDataset(counting, ["input"]).sync_wait("c", num_batch=2, callback=seen.append)
    for k, _ in enumerate(data.create_tuple_iterator(num_epochs=1, output_numpy=True)):
        if k % 2 == 1:
            data.sync_update("c", data=k)
    assert seen == [1, 3, 5, 7, 9]  # MindSpore
    with pytest.raises(RuntimeError, match="^Condition name not found.$"):  # MindSpore's messages
        data.sync_update(condition_name="nope")
    with pytest.raises(RuntimeError, match="^Sync_update batch size can only be positive integer, got: 0.$"):
        data.sync_update(condition_name="c", num_batch=0)
    with pytest.raises(RuntimeError, match="^Condition name is already in use.$"):
        ds.GeneratorDataset(counting, ["input"]).sync_wait("a").sync_wait("a")
    with pytest.raises(RuntimeError, match="^No shuffle after sync operators.$"):
        ds.GeneratorDataset(counting, ["input"]).sync_wait("a").shuffle(4)
    with pytest.raises(ValueError, match="^num_batch need to be greater than 0.$"):
        ds.GeneratorDataset(counting, ["input"]).sync_wait("a", num_batch=0)


def test_sync_wait_never_updated_warns_and_goes_on(capsys):
    data = ds.GeneratorDataset(counting, ["input"], shuffle=False).sync_wait("w").batch(5)
    # MindSpore 2.10 (with set_callback_timeout(2)) waited, warned, then gave every batch; mslab warns at once,
    # as nothing in its one thread could release the row
    assert [r["input"] for r in epochs(data)[0]] == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
    assert "Timeout happened in sync_wait, maybe dataset.sync_update(condition=...) is not added after " \
           "dataset.create_dict_iterator(...), now disabling lock." in capsys.readouterr().err  # MindSpore's warning
