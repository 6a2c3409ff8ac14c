"""Crop, SlicePatches, CutOut, RandomResize, RandomSelectSubpolicy, Duplicate/Fill/PadEnd, ToNumber,
TruncateSequencePair, Ngram, the recorded config switches and DatasetCache, against MindSpore 2.10
(observed on MindSpore 2.10 CPU; see docs/mindspore_observed/dsmore.md)."""
import os

import numpy as np
import pytest
from PIL import Image

import mslab
import mslab.dataset as ds
import mslab.dataset.transforms as T
import mslab.dataset.vision as V
from mslab.dataset import text

IMG = (np.arange(5 * 6 * 3) * 7 % 256).astype(np.uint8).reshape(5, 6, 3)


def rows(dataset):
    return list(dataset.create_tuple_iterator(output_numpy=True, num_epochs=1))


def test_crop_and_slice_patches():
    assert V.Crop((1, 2), (2, 3))(IMG)[..., 0].tolist() == [[168, 189, 210], [38, 59, 80]]  # observed
    assert V.Crop((1, 2), 2)(IMG)[..., 0].tolist() == [[168, 189], [38, 59]]
    with pytest.raises(RuntimeError, match="Crop: Crop height dimension: 7 exceeds image height: 5"):
        V.Crop((4, 4), 3)(IMG)
    patches = V.SlicePatches(2, 2)(IMG)  # observed: 3x3 patches, padded with zeros
    assert [p[..., 0].tolist() for p in patches] == [
        [[0, 21, 42], [126, 147, 168], [252, 17, 38]], [[63, 84, 105], [189, 210, 231], [59, 80, 101]],
        [[122, 143, 164], [248, 13, 34], [0, 0, 0]], [[185, 206, 227], [55, 76, 97], [0, 0, 0]]]
    drop = V.SlicePatches(2, 4, V.SliceMode.DROP)(IMG)
    assert [p[..., 0].tolist() for p in drop] == [[[0], [126]], [[21], [147]], [[42], [168]], [[63], [189]],
                                                  [[252], [122]], [[17], [143]], [[38], [164]], [[59], [185]]]
    filled = V.SlicePatches(2, 4, fill_value=9)(IMG)
    assert filled[3][..., 0].tolist() == [[9, 9]] * 3 and filled[4][..., 0].tolist() == [[122, 143], [248, 13], [9, 9]]
    assert [p.shape for p in V.SlicePatches(3, 1)(IMG[..., 0])] == [(2, 6)] * 3
    assert V.SlicePatches()(IMG).shape == (5, 6, 3)  # one patch: the image itself


def test_cutout_and_random_resize():
    mslab.set_seed(0)
    out = V.CutOut(2, 3)(IMG)
    zeroed = (out == 0).all(-1) & (IMG != 0).any(-1)
    assert out.dtype == np.uint8 and out.shape == IMG.shape and 4 <= zeroed.sum() <= 12
    assert V.CutOut(2, 1, False)(IMG.transpose(2, 0, 1)).shape == (3, 5, 6)  # observed shapes
    assert V.RandomResize(3)(IMG).shape == (3, 3, 3) and V.RandomResize((3, 4))(IMG).shape == (3, 4, 3)


def test_random_select_subpolicy():
    both = [[(V.Invert(), 1.0), (V.RandomHorizontalFlip(1.0), 1.0)]]
    assert V.RandomSelectSubpolicy(both)(IMG)[..., 0].tolist() == (255 - IMG)[:, ::-1, 0].tolist()  # observed
    assert V.RandomSelectSubpolicy([[(V.Invert(), 0.0)]])(IMG).tolist() == IMG.tolist()
    with pytest.raises(ValueError, match="policy can not be empty."):
        V.RandomSelectSubpolicy([])
    with pytest.raises(ValueError, match=r"Value policy\[0\]\[0\] needs to be a 2-tuple."):
        V.RandomSelectSubpolicy([[V.Invert()]])
    with pytest.raises(ValueError, match=r"Input prob of \(op, prob\) policy\[0\]\[0\] is not within"):
        V.RandomSelectSubpolicy([[(V.Invert(), 2)]])


def test_duplicate_fill_pad_end():
    a, b = T.Duplicate()(np.array([1, 2]))
    assert a.tolist() == b.tolist() == [1, 2]
    d = ds.NumpySlicesDataset({"x": np.array([[1, 2]])}, shuffle=False).map(
        T.Duplicate(), input_columns=["x"], output_columns=["x", "y"])
    assert d.get_col_names() == ["x", "y"] and [[c.tolist() for c in r] for r in rows(d)] == [[[1, 2], [1, 2]]]
    assert T.Fill(7)(np.array([1, 2], np.int32)).tolist() == [7, 7]  # observed, dtypes kept
    assert T.Fill(2.5)(np.array([1, 2], np.int32)).dtype == np.int32 and T.Fill(2.5)(np.array([1], np.int32)) == 2
    assert T.Fill("a")(np.array(["x", "yy"])).tolist() == ["a", "a"]
    assert T.PadEnd([4])(np.array([1, 2], np.int32)).tolist() == [1, 2, 0, 0]
    assert T.PadEnd([4], 9)(np.array([1, 2], np.int32)).tolist() == [1, 2, 9, 9]
    assert T.PadEnd([3, 3], -1)(np.array([[1, 2]], np.int32)).tolist() == [[1, 2, -1], [-1, -1, -1], [-1, -1, -1]]
    assert T.PadEnd([1])(np.array([1, 2, 3])).tolist() == [1]
    assert T.PadEnd([3], "<pad>")(np.array(["a"])).tolist() == ["a", "<pad>", "<pad>"]
    assert T.PadEnd([3])(np.array(["a"])).tolist() == ["a", "", ""]
    with pytest.raises(RuntimeError, match="PadEnd: invalid pad shape, as rank of input is: 1, and rank of pad"):
        T.PadEnd([3, 3])(np.array([1]))


def test_to_number_truncate_ngram():
    assert text.ToNumber(mslab.int32)(np.array(["1", "22"])).tolist() == [1, 22]  # observed
    out = text.ToNumber(mslab.float32)(np.array(["1.5", "-2"]))
    assert out.dtype == np.float32 and out.tolist() == [1.5, -2.0]
    with pytest.raises(RuntimeError, match='ToNumber: it is invalid to convert "x" to a number.'):
        text.ToNumber(mslab.int32)(np.array(["x"]))
    with pytest.raises(RuntimeError, match=r"string input 300 will be out of bounds if cast to int8. The valid range "
                                           r"is: \[-128, 127\]."):
        text.ToNumber(mslab.int8)(np.array(["300"]))
    a, b = text.TruncateSequencePair(4)(np.array([1, 2, 3]), np.array([4, 5, 6, 7]))
    assert a.tolist() == [1, 2] and b.tolist() == [4, 5]
    a, b = text.TruncateSequencePair(5)(np.array([1, 2]), np.array([4, 5, 6, 7]))
    assert a.tolist() == [1, 2] and b.tolist() == [4, 5, 6]
    a, b = text.TruncateSequencePair(3)(np.array(["a", "b"]), np.array(["c", "d"]))
    assert a.tolist() == ["a", "b"] and b.tolist() == ["c"]
    assert text.Ngram(2)(np.array(["a", "b", "c"])).tolist() == ["a b", "b c"]
    assert text.Ngram([2, 3], separator="-")(np.array(["a", "b", "c"])).tolist() == ["a-b", "b-c", "a-b-c"]
    assert text.Ngram(3, left_pad=("_", 1), right_pad=("$", 1))(np.array(["a", "b"])).tolist() == ["_ a b", "a b $"]
    assert text.Ngram(4)(np.array(["a", "b"])).tolist() == [""]


def test_recorded_config_switches():
    c = ds.config
    # observed on MindSpore 2.10 CPU: these defaults, and these errors
    assert (c.get_debug_mode(), c.get_enable_autotune(), c.get_autotune_interval(), c.get_auto_offload()) == (
        False, False, 0, False)
    c.set_enable_autotune(True)
    c.set_autotune_interval(5)
    assert c.get_enable_autotune() is True and c.get_autotune_interval() == 5
    c.set_enable_autotune(False)
    c.set_autotune_interval(0)
    with pytest.raises(ValueError, match=r"Number of parallel workers given is not within the required range"):
        c.set_num_parallel_workers(0)
    with pytest.raises(TypeError, match="num isn't of type int."):
        c.set_num_parallel_workers(True)
    with pytest.raises(RuntimeError, match="num_parallel_workers exceeds the boundary between 1 and"):
        c.set_num_parallel_workers((os.cpu_count() or 1) + 1)
    before = c.get_num_parallel_workers()
    c.set_num_parallel_workers(1)
    assert c.get_num_parallel_workers() == 1
    c.set_num_parallel_workers(before)
    with pytest.raises(ValueError, match=r"Interval given is not within the required range \[0, INT32_MAX"):
        c.set_autotune_interval(-1)
    with pytest.raises(TypeError, match="interval must be of type int."):
        c.set_autotune_interval(1.5)
    for setter, message in ((c.set_enable_autotune, "enable must be of type bool."),
                            (c.set_debug_mode, "debug_mode_flag isn't of type boolean."),
                            (c.set_auto_offload, "offload must be a bool dtype")):
        with pytest.raises(TypeError, match=message):
            setter(1)


def test_dataset_cache_fails_when_rows_are_read(tmp_path):
    os.makedirs(tmp_path / "a")
    Image.fromarray(np.zeros((2, 2, 3), np.uint8)).save(tmp_path / "a" / "0.png")
    cache = ds.DatasetCache(session_id=1, size=0)
    assert (cache.session_id, cache.size, cache.spilling, cache.port) == (1, 0, False, None)  # observed
    data = ds.ImageFolderDataset(str(tmp_path), cache=cache)  # observed: building works, reading fails
    with pytest.raises(RuntimeError, match="Cache server with port 50052 is unreachable"):
        rows(data)
    with pytest.raises(TypeError, match="Argument session_id with value x is not of type"):
        ds.DatasetCache(session_id="x")
    with pytest.raises(ValueError, match=r"Input session_id is not within the required interval of \[1, 4294967295\]"):
        ds.DatasetCache(session_id=-1)
    with pytest.raises(ValueError, match="Input size must be greater than 0."):
        ds.DatasetCache(session_id=1, size=-1)
