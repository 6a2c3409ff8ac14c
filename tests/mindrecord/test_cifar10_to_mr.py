"""Issue #19: mindrecord.Cifar10ToMR on a small generated CIFAR-10 python folder.

Observed on MindSpore 2.10 CPU with OpenCV 4.10 (docs/mindspore_observed/fwthree.md)."""
import hashlib
import os
import pickle

import numpy as np
import pytest

from mslab.mindrecord import Cifar10ToMR, FileReader

# observed on MindSpore 2.10: md5 prefixes of the stored JPEG bytes and the labels, per source batch
TRAIN = {"data_batch_1": (["ae1e5458", "2c2758fc"], [0, 1]), "data_batch_2": (["8c8ca809", "9d80b05c"], [2, 3])}
TEST = (["37556622", "f89d1c93", "f9ba229a"], [5, 6, 7])


def _fixture(folder):
    """Two training batches of 2 images and a test batch of 3 (the same bytes MindSpore converted)."""
    rng = np.random.RandomState(0)
    for name, n, start in (("data_batch_1", 2, 0), ("data_batch_2", 2, 2), ("test_batch", 3, 5)):
        data = rng.randint(0, 256, size=(n, 3072)).astype(np.uint8)
        batch = {b"batch_label": name.encode(), b"labels": [int(v) for v in (np.arange(n) + start) % 10],
                 b"data": data, b"filenames": [b"x.png"] * n}
        with open(folder / name, "wb") as f:
            pickle.dump(batch, f)


def _rows(path):
    reader = FileReader(str(path))
    rows = [(hashlib.md5(bytes(r["data"][0] if isinstance(r["data"], np.ndarray) else r["data"])).hexdigest()[:8],
             int(r["id"]), int(r["label"])) for r in reader.get_next()]
    reader.close()
    return rows


def test_cifar10_to_mindrecord(tmp_path):
    src, out = tmp_path / "cifar-10-batches-py", tmp_path / "out"
    src.mkdir()
    out.mkdir()
    _fixture(src)
    dest = out / "c10.mindrecord"
    assert Cifar10ToMR(str(src), str(dest)).transform(["label"]) is None  # observed: None
    # observed: c10.mindrecord, c10.mindrecord.db, c10.mindrecord_test, c10.mindrecord_test.db
    assert sorted(os.listdir(out)) == ["c10.mindrecord", "c10.mindrecord.db", "c10.mindrecord_test",
                                       "c10.mindrecord_test.db"]
    md5s, labels = [], []
    for name in os.listdir(src):  # training batches in listdir's order, as MindSpore
        if name in TRAIN:
            md5s += TRAIN[name][0]
            labels += TRAIN[name][1]
    assert _rows(dest) == [(m, i, lab) for i, (m, lab) in enumerate(zip(md5s, labels))]
    assert _rows(str(dest) + "_test") == [(m, i, lab) for i, (m, lab) in enumerate(zip(*TEST))]


@pytest.mark.parametrize("setup, kind, message", [
    # observed on MindSpore 2.10 CPU, each in its own process
    ("empty", FileNotFoundError, "[PathNotExistsError]: Invalid path. data_batch_*"),
    ("train_only", FileNotFoundError, "[PathNotExistsError]: Invalid path. test_batch"),
    ("bad_destination", ValueError, "[ParamValueError]: Invalid parameter value. File path: 5 is not string."),
    ("bad_fields", ValueError, "The parameter fields should be None or list"),
])
def test_cifar10_to_mindrecord_errors(tmp_path, setup, kind, message):
    src = tmp_path / "src"
    src.mkdir()
    if setup != "empty":
        _fixture(src)
    if setup == "train_only":
        os.remove(src / "test_batch")
    with pytest.raises(kind) as err:
        converter = Cifar10ToMR(str(src), 5 if setup == "bad_destination" else str(tmp_path / "c.mindrecord"))
        converter.transform("label")
    assert str(err.value) == message
    assert not (tmp_path / "c.mindrecord").exists()


def test_code_in_a_pickle_is_refused(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    _fixture(src)
    with open(src / "data_batch_1", "wb") as f:
        pickle.dump(os.getcwd, f)  # a pickle that names a function
    with pytest.raises(ValueError, match="is not a CIFAR-10 python batch .*forbidden"):
        Cifar10ToMR(str(src), str(tmp_path / "c.mindrecord")).transform()
    assert not (tmp_path / "c.mindrecord").exists()
