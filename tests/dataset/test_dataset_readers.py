"""Cifar10Dataset, ImageFolderDataset, FashionMnistDataset on small generated fixtures.

The same fixtures were read by MindSpore 2.10 (its CIFAR-10 reader wants 10,000 records per file,
so it read the same records padded to that count); the expectations below are what it gave
(observed on MindSpore 2.10 CPU).
"""
import os
import struct
import tracemalloc

import numpy as np
import pytest
from PIL import Image

import mslab.dataset as ds


def rows(dataset):
    return list(dataset.create_tuple_iterator(output_numpy=True, num_epochs=1))


def write_cifar(folder, records=3):
    """data_batch_1/2 and test_batch: record i of a file has label (i + off) % 10 and pixel bytes
    (k * (i + 1 + off)) % 256 for byte k of the channels-first image (off = 0, 3, 6)."""
    os.makedirs(folder, exist_ok=True)
    for name, off in (("data_batch_1.bin", 0), ("data_batch_2.bin", 3), ("test_batch.bin", 6)):
        i = np.arange(records)[:, None]
        labels = ((i + off) % 10).astype(np.uint8)
        images = ((np.arange(3072)[None, :] * (i + 1 + off)) % 256).astype(np.uint8)
        np.concatenate([labels, images], 1).tofile(os.path.join(folder, name))
    return folder


def write_folder(folder):
    rng = np.random.default_rng(0)
    for cls, n in (("dogs", 2), ("cats", 3)):
        os.makedirs(os.path.join(folder, cls), exist_ok=True)
        for i in range(n):
            ext = "png" if i == 2 else "jpg"
            Image.fromarray(rng.integers(0, 256, (6 + i, 8, 3), dtype=np.uint8)).save(
                os.path.join(folder, cls, f"img{i}.{ext}"))
    return folder


def write_idx(path, arr):
    with open(path, "wb") as f:
        f.write(bytes([0, 0, 8, arr.ndim]) + struct.pack(f">{arr.ndim}I", *arr.shape) + arr.tobytes())


def test_cifar10_layout_dtypes_and_order(tmp_path):
    folder = write_cifar(str(tmp_path / "cifar-10-batches-bin"))
    train = rows(ds.Cifar10Dataset(folder, usage="train", shuffle=False))
    image, label = train[1]
    assert image.dtype == np.uint8 and image.shape == (32, 32, 3)
    assert label.dtype == np.uint32 and label.shape == ()
    # observed on MindSpore 2.10 CPU: row 1 has label 1, pixel (0, 1) = [2, 2, 2], pixel (1, 0) = [64, 64, 64]
    assert int(label) == 1 and image[0, 1].tolist() == [2, 2, 2] and image[1, 0].tolist() == [64, 64, 64]
    assert [int(r[1]) for r in train] == [0, 1, 2, 3, 4, 5]
    # observed: usage="all" (and None) reads the training files, then test_batch
    everything = ds.Cifar10Dataset(folder, shuffle=False)
    assert everything.get_dataset_size() == 9 and everything.get_col_names() == ["image", "label"]
    assert [int(r[1]) for r in rows(everything)] == [0, 1, 2, 3, 4, 5, 6, 7, 8]
    assert [int(r[1]) for r in rows(ds.Cifar10Dataset(folder, usage="test", shuffle=False))] == [6, 7, 8]
    assert ds.Cifar10Dataset(folder, usage="train", num_samples=2).get_dataset_size() == 2
    assert sorted(int(r[1]) for r in rows(ds.Cifar10Dataset(folder, usage="train"))) == [0, 1, 2, 3, 4, 5]


def test_cifar10_bad_folders_are_named(tmp_path):
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.Cifar10Dataset(str(tmp_path / "nope"))
    with pytest.raises(ValueError, match="no CIFAR-10 binary files"):
        ds.Cifar10Dataset(str(tmp_path))
    (tmp_path / "data_batch_1.bin").write_bytes(b"\0" * 100)
    with pytest.raises(ValueError, match="data_batch_1.bin has 100 bytes, not a whole number of 3073-byte"):
        ds.Cifar10Dataset(str(tmp_path), usage="train")


def test_cifar10_streams_with_flat_memory(tmp_path):
    """Iterating 10x more records must not need more memory: one record is read at a time."""
    def peak(records):
        folder = write_cifar(str(tmp_path / f"c{records}"), records)
        dataset = ds.Cifar10Dataset(folder, usage="train", shuffle=False).batch(10)
        tracemalloc.start()
        for _ in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1):
            pass
        top = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return top
    small, large = peak(100), peak(1000)  # 200 and 2,000 images (6 MB of pixels in the large case)
    assert large < small + 200_000, (small, large)


def test_image_folder_raw_bytes_labels_and_order(tmp_path):
    folder = write_folder(str(tmp_path / "folder"))
    got = rows(ds.ImageFolderDataset(folder, shuffle=False))
    # observed on MindSpore 2.10 CPU: classes in sorted order (cats 0, dogs 1), files sorted; raw file bytes
    assert [int(r[1]) for r in got] == [0, 0, 0, 1, 1]
    assert all(r[1].dtype == np.int32 and r[0].dtype == np.uint8 and r[0].ndim == 1 for r in got)
    assert got[2][0][:4].tolist() == [137, 80, 78, 71]  # the PNG signature: cats/img2.png
    assert got[0][0].tobytes() == open(os.path.join(folder, "cats", "img0.jpg"), "rb").read()
    decoded = rows(ds.ImageFolderDataset(folder, shuffle=False, decode=True))
    assert [r[0].shape for r in decoded] == [(6, 8, 3), (7, 8, 3), (8, 8, 3), (6, 8, 3), (7, 8, 3)]
    # observed: the first pixels of cats/img0.jpg decoded by MindSpore
    assert decoded[0][0].reshape(-1)[:5].tolist() == [89, 68, 11, 106, 87]
    indexed = rows(ds.ImageFolderDataset(folder, shuffle=False, class_indexing={"dogs": 0, "cats": 7}))
    assert [int(r[1]) for r in indexed] == [7, 7, 7, 0, 0]
    assert ds.ImageFolderDataset(folder, extensions=[".png"]).get_dataset_size() == 1


def test_image_folder_takes_every_file_and_decode_names_a_broken_one(tmp_path):
    folder = write_folder(str(tmp_path / "folder"))
    (tmp_path / "folder" / "cats" / "notes.txt").write_text("not an image")
    assert ds.ImageFolderDataset(folder).get_dataset_size() == 6  # observed: MindSpore counts notes.txt too
    with pytest.raises(RuntimeError, match="notes.txt"):
        rows(ds.ImageFolderDataset(folder, decode=True, shuffle=False))


def test_image_folder_streams_from_a_generated_folder(tmp_path):
    folder = tmp_path / "many"
    for c in range(3):
        (folder / f"class{c}").mkdir(parents=True)
        for i in range(40):
            Image.fromarray(np.full((4, 4, 3), i, np.uint8)).save(folder / f"class{c}" / f"{i:03d}.png")
    dataset = ds.ImageFolderDataset(str(folder), decode=True, shuffle=False)
    assert dataset.get_dataset_size() == 120
    labels = [int(r[1]) for r in rows(dataset)]
    assert labels == [0] * 40 + [1] * 40 + [2] * 40


def test_fashion_mnist_reads_test_rows_first_for_all(tmp_path):
    rng = np.random.default_rng(0)
    write_idx(str(tmp_path / "train-images-idx3-ubyte"), rng.integers(0, 256, (4, 28, 28), dtype=np.uint8))
    write_idx(str(tmp_path / "train-labels-idx1-ubyte"), np.array([3, 1, 4, 1], np.uint8))
    write_idx(str(tmp_path / "t10k-images-idx3-ubyte"), rng.integers(0, 256, (2, 28, 28), dtype=np.uint8))
    write_idx(str(tmp_path / "t10k-labels-idx1-ubyte"), np.array([5, 9], np.uint8))
    train = rows(ds.FashionMnistDataset(str(tmp_path), usage="train", shuffle=False))
    assert train[0][0].shape == (28, 28, 1) and train[0][0].dtype == np.uint8 and train[0][1].dtype == np.uint32
    assert [int(r[1]) for r in train] == [3, 1, 4, 1]
    # observed on MindSpore 2.10 CPU: usage "all" (the default) gives the t10k rows first
    assert [int(r[1]) for r in rows(ds.FashionMnistDataset(str(tmp_path), shuffle=False))] == [5, 9, 3, 1, 4, 1]
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.FashionMnistDataset(str(tmp_path / "nope"))


def shard(n=10, **kw):
    data = ds.NumpySlicesDataset({"x": np.arange(n)}, sampler=ds.DistributedSampler(**kw))
    return [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True, num_epochs=1)], data.get_dataset_size()


def test_distributed_sampler_shards_as_mindspore():
    # observed on MindSpore 2.10 CPU (shuffle=False; 10 rows unless said)
    assert shard(num_shards=3, shard_id=0, shuffle=False) == ([0, 3, 6, 9], 4)
    assert shard(num_shards=3, shard_id=1, shuffle=False) == ([1, 4, 7, 0], 4)
    assert shard(num_shards=3, shard_id=2, shuffle=False) == ([2, 5, 8, 1], 4)
    assert shard(num_shards=4, shard_id=3, shuffle=False) == ([3, 7, 1], 3)
    assert shard(num_shards=3, shard_id=0, shuffle=False, num_samples=2) == ([0, 3], 2)
    assert shard(num_shards=3, shard_id=1, shuffle=False, offset=1) == ([0, 3, 6, 9], 4)
    assert shard(num_shards=1, shard_id=0, shuffle=False) == (list(range(10)), 10)
    assert shard(3, num_shards=4, shard_id=1, shuffle=False) == ([1], 1)
    rows, size = shard(num_shards=2, shard_id=0)
    assert size == 5 and len(set(rows)) == 5
    with pytest.raises(ValueError, match="shard_id"):
        ds.DistributedSampler(num_shards=2, shard_id=2)


def test_prefetch_size_is_recorded():
    assert ds.config.get_prefetch_size() == 16  # observed default on MindSpore 2.10
    ds.config.set_prefetch_size(4)
    assert ds.config.get_prefetch_size() == 4
    ds.config.set_prefetch_size(16)
    with pytest.raises(ValueError, match="not within"):
        ds.config.set_prefetch_size(0)
    with pytest.raises(TypeError, match="isn't of type int"):
        ds.config.set_prefetch_size(2.5)
