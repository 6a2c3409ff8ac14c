"""Dataset and sampler classes print at MindSpore's module paths when mslab runs as ``mindspore``.

MindSpore 2.10 printed (observed): ``<class 'mindspore.dataset.engine.datasets_vision.MnistDataset'>``,
``...datasets.BatchDataset`` for ``dataset.batch(2)``, ``...datasets_user_defined.NumpySlicesDataset``,
``...datasets_standard_format.MindDataset``, ``...datasets_text.TextFileDataset``, ``...samplers.RandomSampler``.
"""
import pickle
import sys

import numpy as np

import mslab
import mslab.dataset as ds


def test_paths_under_the_mindspore_name(monkeypatch):
    mnist = ds.MnistDataset(ds.digits_path(), usage="test")
    assert repr(type(mnist)) == "<class 'mslab.dataset.sources.MnistDataset'>"  # as Python prints it
    monkeypatch.setitem(sys.modules, "mindspore", mslab)  # the import alias: `import mindspore` loads mslab
    assert repr(type(mnist)) == "<class 'mindspore.dataset.engine.datasets_vision.MnistDataset'>"
    assert repr(type(mnist.batch(2))) == "<class 'mindspore.dataset.engine.datasets.BatchDataset'>"
    assert repr(type(mnist.map(lambda x: x, input_columns="label"))) == \
        "<class 'mindspore.dataset.engine.datasets.MapDataset'>"
    assert repr(type(ds.NumpySlicesDataset([1, 2]))) == \
        "<class 'mindspore.dataset.engine.datasets_user_defined.NumpySlicesDataset'>"
    assert repr(ds.MindDataset) == "<class 'mindspore.dataset.engine.datasets_standard_format.MindDataset'>"
    assert repr(ds.TextFileDataset) == "<class 'mindspore.dataset.engine.datasets_text.TextFileDataset'>"
    assert repr(ds.RandomSampler) == "<class 'mindspore.dataset.engine.samplers.RandomSampler'>"
    assert repr(ds.BatchInfo) == "<class 'mindspore.dataset.engine.datasets.BatchInfo'>"


def test_the_printed_path_is_where_the_class_is(monkeypatch):
    from mslab.dataset.engine import datasets, datasets_vision, samplers

    assert datasets_vision.MnistDataset is ds.MnistDataset and samplers.RandomSampler is ds.RandomSampler
    assert datasets.BatchDataset is type(ds.NumpySlicesDataset([1]).batch(1))


def test_own_subclasses_module_and_pickling_unchanged(monkeypatch):
    monkeypatch.setitem(sys.modules, "mindspore", mslab)

    class Mine(ds.GeneratorDataset):
        pass

    assert repr(Mine) == f"<class '{__name__}.{Mine.__qualname__}'>"  # the user's class prints as Python's
    assert ds.MnistDataset.__module__ == "mslab.dataset.sources"  # so pickle and inspect find the file
    sampler = pickle.loads(pickle.dumps(ds.SubsetSampler([2, 0])))
    rows = [int(r[0]) for r in ds.GeneratorDataset(np.arange(3), ["x"], sampler=sampler)]
    assert rows == [2, 0]
