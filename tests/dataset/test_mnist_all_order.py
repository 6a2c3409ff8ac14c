"""MnistDataset with usage="all" reads the test rows first, as MindSpore 2.10 does.

Every expectation was printed by MindSpore 2.10 on CPU (docs/mindspore_observed/infra.md).
"""
import struct

import numpy as np
import pytest

import mslab.dataset as ds

pytestmark = pytest.mark.usefixtures("stand_alone_parallel_context")


def test_mnist_all_reads_test_rows_first(tmp_path):
    def write(prefix, n, start):
        images = np.zeros((n, 28, 28), np.uint8)
        images[:, 0, 0] = np.arange(start, start + n)
        (tmp_path / f"{prefix}-images-idx3-ubyte").write_bytes(struct.pack(">IIII", 2051, n, 28, 28) + images.tobytes())
        labels = (np.arange(start, start + n) % 10).astype(np.uint8)
        (tmp_path / f"{prefix}-labels-idx1-ubyte").write_bytes(struct.pack(">II", 2049, n) + labels.tobytes())

    write("train", 5, 0)
    write("t10k", 3, 100)

    def first_pixels(**kw):
        data = ds.MnistDataset(str(tmp_path), shuffle=False, **kw)
        return [int(r["image"][0, 0, 0]) for r in data.create_dict_iterator(output_numpy=True)]

    # observed on MindSpore 2.10 CPU
    assert first_pixels(usage="all") == [100, 101, 102, 0, 1, 2, 3, 4]
    assert first_pixels(usage="train") == [0, 1, 2, 3, 4]
    assert first_pixels(usage="test") == [100, 101, 102]
    assert first_pixels(usage="all", num_samples=4) == [100, 101, 102, 0]
