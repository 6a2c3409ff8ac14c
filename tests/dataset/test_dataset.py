"""Datasets: pipeline sizes and order (SPEC "Datasets"), shuffles and seeds, map/batch, iterators,
MnistDataset on the shipped digits and on IDX files written here, and the transforms vs numpy."""
import gzip

import numpy as np
import pytest

import mslab
import mslab.dataset as ds
from mslab import Tensor
from mslab.common import dtype as mstype
from mslab.dataset import vision
from mslab.dataset.idx import read_idx, write_idx
from mslab.dataset.transforms import OneHot, TypeCast
from mslab.dataset.vision import HWC2CHW, Inter, Normalize, Rescale, Resize


def rows(dataset, col=0):
    return [r[col].tolist() for r in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1)]


def ten(shuffle=False):
    return ds.NumpySlicesDataset({"x": np.arange(10, dtype=np.float32), "y": np.arange(10) * 10}, shuffle=shuffle)


# ---- sizes and order (SPEC observed) -----------------------------------------------------------------

def test_batch_sizes_and_shapes():
    d = ten().batch(4)
    assert d.get_dataset_size() == 3
    assert [b[0].shape for b in d] == [(4,), (4,), (2,)]
    d = ten().batch(4, drop_remainder=True)
    assert d.get_dataset_size() == 2
    assert rows(d) == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_repeat_after_batch_and_take_skip():
    d = ten().batch(3).repeat(2)
    assert d.get_dataset_size() == 8
    assert len(rows(d)) == 8
    assert d.get_repeat_count() == 2 and d.get_batch_size() == 3
    assert rows(ten().take(4)) == [0, 1, 2, 3] and ten().take(4).get_dataset_size() == 4
    assert rows(ten().skip(7)) == [7, 8, 9] and ten().skip(7).get_dataset_size() == 3
    assert ten().take(20).get_dataset_size() == 10 and ten().skip(20).get_dataset_size() == 0
    assert ten().repeat().get_dataset_size() == -1
    assert len(rows(ten().repeat().take(25))) == 25
    assert ten().get_batch_size() == 1 and ten().get_repeat_count() == 1


def test_columns_project_rename():
    d = ten()
    assert d.get_col_names() == ["x", "y"]
    assert d.project(["y"]).get_col_names() == ["y"] and rows(d.project("y").take(2)) == [0, 10]
    assert d.rename(["x"], ["image"]).get_col_names() == ["image", "y"]
    assert list(next(d.rename("x", "image").create_dict_iterator())) == ["image", "y"]
    with pytest.raises(ValueError, match="project: no column"):
        d.project(["z"])


# ---- sources and shuffling ---------------------------------------------------------------------------

def test_random_access_source_is_shuffled_by_default():
    mslab.set_seed(1)
    order = rows(ds.GeneratorDataset(list(range(50)), ["x"]))
    assert sorted(order) == list(range(50)) and order != list(range(50))
    assert rows(ds.GeneratorDataset(list(range(50)), ["x"], shuffle=False)) == list(range(50))
    assert sorted(rows(ten(shuffle=None))) == list(range(10))


def test_generator_source_is_read_in_order():
    def gen():
        for i in range(30):
            yield np.array([i], np.float32), np.array(i)
    d = ds.GeneratorDataset(gen, ["data", "label"])
    assert rows(d, 1) == list(range(30)) and d.get_dataset_size() == 30
    assert rows(d, 1) == list(range(30))  # the generator function is called again for each pass
    with pytest.raises(ValueError, match="random-access"):
        ds.GeneratorDataset(gen, ["data", "label"], shuffle=True)


class PairSource:
    """A PyTorch-style dataset (seed 004): __getitem__ and __len__."""

    def __len__(self):
        return 6

    def __getitem__(self, i):
        return np.full((2, 3), i, np.float32), np.array([i], np.int32)


def test_class_source_needs_column_names_and_num_samples():
    # observed on MindSpore 2.10 CPU: ValueError: Neither columns_names nor schema are provided.
    with pytest.raises(ValueError, match="Neither columns_names nor schema are provided"):
        ds.GeneratorDataset(PairSource(), shuffle=False)
    assert ds.GeneratorDataset(PairSource(), ["a", "b"]).get_dataset_size() == 6
    assert ds.GeneratorDataset(PairSource(), ["a", "b"], num_samples=4).get_dataset_size() == 4
    got = rows(ds.GeneratorDataset(PairSource(), ["a", "b"], num_samples=4, shuffle=False), 1)
    assert got == [[0], [1], [2], [3]]


def test_set_seed_gives_mindspores_shuffle_orders():
    def orders():
        d = ds.GeneratorDataset(list(range(40)), ["x"]).shuffle(8).batch(5)
        return [rows(d), rows(d)]
    mslab.set_seed(7)
    a = orders()
    # MindSpore 2.10 printed these batches for both iterators: the sampler and the shuffle operator start from the
    # dataset seed in every new pipeline (mslab.dataset.std_random)
    mindspore = [[0, 29, 22, 27, 18], [1, 23, 10, 30, 24], [3, 5, 9, 19, 34], [37, 20, 21, 8, 38],
                 [11, 16, 26, 25, 12], [33, 28, 14, 17, 32], [15, 4, 39, 13, 31], [35, 2, 36, 6, 7]]
    assert a == [mindspore, mindspore]
    ds.config.set_seed(7)
    assert orders() == a and ds.config.get_seed() == 7


def test_epochs_reshuffle_as_mindspore():
    mslab.set_seed(7)
    it = ds.GeneratorDataset(list(range(10)), ["x"]).create_tuple_iterator(num_epochs=2, output_numpy=True)
    first, second = [int(r[0]) for r in it], [int(r[0]) for r in it]
    assert (first, second) == ([2, 7, 6, 8, 1, 5, 3, 0, 4, 9], [8, 3, 2, 6, 1, 0, 7, 4, 9, 5])  # MindSpore 2.10
    buffered = ds.NumpySlicesDataset(np.arange(10), ["x"], shuffle=False).shuffle(4)
    it = buffered.create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [int(r[0]) for r in it] == [3, 2, 4, 5, 1, 0, 7, 9, 6, 8]  # MindSpore 2.10
    assert [int(r[0]) for r in it] == [2, 1, 5, 3, 0, 4, 8, 7, 9, 6]  # the operator's generator draws on


def test_without_a_seed_each_pipeline_draws_its_own_order(monkeypatch):
    monkeypatch.setattr(ds.config, "_seed", None)  # a fresh process: MindSpore 2.10 seeds each pipeline randomly
    d = ds.GeneratorDataset(list(range(50)), ["x"])
    assert len({tuple(int(r[0]) for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True))
                for _ in range(4)}) > 1


def test_each_epoch_reshuffles_and_repeat_reshuffles():
    mslab.set_seed(0)
    it = ds.GeneratorDataset(list(range(30)), ["x"]).create_tuple_iterator(num_epochs=2, output_numpy=True)
    e1 = [int(r[0]) for r in it]
    e2 = [int(r[0]) for r in it]
    assert sorted(e1) == sorted(e2) == list(range(30)) and e1 != e2
    assert list(it) == []  # two epochs asked for, two given
    rep = rows(ds.GeneratorDataset(list(range(30)), ["x"]).repeat(2))
    assert rep[:30] != rep[30:] and sorted(rep[30:]) == list(range(30))


def test_buffer_shuffle_keeps_every_row():
    mslab.set_seed(3)
    got = rows(ten().shuffle(4))
    assert sorted(got) == list(range(10)) and got != list(range(10))
    with pytest.raises(ValueError, match="buffer_size"):
        ten().shuffle(1)


def test_iterator_epochs_and_continuing_after_break():
    it = ten().batch(4).create_dict_iterator(num_epochs=-1, output_numpy=True)
    b = next(it)
    assert b["x"].tolist() == [0, 1, 2, 3]
    assert [b["x"].tolist()[0] for b in it] == [4, 8]  # the rest of the first epoch
    assert [b["x"].tolist()[0] for b in it] == [0, 4, 8]  # the next epoch
    it = ten().create_tuple_iterator(num_epochs=1)
    assert len(list(it)) == 10 and list(it) == []


def test_samplers():
    d = ds.GeneratorDataset(list(range(10)), ["x"], sampler=ds.SequentialSampler(start_index=7))
    assert rows(d) == [7, 8, 9] and d.get_dataset_size() == 3
    assert rows(ds.GeneratorDataset(list(range(10)), ["x"], sampler=[5, 1, 1])) == [5, 1, 1]
    mslab.set_seed(0)
    got = rows(ds.GeneratorDataset(list(range(10)), ["x"], sampler=ds.RandomSampler(num_samples=4)))
    assert len(got) == 4 and len(set(got)) == 4
    with pytest.raises(ValueError, match="not both"):
        ds.GeneratorDataset(list(range(10)), ["x"], shuffle=False, sampler=[1, 2])


def test_source_with_wrong_column_count_names_op_and_row():
    data = [(np.zeros(2), np.zeros(1))] * 3 + [(np.zeros(2),)]
    with pytest.raises(ValueError, match=r"GeneratorDataset: row 3 \(source index 3\) has 1 column\(s\), "
                                         r"but column_names has 2"):
        rows(ds.GeneratorDataset(data, ["data", "label"], shuffle=False))

    def gen():
        yield 1, 2
        yield (3,)
    with pytest.raises(ValueError, match="GeneratorDataset: row 1 has 1 column"):
        rows(ds.GeneratorDataset(gen, ["a", "b"]))


def test_column_types_and_row_conversion():
    d = ds.GeneratorDataset([(1.5, [1, 2]), (2.5, [3, 4])], ["a", "b"], column_types=[mstype.float32, np.int32],
                            shuffle=False)
    r = next(d.create_tuple_iterator(output_numpy=True))
    assert r[0].dtype == np.float32 and r[1].dtype == np.int32 and r[1].tolist() == [1, 2]
    one = ds.GeneratorDataset(np.arange(12).reshape(4, 3), ["v"], shuffle=False)
    assert rows(one)[1] == [3, 4, 5]
    t = ds.GeneratorDataset([(Tensor(np.ones(2, np.float32)),)], ["t"])
    assert next(t.create_tuple_iterator(output_numpy=True))[0].dtype == np.float32


def test_numpy_slices_inputs():
    x, y = np.arange(12.0).reshape(6, 2), np.arange(6)
    d = ds.NumpySlicesDataset((x, y), shuffle=False)
    assert d.get_col_names() == ["column_0", "column_1"] and d.get_dataset_size() == 6
    assert rows(d)[2] == [4.0, 5.0]
    d = ds.NumpySlicesDataset([x, y], column_names=["x", "y"], shuffle=False)
    assert d.get_col_names() == ["x", "y"] and rows(d, 1) == list(range(6))
    d = ds.NumpySlicesDataset([1, 2, 3], column_names=["col"], shuffle=False)
    assert rows(d) == [1, 2, 3] and d.get_col_names() == ["col"]
    assert ds.NumpySlicesDataset(x, shuffle=False).get_col_names() == ["column_0"]
    with pytest.raises(ValueError, match="different lengths"):
        ds.NumpySlicesDataset({"a": np.zeros(3), "b": np.zeros(4)})


# ---- map and batch -----------------------------------------------------------------------------------

def test_map_one_op_and_a_list():
    d = ten().map(operations=lambda x: x * 2, input_columns="x")
    assert rows(d.take(3)) == [0, 2, 4]
    d = ten().map(operations=[lambda x: x + 1, lambda x: x * 10], input_columns=["x"])
    assert rows(d.take(3)) == [10, 20, 30]
    assert rows(ten().map(lambda x: -x).take(2)) == [0, -1]  # no input_columns: the first column
    assert rows(ten().map(TypeCast(mstype.int32), "y").take(2), 1) == [0, 10]


def test_map_input_and_output_columns():
    d = ten().map(lambda x, y: (x + y, x - y), input_columns=["x", "y"], output_columns=["s", "d"])
    assert d.get_col_names() == ["s", "d"]
    r = next(d.skip(2).create_dict_iterator(output_numpy=True))
    assert r["s"] == 22 and r["d"] == -18
    d = ten().map(lambda y: (y, y * 2), input_columns="y", output_columns=["y", "y2"])
    assert d.get_col_names() == ["y", "y2", "x"] and rows(d.take(2), 1) == [0, 20]  # MindSpore 2.10: y, y2, x
    d = ten().map(lambda y: (y, y), input_columns="y", output_columns=["a", "b"], column_order=["b", "x"])
    assert d.get_col_names() == ["b", "x"] and rows(d.take(2), 1) == [0, 1]


def test_map_errors_name_op_column_and_row():
    def bad(x):
        if x > 2:
            raise ValueError("too big")
        return x
    with pytest.raises(RuntimeError, match=r"map: operation bad failed on column\(s\) \['x'\] of row 3: .*too big"):
        rows(ten().map(bad, "x"))
    with pytest.raises(ValueError, match=r"map: the operations return 2 value\(s\) for row 0, but output_columns"):
        rows(ten().map(lambda x: (x, x), "x"))
    with pytest.raises(ValueError, match="input_columns"):
        ten().map(abs, "nope")


def test_batch_of_ragged_rows_is_an_error_naming_the_column():
    data = [(np.zeros(2), 0), (np.zeros(2), 1), (np.zeros(3), 2)]
    d = ds.GeneratorDataset(data, ["data", "label"], shuffle=False).batch(3)
    with pytest.raises(ValueError, match=r"batch: column 'data' has rows of different shapes in one batch: "
                                         r"\(2,\), \(2,\), \(3,\)"):
        rows(d)


# ---- iterator output types ---------------------------------------------------------------------------

def test_iterators_give_tensors_or_numpy():
    d = ten().batch(5)
    t = next(d.create_tuple_iterator())
    assert isinstance(t, list) and all(isinstance(v, Tensor) for v in t)
    assert t[0].dtype == mstype.float32 and t[1].dtype == mstype.int64
    n = next(d.create_tuple_iterator(output_numpy=True))
    assert all(isinstance(v, np.ndarray) for v in n)
    m = next(d.create_dict_iterator())
    assert list(m) == ["x", "y"] and isinstance(m["x"], Tensor)
    assert isinstance(next(d.create_dict_iterator(output_numpy=True))["y"], np.ndarray)
    first = next(iter(d))
    assert isinstance(first, list) and isinstance(first[0], Tensor) and first[0].shape == (5,)
    c = next(d.create_tuple_iterator(columns=["y"], output_numpy=True))
    assert len(c) == 1 and c[0].tolist() == [0, 10, 20, 30, 40]
    assert d.output_shapes() == [[5], [5]] and d.output_types() == [np.float32, np.int64]


# ---- MnistDataset ------------------------------------------------------------------------------------

def test_shipped_digits():
    path = ds.digits_path()
    sizes = {u: ds.MnistDataset(path, usage=u).get_dataset_size() for u in ("train", "test", "all")}
    assert sizes == {"train": 1497, "test": 300, "all": 1797}
    d = ds.MnistDataset(path, usage="test", shuffle=False)
    assert d.get_col_names() == ["image", "label"]
    imgs, labels = zip(*d.create_tuple_iterator(output_numpy=True))
    imgs, labels = np.stack(imgs), np.array(labels)
    assert imgs.shape == (300, 8, 8, 1) and imgs.dtype == np.uint8 and imgs.max() == 255
    assert labels.dtype == np.uint32 and sorted(set(labels.tolist())) == list(range(10))
    assert np.bincount(labels).min() >= 20
    assert ds.MnistDataset(path).get_dataset_size() == 1797


def test_mnist_from_idx_files_written_here(tmp_path):
    images = np.arange(5 * 3 * 4, dtype=np.uint8).reshape(5, 3, 4)
    labels = np.array([4, 0, 9, 1, 1], np.uint8)
    write_idx(tmp_path / "train-images-idx3-ubyte", images)
    with gzip.open(tmp_path / "train-labels-idx1-ubyte.gz", "wb") as f:
        f.write(bytes([0, 0, 8, 1, 0, 0, 0, 5]) + labels.tobytes())
    d = ds.MnistDataset(str(tmp_path), usage="train", shuffle=False)
    got = list(d.create_dict_iterator(output_numpy=True))
    assert [int(r["label"]) for r in got] == [4, 0, 9, 1, 1]
    assert got[2]["image"].shape == (3, 4, 1) and (got[2]["image"][..., 0] == images[2]).all()
    assert ds.MnistDataset(tmp_path, num_samples=2).get_dataset_size() == 2  # 'all': whatever is there
    with pytest.raises(ValueError, match="t10k-images-idx3-ubyte"):
        ds.MnistDataset(str(tmp_path), usage="test")
    with pytest.raises(ValueError, match="usage"):
        ds.MnistDataset(str(tmp_path), usage="valid")


def test_idx_round_trip_and_bad_files(tmp_path):
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4) - 5
    write_idx(tmp_path / "a.idx", a)
    back = read_idx(tmp_path / "a.idx")
    assert back.dtype == np.int32 and (back == a).all()
    (tmp_path / "bad").write_bytes(b"\x00\x00\x08\x01\x00\x00\x00\x09abc")
    with pytest.raises(ValueError, match="header says shape"):
        read_idx(tmp_path / "bad")
    (tmp_path / "png").write_bytes(b"\x89PNG....")
    with pytest.raises(ValueError, match="not an IDX file"):
        read_idx(tmp_path / "png")


def test_seed_train_md_create_dataset_on_digits():
    """Seed 000 (train.md) create_dataset, verbatim apart from the data path."""
    import mslab.dataset.transforms.c_transforms as CT
    import mslab.dataset.vision.c_transforms as CV
    from mslab.dataset.vision import Inter as SeedInter

    def create_dataset(data_path, batch_size=32, repeat_size=1, num_parallel_workers=1):
        mnist_ds = ds.MnistDataset(data_path, usage="train")
        resize_height, resize_width = 32, 32
        rescale = 1.0 / 255.0
        shift = 0.0
        rescale_nml = 1 / 0.3081
        shift_nml = -1 * 0.1307 / 0.3081
        resize_op = CV.Resize((resize_height, resize_width), interpolation=SeedInter.LINEAR)
        rescale_nml_op = CV.Rescale(rescale_nml, shift_nml)
        rescale_op = CV.Rescale(rescale, shift)
        hwc2chw_op = CV.HWC2CHW()
        type_cast_op = CT.TypeCast(mstype.int32)
        mnist_ds = mnist_ds.map(input_columns="label", operations=type_cast_op,
                                num_parallel_workers=num_parallel_workers)
        mnist_ds = mnist_ds.map(input_columns="image", operations=resize_op, num_parallel_workers=num_parallel_workers)
        mnist_ds = mnist_ds.map(input_columns="image", operations=rescale_op, num_parallel_workers=num_parallel_workers)
        mnist_ds = mnist_ds.map(input_columns="image", operations=rescale_nml_op,
                                num_parallel_workers=num_parallel_workers)
        mnist_ds = mnist_ds.map(input_columns="image", operations=hwc2chw_op, num_parallel_workers=num_parallel_workers)
        buffer_size = 10000
        mnist_ds = mnist_ds.shuffle(buffer_size=buffer_size)
        mnist_ds = mnist_ds.batch(batch_size, drop_remainder=True)
        mnist_ds = mnist_ds.repeat(repeat_size)
        return mnist_ds

    mslab.set_seed(1)
    d = create_dataset(ds.digits_path())
    assert d.get_dataset_size() == 1497 // 32 and d.get_col_names() == ["image", "label"]
    batches = list(d.create_dict_iterator(num_epochs=1))
    assert len(batches) == 46
    image, label = batches[0]["image"], batches[0]["label"]
    assert image.shape == (32, 1, 32, 32) and image.dtype == mstype.float32
    assert label.shape == (32,) and label.dtype == mstype.int32
    lo, hi = (0 - 0.1307) / 0.3081, (1 - 0.1307) / 0.3081
    x = image.asnumpy()
    assert x.min() >= lo - 1e-5 and x.max() <= hi + 1e-5 and np.isclose(x.min(), lo)


# ---- transforms vs numpy -----------------------------------------------------------------------------

def test_resize_bilinear_float_by_hand():
    img = np.array([[0, 10], [20, 30]], np.float32)[..., None]
    out = Resize((4, 4))(img)
    # half-pixel centres: output column d samples x = (d + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, 1.25
    # (clamped to the edge pixels), so a row [a, b] becomes [a, .75a+.25b, .25a+.75b, b].
    want = np.array([[0, 2.5, 7.5, 10], [5, 7.5, 12.5, 15], [15, 17.5, 22.5, 25], [20, 22.5, 27.5, 30]])
    assert out.shape == (4, 4, 1) and out.dtype == np.float32
    np.testing.assert_allclose(out[..., 0], want, rtol=0, atol=1e-5)
    np.testing.assert_allclose(Resize((1, 1))(img)[..., 0], [[15]], atol=1e-5)  # the mean of the 2x2
    same = np.random.default_rng(0).random((5, 7, 3)).astype(np.float32)
    np.testing.assert_allclose(Resize((5, 7))(same), same, atol=1e-6)


# Reference values from OpenCV 5.0 cv2.resize (which MindSpore's Resize uses), uint8 fixed-point.
_U8 = np.array([[0, 37, 255, 100], [12, 200, 3, 91], [250, 7, 64, 128]], np.uint8)
_U8_LINEAR_5x7 = [[0, 13, 34, 146, 244, 155, 100], [5, 39, 95, 128, 150, 117, 96], [12, 79, 187, 102, 9, 60, 91],
                  [155, 129, 89, 62, 45, 87, 113], [250, 163, 24, 35, 68, 105, 128]]
_U8_LINEAR_2x2 = [[40, 145], [123, 84]]
_U8_NEAREST_5x7 = [[0, 0, 37, 37, 255, 255, 100], [0, 0, 37, 37, 255, 255, 100], [12, 12, 200, 200, 3, 3, 91],
                   [12, 12, 200, 200, 3, 3, 91], [250, 250, 7, 7, 64, 64, 128]]


def test_resize_uint8_matches_opencv():
    assert Resize((5, 7))(_U8).tolist() == _U8_LINEAR_5x7
    assert Resize((2, 2), Inter.BILINEAR)(_U8).tolist() == _U8_LINEAR_2x2
    assert Resize((5, 7), interpolation=Inter.NEAREST)(_U8).tolist() == _U8_NEAREST_5x7
    out = Resize((5, 7))(np.stack([_U8, _U8], -1))
    assert out.dtype == np.uint8 and out.shape == (5, 7, 2) and out[..., 1].tolist() == _U8_LINEAR_5x7


def test_resize_int_size_keeps_aspect_ratio():
    assert Resize(4)(np.zeros((8, 16, 1), np.uint8)).shape == (4, 8, 1)
    assert Resize(4)(np.zeros((16, 8), np.float32)).shape == (8, 4)
    with pytest.raises(NotImplementedError, match="CUBIC"):
        Resize((2, 2), Inter.CUBIC)(np.zeros((4, 4, 1), np.uint8))


def test_rescale_normalize_hwc2chw():
    img = np.arange(12, dtype=np.uint8).reshape(2, 2, 3)
    out = Rescale(1 / 255, -0.5)(img)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, img / 255 - 0.5, rtol=1e-6)
    mean, std = [1.0, 2.0, 3.0], [2.0, 4.0, 8.0]
    np.testing.assert_allclose(Normalize(mean, std)(img), (img - np.array(mean)) / np.array(std), rtol=1e-6)
    chw = HWC2CHW()(img)
    assert chw.shape == (3, 2, 2) and (chw[1] == img[..., 1]).all()
    np.testing.assert_allclose(Normalize(mean, std, is_hwc=False)(chw), HWC2CHW()(Normalize(mean, std)(img)))
    with pytest.raises(ValueError, match="3 channels"):
        Normalize([0.5, 0.5], [1, 1])(img)
    assert HWC2CHW()(np.zeros((4, 5))).shape == (4, 5)


def test_typecast_onehot_compose():
    assert TypeCast(mstype.int32)(np.array([1, 2], np.uint32)).dtype == np.int32
    assert TypeCast(np.float16)(np.array(3)).dtype == np.float16
    assert OneHot(4)(np.array(2, np.int32)).tolist() == [0, 0, 1, 0]
    assert OneHot(3)(np.array([0, 2])).tolist() == [[1, 0, 0], [0, 0, 1]]
    np.testing.assert_allclose(OneHot(4, smoothing_rate=0.2)(np.array(1)), [0.05, 0.85, 0.05, 0.05], rtol=1e-6)
    with pytest.raises(ValueError, match="labels must be in"):
        OneHot(3)(np.array(3))
    c = ds.transforms.Compose([Rescale(2.0, 1.0), TypeCast(mstype.int32)])
    assert c(np.array([1, 2], np.uint8)).tolist() == [3, 5]


def test_1x_import_paths_are_the_same_classes():
    import mslab.dataset.transforms.c_transforms as CT
    import mslab.dataset.transforms.py_transforms as PT
    import mslab.dataset.vision.c_transforms as CV
    import mslab.dataset.vision.py_transforms as PV
    from mslab.dataset.vision.utils import Inter as UInter
    assert CV.Resize is vision.Resize and CV.HWC2CHW is vision.HWC2CHW and CV.Rescale is vision.Rescale
    assert PV.Resize is vision.Resize and PV.ToTensor is vision.ToTensor
    assert CT.TypeCast is TypeCast and PT.OneHot is OneHot and UInter is Inter is vision.Inter
    assert Inter.LINEAR == Inter.BILINEAR
    chw = PV.ToTensor()(np.full((2, 2, 3), 255, np.uint8))
    assert chw.shape == (3, 2, 2) and chw.dtype == np.float32 and (chw == 1).all()
    np.testing.assert_allclose(PV.Normalize([0.5] * 3, [0.5] * 3)(chw), np.ones((3, 2, 2)))
