"""Data pipelines that neither lose rows nor hang: generator objects, endless sources, text columns.

MindSpore results quoted here were observed on MindSpore 2.10 CPU.
"""
import numpy as np
import pytest

import mslab.dataset as ds
from mslab import Tensor, nn
from mslab.dataset import sources
from mslab.train import Callback, Model


def rows(n=5):
    for i in range(n):
        yield (np.array([i], np.float32),)


def test_a_generator_object_is_read_once_and_kept():
    data = ds.GeneratorDataset(rows(), ["x"], shuffle=False)
    assert data.get_dataset_size() == 5  # MindSpore: 5, and the rows are all still there afterwards
    first = [r[0].asnumpy().tolist() for r in data.create_tuple_iterator()]
    second = [r[0].asnumpy().tolist() for r in data.create_tuple_iterator()]
    assert first == second == [[0.0], [1.0], [2.0], [3.0], [4.0]]  # MindSpore: the same rows in a second epoch
    batched = ds.GeneratorDataset(rows(), ["x"], shuffle=False).batch(2)
    assert batched.get_dataset_size() == 3 and batched.get_col_names() == ["x"]
    assert [r[0].shape for r in batched.create_tuple_iterator()] == [(2, 1), (2, 1), (1, 1)]


def test_model_train_on_a_generator_object_runs_every_step():
    def pairs():
        for _ in range(8):
            yield np.ones(2, np.float32), np.ones(1, np.float32)

    net = nn.Dense(2, 1)
    model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    before = net.weight.asnumpy().copy()
    steps = []

    class Count(Callback):
        def on_train_step_end(self, run_context):
            steps.append(run_context.original_args().cur_step_num)

    model.train(2, ds.GeneratorDataset(pairs(), ["x", "y"]).batch(4), callbacks=[Count()])
    assert steps == [1, 2, 3, 4] and not np.array_equal(before, net.weight.asnumpy())


def test_an_endless_source_gives_a_message_instead_of_a_hang(monkeypatch):
    monkeypatch.setattr(sources, "MAX_COUNTED_ROWS", 50)

    def endless():
        i = 0
        while True:
            yield (np.array([i], np.float32),)
            i += 1

    with pytest.raises(ValueError, match=r"GeneratorDataset: get_dataset_size\(\) read 50 rows .* never ends has no "
                                         r"size. Give num_samples=N"):
        ds.GeneratorDataset(endless, ["x"]).get_dataset_size()
    with pytest.raises(ValueError, match=r"reading a generator object read 50 rows"):
        ds.GeneratorDataset(endless(), ["x"]).get_dataset_size()
    capped = ds.GeneratorDataset(endless, ["x"], num_samples=7)
    assert capped.get_dataset_size() == 7
    assert ds.GeneratorDataset(endless(), ["x"], num_samples=3).get_dataset_size() == 3


def test_a_text_column_stays_numpy_and_training_names_it():
    def text():
        yield np.array(["ab", "c"]), np.array([1.0, 2.0], np.float32)
        yield np.array(["de", "f"]), np.array([2.0, 3.0], np.float32)

    data = ds.GeneratorDataset(text, ["text", "label"], shuffle=False)
    row = next(iter(data.create_tuple_iterator()))
    # MindSpore: [array(['ab', 'c'], dtype='<U2'), Tensor(shape=[1], dtype=Int32, ...)]: text stays numpy
    assert isinstance(row[0], np.ndarray) and row[0].tolist() == ["ab", "c"] and isinstance(row[1], Tensor)
    net = nn.Dense(2, 2)
    model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    with pytest.raises(TypeError, match=r"column 'text' of the dataset holds <U2 text \(shape \(2,\)\).*dataset.map"):
        model.train(1, data)
