"""text.Vocab, text.Lookup, the whitespace / character tokenizers, RandomApply, RandomChoice and the
TensorOperation / PyTensorOperation base classes, against MindSpore 2.10 (observed on MindSpore 2.10 CPU)."""
import numpy as np
import pytest

import mslab
import mslab.dataset as ds
import mslab.dataset.transforms as T
import mslab.dataset.vision as V
from mslab.dataset import text
from mslab.dataset.transforms.transforms import PyTensorOperation, TensorOperation

IMG = (np.arange(5 * 6 * 3) * 7 % 256).astype(np.uint8).reshape(5, 6, 3)


def rows(dataset):
    return list(dataset.create_tuple_iterator(output_numpy=True, num_epochs=1))


def test_vocab_from_list_and_dict():
    v = text.Vocab.from_list(["a", "b", "c"], special_tokens=["<pad>", "<unk>"], special_first=True)
    # observed on MindSpore 2.10 CPU
    assert v.vocab() == {"<pad>": 0, "<unk>": 1, "a": 2, "b": 3, "c": 4}
    assert v.tokens_to_ids(["a", "zz", "<unk>"]) == [2, -1, 1] and v.tokens_to_ids("b") == 3
    assert v.ids_to_tokens([0, 4, 9]) == ["<pad>", "c", ""] and v.ids_to_tokens(2) == "a"
    assert v.tokens_to_ids(np.array(["a", "b"])) == [2, 3] and v.ids_to_tokens(np.array([0, 1])) == ["<pad>", "<unk>"]
    assert text.Vocab.from_list(["a", "b"], special_tokens=["<unk>"], special_first=False).vocab() == {
        "a": 0, "b": 1, "<unk>": 2}
    assert text.Vocab.from_list(["a", "b"]).vocab() == {"a": 0, "b": 1}
    d = {"home": 3, "behind": 2, "the": 4, "world": 5, "<unk>": 6}
    assert text.Vocab.from_dict(d).vocab() == d


def test_vocab_errors_as_mindspore():
    with pytest.raises(ValueError, match="word_list contains duplicate word: a."):
        text.Vocab.from_list(["a", "a"])
    with pytest.raises(ValueError, match="special_tokens and word_list contain duplicate word :{'a'}."):
        text.Vocab.from_list(["a"], special_tokens=["a"])
    with pytest.raises(TypeError, match="Argument word_list with value abc is not of type"):
        text.Vocab.from_list("abc")
    with pytest.raises(ValueError, match=r"Input word_id is not within the required interval of \[0, 2147483647\]."):
        text.Vocab.from_dict({"a": -1})
    with pytest.raises(TypeError, match="Argument word_id with value 1 is not of type"):
        text.Vocab.from_dict({"a": "1"})


def test_lookup():
    v = text.Vocab.from_list(["a", "b", "c"], special_tokens=["<pad>", "<unk>"])
    lk = text.Lookup(v, unknown_token="<unk>")
    out = lk(np.array(["a", "c", "q"]))
    assert out.tolist() == [2, 4, 1] and out.dtype == np.int32  # observed
    assert lk("b").tolist() == 3 and lk("b").shape == ()
    assert lk(np.array([["a", "b"], ["c", "q"]])).tolist() == [[2, 3], [4, 1]]
    assert text.Lookup(v, "<unk>", data_type=mslab.float32)(np.array(["a"])).dtype == np.float32
    got = rows(ds.NumpySlicesDataset({"t": np.array(["a", "b", "zz"])}, shuffle=False).map(lk))
    assert [(int(r[0]), r[0].dtype) for r in got] == [(2, np.int32), (3, np.int32), (1, np.int32)]
    with pytest.raises(RuntimeError, match='Lookup: invalid data, token: "q" doesn\'t exist in vocab and no unknown'):
        text.Lookup(v)(np.array(["q"]))
    with pytest.raises(RuntimeError, match='Lookup: "<nope>" doesn\'t exist in vocab.'):
        text.Lookup(v, unknown_token="<nope>")(np.array(["a"]))
    with pytest.raises(RuntimeError, match="Lookup: input is not string datatype."):
        text.Lookup(v)(np.array([1]))


def test_tokenizers():
    ws = text.WhitespaceTokenizer()
    assert ws("Welcome to  Beijing!\tHi\nthere").tolist() == ["Welcome", "to", "Beijing!", "Hi", "there"]
    assert ws("   ").tolist() == [""]  # observed: no token gives [""]
    assert ws("北京 欢迎\u3000你 \u00a0x").tolist() == ["北京", "欢迎", "你", "x"]
    tokens, start, end = text.WhitespaceTokenizer(with_offsets=True)("ab  cd")
    assert tokens.tolist() == ["ab", "cd"] and start.tolist() == [0, 4] and end.tolist() == [2, 6]
    assert start.dtype == np.uint32
    assert text.UnicodeCharTokenizer()("北京 ab").tolist() == ["北", "京", " ", "a", "b"]
    tokens, start, end = text.UnicodeCharTokenizer(True)("北a")  # observed: UTF-8 byte offsets
    assert tokens.tolist() == ["北", "a"] and start.tolist() == [0, 3] and end.tolist() == [3, 4]
    assert text.UnicodeCharTokenizer()("").tolist() == [""]
    with pytest.raises(RuntimeError, match="WhitespaceTokenizerOp: the input shape should be scalar"):
        ws(np.array(["a b", "c"]))
    v = text.Vocab.from_list(["a", "b", "c"], special_tokens=["<pad>", "<unk>"])
    data = ds.NumpySlicesDataset({"t": np.array(["a b c", "d e"])}, shuffle=False).map(ws).map(text.Lookup(v, "<unk>"))
    assert [r[0].tolist() for r in rows(data)] == [[2, 3, 4], [1, 1]]  # observed
    data = ds.NumpySlicesDataset({"t": np.array(["a b"])}, shuffle=False).map(
        text.WhitespaceTokenizer(True), input_columns=["t"], output_columns=["token", "start", "end"])
    assert [[a.tolist() for a in r] for r in rows(data)] == [[["a", "b"], [0, 2], [1, 3]]]


def test_to_str():
    assert text.to_str(np.array([b"ab", "北".encode()])).tolist() == ["ab", "北"]  # observed
    with pytest.raises(TypeError, match="input should be a NumPy array."):
        text.to_str([b"ab"])
    with pytest.raises(AttributeError, match="decodes arrays of bytes"):  # MindSpore: AttributeError too
        text.to_str(np.array(["ab"]))


def test_random_apply_and_random_choice():
    inverted = (255 - IMG)[:, ::-1, 0].tolist()
    assert T.RandomApply([V.Invert(), V.RandomHorizontalFlip(1.0)], prob=1.0)(IMG)[..., 0].tolist() == inverted
    assert T.RandomApply([V.Invert()], prob=0.0)(IMG).tolist() == IMG.tolist()
    assert T.RandomChoice([V.Invert()])(IMG)[..., 0].tolist() == (255 - IMG)[..., 0].tolist()
    assert T.RandomChoice([lambda x: x + 1])(np.array([1])).tolist() == [2]
    with pytest.raises(ValueError, match="transforms list can not be empty."):
        T.RandomChoice([])
    with pytest.raises(ValueError, match=r"Input prob is not within the required interval of \[0, 1\]."):
        T.RandomApply([V.Invert()], prob=2)
    data = ds.NumpySlicesDataset({"x": np.stack([IMG] * 2)}, shuffle=False)
    assert [r[0].shape for r in rows(data.map(T.RandomChoice([V.Invert(), V.RandomVerticalFlip(1.0)])))] == [
        (5, 6, 3), (5, 6, 3)]
    mslab.set_seed(0)
    picks = {T.RandomChoice([lambda x: 1, lambda x: 2])(0) for _ in range(40)}
    assert picks == {1, 2}


def test_tensor_operation_base_classes():
    # observed on MindSpore 2.10: the transforms are both; subclasses give __call__ or _execute_py
    assert issubclass(V.Invert, TensorOperation) and issubclass(V.Invert, PyTensorOperation)
    assert issubclass(V.Grayscale, PyTensorOperation) and issubclass(T.Compose, TensorOperation)

    class AddOne(PyTensorOperation):
        def __call__(self, x):
            return x + 1

    class Times2(PyTensorOperation):
        def _execute_py(self, x):
            return x * 2

    assert AddOne()(np.array([1, 2])).tolist() == [2, 3] and Times2()(np.array([1, 2])).tolist() == [2, 4]
    assert [int(r[0]) for r in rows(ds.NumpySlicesDataset({"x": np.array([1, 2])}, shuffle=False).map(AddOne()))] == [
        2, 3]
    with pytest.raises(AttributeError, match="_execute_py"):
        PyTensorOperation()(np.array([1]))
    with pytest.raises(NotImplementedError, match="TensorOperation has to implement parse"):
        TensorOperation()(np.array([1]))


def test_vocab_from_file(tmp_path):
    path = tmp_path / "v.txt"
    path.write_text("home,1\nbehind\nthe world\n\nhome\n")
    # observed on MindSpore 2.10 CPU: one word a line, in file order, an empty line giving ""
    assert text.Vocab.from_file(str(path)).vocab() == {"home,1": 0, "behind": 1, "the world": 2, "": 3, "home": 4}
    assert text.Vocab.from_file(str(path), ",", vocab_size=2).vocab() == {"home": 0, "behind": 1}
    with pytest.raises(RuntimeError, match="from_file: word_list contains duplicate word:home"):
        text.Vocab.from_file(str(path), ",", special_tokens=["<unk>"])
    with pytest.raises(RuntimeError, match="Get real path failed, path="):
        text.Vocab.from_file(str(tmp_path / "nope.txt"))
