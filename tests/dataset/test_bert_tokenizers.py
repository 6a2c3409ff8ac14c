"""BasicTokenizer, WordpieceTokenizer, BertTokenizer, CaseFold, RegexReplace against MindSpore 2.10
(observed on MindSpore 2.10 CPU; see docs/mindspore_observed/dsmore.md, obs17 and obs18)."""
import numpy as np

from mslab.dataset import text

VOCAB = text.Vocab.from_list(["[UNK]", "[CLS]", "[SEP]", "[unused1]", "want", "##want", "##ed", "wa", "un", "runn",
                              "##ing", ",", "low", "lowest", "我", "喜", "欢", "hello", "!", "é", "cafe", "café"])
S = "UNwant\u00E9d,running 我喜欢 hello!! [CLS] [unused1] café Café\tX"


def test_bert_tokenizer():
    assert text.BertTokenizer(VOCAB)(S).tolist() == ['[UNK]', ',', 'runn', '##ing', '我', '喜', '欢', 'hello', '!', '!',
                                                     '[CLS]', '[unused1]', 'café', '[UNK]', '[UNK]']
    tokens, start, end = text.BertTokenizer(VOCAB, lower_case=True, with_offsets=True)("unwanted running")
    assert tokens.tolist() == ['un', '##want', '##ed', 'runn', '##ing']
    assert start.tolist() == [0, 2, 6, 9, 13] and end.tolist() == [2, 6, 8, 13, 16] and start.dtype == np.uint32
    assert text.BertTokenizer(VOCAB, keep_whitespace=True)("hello  world").tolist() == ['hello', '[UNK]', '[UNK]']
    assert text.BertTokenizer(VOCAB, preserve_unused_token=False)("[CLS] [unused1] hello").tolist() == (
        ['[UNK]'] * 6 + ['hello'])
    assert text.BertTokenizer(VOCAB, max_bytes_per_token=3)("hello want").tolist() == ['[UNK]', '[UNK]']
    assert text.BertTokenizer(VOCAB, unknown_token="")("xyz want").tolist() == ['xyz', 'want']


def test_bert_tokenizer_lower_case_without_mindspores_repeats():
    # MindSpore 2.10 repeats the text around [CLS] here (see the module docstring); the tokens that it gives once
    # are these, observed; mslab gives each once
    assert text.BertTokenizer(VOCAB, lower_case=True)(S).tolist() == [
        'un', '##want', '##ed', ',', 'runn', '##ing', '我', '喜', '欢', 'hello', '!', '!', '[CLS]', '[unused1]', 'cafe',
        'cafe', '[UNK]']
    assert text.BasicTokenizer(lower_case=True)("a b").tolist() == ["a", "b"]  # observed
    assert text.BasicTokenizer(lower_case=True, preserve_unused_token=False)("A [CLS] b").tolist() == [
        "a", "[", "cls", "]", "b"]  # observed


def test_wordpiece_tokenizer():
    words = np.array(["unwanted", "running", "xyz", "lowest"])
    assert text.WordpieceTokenizer(VOCAB)(words).tolist() == ['un', '##want', '##ed', 'runn', '##ing', '[UNK]',
                                                             'lowest']
    tokens, start, end = text.WordpieceTokenizer(VOCAB, with_offsets=True)(np.array(["unwanted", "running"]))
    assert start.tolist() == [0, 2, 6, 0, 4] and end.tolist() == [2, 6, 8, 4, 7]  # observed: within each word
    assert text.WordpieceTokenizer(VOCAB, unknown_token="")(np.array(["xyz"])).tolist() == ['xyz']
    assert text.WordpieceTokenizer(VOCAB)("unwanted").tolist() == ['un', '##want', '##ed']


def test_basic_tokenizer_and_friends():
    assert text.BasicTokenizer()(S).tolist() == ['UNwantéd', ',', 'running', '我', '喜', '欢', 'hello', '!', '!',
                                                 '[CLS]', '[unused1]', 'café', 'Café', 'X']
    assert text.BasicTokenizer()("a\u0000b\u200bc d\u00adf").tolist() == ['a', 'b', 'c', 'd', 'f']
    assert text.BasicTokenizer()("a$b^c`d~e").tolist() == ['a', '$', 'b', '^', 'c', '`', 'd', '~', 'e']
    assert text.BasicTokenizer(keep_whitespace=True)("hello  world\tx").tolist() == ['hello', '  ', 'world', ' ', 'x']
    tokens, start, end = text.BasicTokenizer(with_offsets=True)("北a, b")
    assert tokens.tolist() == ['北', 'a', ',', 'b'] and start.tolist() == [0, 3, 4, 6] and end.tolist() == [3, 4, 5, 7]
    assert text.RegexReplace("\\s+", "_")("a  b\tc").tolist() == "a_b_c"
    assert text.RegexReplace("a", "X", replace_all=False)("banana").tolist() == "bXnana"
    assert text.CaseFold()("ABC Straße").tolist() == "abc strasse"
    assert text.CaseFold()(np.array(["AB", "Straße"])).tolist() == ["ab", "strasse"]
