"""Cifar100Dataset, PaddedDataset, WeightedRandomSampler, PKSampler, the engine paths and config switches.

Each reader reads a small generated fixture (nothing downloads). The expectations are what MindSpore 2.10
gave on CPU for the same layouts (observed on MindSpore 2.10 CPU; its CIFAR-100 reader wants the full
50,000 + 10,000 records, so it read the same records padded to that count).
"""
import os

import numpy as np
import pytest
from PIL import Image

import mslab
import mslab.dataset as ds


def rows(dataset):
    return list(dataset.create_tuple_iterator(output_numpy=True, num_epochs=1))


def write_cifar100(folder, n_train=4, n_test=2):
    """train.bin / test.bin: record i has coarse label (i + off) % 20, fine label (3i + off) % 100 and pixel
    bytes (k * (i + 1 + off)) % 256 for byte k of the channels-first image (off = 0 for train, 5 for test)."""
    os.makedirs(folder, exist_ok=True)
    for name, off, n in (("train.bin", 0, n_train), ("test.bin", 5, n_test)):
        i = np.arange(n)[:, None]
        labels = [((i + off) % 20).astype(np.uint8), ((i * 3 + off) % 100).astype(np.uint8)]
        images = ((np.arange(3072)[None, :] * (i + 1 + off)) % 256).astype(np.uint8)
        np.concatenate(labels + [images], 1).tofile(os.path.join(folder, name))
    return folder


def test_cifar100_layout_columns_and_order(tmp_path):
    folder = write_cifar100(str(tmp_path / "cifar-100-binary"))
    data = ds.Cifar100Dataset(folder, usage="train", shuffle=False)
    assert data.get_col_names() == ["image", "coarse_label", "fine_label"]  # observed on MindSpore 2.10 CPU
    got = rows(data)
    image, coarse, fine = got[1]
    assert image.dtype == np.uint8 and image.shape == (32, 32, 3)
    assert coarse.dtype == np.uint32 and fine.dtype == np.uint32 and coarse.shape == ()
    # observed: row 1 is coarse 1, fine 3, pixel (0, 1) = [2, 2, 2], pixel (1, 0) = [64, 64, 64]
    assert (int(coarse), int(fine)) == (1, 3) and image[0, 1].tolist() == [2, 2, 2] and image[1, 0].tolist() == [64] * 3
    assert [(int(r[1]), int(r[2])) for r in got] == [(0, 0), (1, 3), (2, 6), (3, 9)]
    # observed: usage="all" (the default) reads test.bin first, then train.bin: (5, 5), (6, 8), then (0, 0), ...
    everything = ds.Cifar100Dataset(folder, shuffle=False)
    assert [(int(r[1]), int(r[2])) for r in rows(everything)][:3] == [(5, 5), (6, 8), (0, 0)]
    assert everything.get_dataset_size() == 6
    assert ds.Cifar100Dataset(folder, usage="test").get_dataset_size() == 2
    os.remove(os.path.join(folder, "test.bin"))  # observed: "all" then reads what is there
    assert ds.Cifar100Dataset(folder).get_dataset_size() == 4


def test_cifar100_bad_input_is_named(tmp_path):
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.Cifar100Dataset(str(tmp_path / "nope"))
    with pytest.raises(ValueError, match="usage must be 'train', 'test' or 'all'"):
        ds.Cifar100Dataset(str(tmp_path), usage="valid")
    with pytest.raises(ValueError, match="no CIFAR-100 binary files"):
        ds.Cifar100Dataset(str(tmp_path))
    (tmp_path / "train.bin").write_bytes(b"\0" * 100)
    with pytest.raises(ValueError, match="train.bin has 100 bytes, not a whole number of 3074-byte"):
        ds.Cifar100Dataset(str(tmp_path), usage="train")


def test_engine_paths_are_the_same_objects():
    from mslab.dataset.engine import Cifar10Dataset, ImageFolderDataset, config
    from mslab.dataset.engine.datasets_vision import ImageFolderDataset as IFD
    # observed on MindSpore 2.10: engine.Cifar10Dataset is ds.Cifar10Dataset, and so on
    assert Cifar10Dataset is ds.Cifar10Dataset and ImageFolderDataset is ds.ImageFolderDataset
    assert IFD is ds.ImageFolderDataset
    assert config is ds.config
    for name in ["GeneratorDataset", "NumpySlicesDataset", "MnistDataset", "Cifar100Dataset", "Dataset",
                 "DistributedSampler", "RandomSampler", "MindDataset", "PaddedDataset"]:  # all in MindSpore's engine
        assert getattr(ds.engine, name) is getattr(ds, name)


def test_padded_dataset_rows_and_dtypes():
    p = ds.PaddedDataset([{"image": np.zeros(2, np.uint8), "label": np.array(1, np.int32)},
                          {"image": np.ones(2, np.uint8), "label": np.array(-1, np.int32)}])
    assert p.get_col_names() == ["image", "label"] and p.get_dataset_size() == 2
    got = rows(p)
    assert [r[0].tolist() for r in got] == [[0, 0], [1, 1]] and [int(r[1]) for r in got] == [1, -1]
    assert got[0][0].dtype == np.uint8 and got[0][1].dtype == np.int32
    # observed on MindSpore 2.10 CPU: Python values become int64, float64 and <U arrays
    py = rows(ds.PaddedDataset([{"a": 1, "b": "x"}, {"a": 2.5, "b": "yz"}]))
    assert [(r[0].dtype, r[1].dtype) for r in py] == [(np.int64, np.dtype("<U1")), (np.float64, np.dtype("<U2"))]
    base = ds.NumpySlicesDataset({"image": np.zeros((3, 2), np.uint8), "label": np.arange(3, dtype=np.int32)},
                                 shuffle=False)
    assert [int(r[1]) for r in rows(base + p)] == [0, 1, 2, 1, -1]  # observed


def test_padded_dataset_bad_input():
    with pytest.raises(ValueError, match="padded_samples cannot be empty."):
        ds.PaddedDataset([])
    with pytest.raises(TypeError, match="Argument padded_element with value 1 is not of type"):
        ds.PaddedDataset([1, 2])
    with pytest.raises(ValueError, match=r"padded_samples\[1\] has the keys \['b'\]"):
        rows(ds.PaddedDataset([{"a": 1}, {"b": 2}]))


def test_weighted_random_sampler():
    mslab.set_seed(1)
    data = lambda sampler, n=4: ds.NumpySlicesDataset({"x": np.arange(n)}, sampler=sampler)  # noqa: E731
    one_hot = data(ds.WeightedRandomSampler([0, 0, 1, 0], 5))
    assert [int(r[0]) for r in rows(one_hot)] == [2, 2, 2, 2]  # observed: num_samples is capped at the rows
    assert one_hot.get_dataset_size() == 4
    assert sorted(int(r[0]) for r in rows(data(ds.WeightedRandomSampler([0, 1, 1, 0], 4, False)))) == [0, 1, 2, 3]
    assert sorted(int(r[0]) for r in rows(data(ds.WeightedRandomSampler([0, 1, 1, 0], 2, False)))) == [1, 2]
    short = data(ds.WeightedRandomSampler([1, 1]))  # observed: size 4, rows drawn from the first 2
    assert short.get_dataset_size() == 4 and set(int(r[0]) for r in rows(short)) <= {0, 1}
    assert len(rows(data(ds.WeightedRandomSampler([1, 1], 0), 2))) == 2  # observed: 0 means all rows
    no_repl = [int(r[0]) for r in rows(data(ds.WeightedRandomSampler([0, 1, 1, 0, 0, 1], 5, False), 6))]
    assert sorted(no_repl[:3]) == [1, 2, 5] and sorted(no_repl[3:]) in ([0, 3], [0, 4], [3, 4])
    freq = np.bincount([int(r[0]) for r in rows(data(ds.WeightedRandomSampler([1, 2, 7], 3000), 3000))][:3000])
    assert freq[:3].sum() == 3000 and freq[2] > freq[1] > freq[0]


def test_weighted_random_sampler_errors_as_mindspore():
    with pytest.raises(TypeError, match="type of weights element must be number, but got w\\[0\\]: ab"):
        ds.WeightedRandomSampler(["ab"], 2)
    with pytest.raises(ValueError, match="num_samples exceeds the boundary"):
        ds.WeightedRandomSampler([1, 1], -1)
    for weights, message in (([1, -1], "must not contain negative numbers, got: weights\\[1\\] = -1.000000"),
                             ([0, 0], "must not be all zero"), ([], "must not be empty"),
                             ([1] * 6, "weight size: 6, num of data: 4")):
        with pytest.raises(RuntimeError, match=message):  # observed: reported when the rows are read
            rows(ds.NumpySlicesDataset({"x": np.arange(4)}, sampler=ds.WeightedRandomSampler(weights, 2)))


def test_pk_sampler_draws_k_rows_of_every_class(tmp_path):
    for i, c in enumerate([0, 1, 0, 2, 1, 0, 2, 2, 2]):
        os.makedirs(tmp_path / f"c{c}", exist_ok=True)
        Image.fromarray(np.full((2, 2, 3), i, np.uint8)).save(tmp_path / f"c{c}" / f"{i}.png")
    members = {0: {0, 2, 5}, 1: {1, 4}, 2: {3, 6, 7, 8}}
    mslab.set_seed(0)
    for k in (2, 4):  # observed on MindSpore 2.10: k rows per class, classes in order, rows with replacement
        data = ds.ImageFolderDataset(str(tmp_path), sampler=ds.PKSampler(k), decode=True)
        got = [(int(r[0][0, 0, 0]), int(r[1])) for r in rows(data)]
        assert data.get_dataset_size() == 3 * k and [c for _, c in got] == [0] * k + [1] * k + [2] * k
        assert all(i in members[c] for i, c in got)
    shuffled = ds.ImageFolderDataset(str(tmp_path), sampler=ds.PKSampler(2, shuffle=True))
    assert sorted(int(r[1]) for r in rows(shuffled)) == [0, 0, 1, 1, 2, 2]
    assert ds.ImageFolderDataset(str(tmp_path), sampler=ds.PKSampler(2, num_samples=3)).get_dataset_size() == 3
    with pytest.raises(ValueError, match="GeneratorDataset doesn't support PKSampler."):  # observed
        ds.NumpySlicesDataset({"x": np.arange(3), "label": np.arange(3)}, sampler=ds.PKSampler(2))
    with pytest.raises(NotImplementedError, match="Not supported to specify num_class for PKSampler."):
        ds.PKSampler(2, num_class=2)


def test_pk_sampler_on_a_reader_without_a_label_list(tmp_path):
    folder = write_cifar100(str(tmp_path / "c100"), n_train=6)
    data = ds.Cifar100Dataset(folder, usage="train", sampler=ds.PKSampler(1, class_column="coarse_label"))
    assert sorted(int(r[1]) for r in rows(data)) == [0, 1, 2, 3, 4, 5]
    with pytest.raises(ValueError, match="has no column 'label'"):
        ds.Cifar100Dataset(folder, sampler=ds.PKSampler(1))


def test_config_switches_as_mindspore():
    # observed on MindSpore 2.10 CPU: shared memory on and NUMA off by default; both only take bools
    assert ds.config.get_enable_shared_mem() is True and ds.config.get_numa_enable() is False
    ds.config.set_enable_shared_mem(False)
    ds.config.set_numa_enable(True)
    assert ds.config.get_enable_shared_mem() is False and ds.config.get_numa_enable() is True
    ds.config.set_enable_shared_mem(True)
    ds.config.set_numa_enable(False)
    with pytest.raises(TypeError, match="enable must be of type bool."):
        ds.config.set_enable_shared_mem(1)
    with pytest.raises(TypeError, match="numa_enable must be a boolean dtype."):
        ds.config.set_numa_enable("x")
