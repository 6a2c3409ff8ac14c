"""Text processing, as ``mindspore.dataset.text``: a ``Vocab``, ``Lookup`` of tokens to ids, tokenizers, n-grams.

    >>> import numpy as np
    >>> from mslab.dataset import text
    >>> vocab = text.Vocab.from_list(["a", "b"], special_tokens=["<unk>"])
    >>> text.Lookup(vocab, "<unk>")(text.WhitespaceTokenizer()("b a zz"))
    array([2, 1, 0], dtype=int32)

SentencePiece and Jieba tokenizers need libraries mslab does not depend on; asking for them
raises the clear "exists in MindSpore 2.10 but mslab does not implement it yet" error.
"""
from mslab.core import missing_names as _missing_names
from mslab.dataset.text.bert import (
    BasicTokenizer,
    BertTokenizer,
    CaseFold,
    NormalizeForm,
    RegexReplace,
    WordpieceTokenizer,
)
from mslab.dataset.text.transforms import (
    Lookup,
    Ngram,
    ToNumber,
    TruncateSequencePair,
    UnicodeCharTokenizer,
    WhitespaceTokenizer,
)
from mslab.dataset.text.utils import Vocab, to_str

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

__all__ = ["Vocab", "to_str", "Lookup", "WhitespaceTokenizer", "UnicodeCharTokenizer", "ToNumber",
           "TruncateSequencePair", "Ngram", "BasicTokenizer", "BertTokenizer", "WordpieceTokenizer", "CaseFold",
           "RegexReplace", "NormalizeForm"]
