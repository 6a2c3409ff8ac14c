"""BERT's tokenizers, as ``mindspore.dataset.text``: BasicTokenizer, WordpieceTokenizer, BertTokenizer,
with CaseFold, RegexReplace and NormalizeForm.

BasicTokenizer splits a string at whitespace (control characters count as whitespace), makes each
punctuation mark and each CJK character a token of its own, and with ``lower_case`` folds case and
strips accents (NFD, then no combining marks). With ``preserve_unused_token`` the special tokens
``[CLS]``, ``[SEP]``, ``[UNK]``, ``[PAD]``, ``[MASK]`` and ``[unused<n>]`` stay whole.
WordpieceTokenizer cuts each word into the longest pieces found in a vocabulary, greedily from the left
(``unwanted`` -> ``un ##want ##ed``); a word that cannot be cut, or is longer than ``max_bytes_per_token``
UTF-8 bytes, becomes ``unknown_token`` (or stays as it is when that is ""). BertTokenizer is the two in a
row. These agree with MindSpore 2.10 on CPU (observed), except one quirk mslab does not copy: with
``lower_case=True`` and ``preserve_unused_token=True`` MindSpore repeats text around a special token
(observed: "a [CLS] b" gives a, [CLS], a, [, cls, ], b); mslab gives each token once (a, [CLS], b), as
the documentation describes. With ``keep_whitespace`` each whitespace character becomes a space.
Offsets are UTF-8 byte positions: in the (normalized) string for Basic/BertTokenizer, within each word
for WordpieceTokenizer (observed).
"""
import re
import unicodedata
from enum import IntEnum

import numpy as np

from mslab.dataset.text.transforms import Transform

_SPECIAL = re.compile(r"\[(?:CLS|SEP|UNK|PAD|MASK|unused\d+)\]")
_CJK = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F), (0x2B740, 0x2B81F),
        (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))


class NormalizeForm(IntEnum):
    """Unicode normalization applied before tokenizing (``unicodedata.normalize``)."""

    NONE = 0
    NFC = 1
    NFKC = 2
    NFD = 3
    NFKD = 4


def _kind(c):
    """'space', 'punct', 'cjk' or 'word' for one character, as BERT's basic tokenizer sorts them."""
    cat = unicodedata.category(c)
    if c.isspace() or cat in ("Cc", "Cf", "Zs"):
        return "space"
    o = ord(c)
    if 33 <= o <= 47 or 58 <= o <= 64 or 91 <= o <= 96 or 123 <= o <= 126 or cat.startswith("P"):
        return "punct"
    if any(lo <= o <= hi for lo, hi in _CJK):
        return "cjk"
    return "word"


def _fold(text):
    """Case folded, accents stripped (NFD without combining marks)."""
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if unicodedata.category(c) != "Mn")


def _as_str(value, what):
    if value.ndim != 0 or value.dtype.kind not in "US":
        raise RuntimeError(f"{what}: the input shape should be scalar and the input datatype should be string.")
    return value.item().decode("utf8") if value.dtype.kind == "S" else value.item()


def _each(fn, text):
    """``fn`` applied to each string of a str array, keeping its shape."""
    if text.dtype.kind not in "US":
        raise RuntimeError(f"the input datatype should be string, got {text.dtype}")
    strings = [t.decode("utf8") if isinstance(t, bytes) else t for t in text.ravel().tolist()]
    return np.array([fn(t) for t in strings]).reshape(text.shape)


def _result(tokens, with_offsets):
    words = np.array([t for t, _, _ in tokens] or [""])
    if not with_offsets:
        return words
    return words, np.array([a for _, a, _ in tokens] or [0], np.uint32), np.array([b for _, _, b in tokens] or [0],
                                                                                  np.uint32)


class BasicTokenizer(Transform):
    """Split a string into words, punctuation marks and CJK characters (see the module docstring)."""

    def __init__(self, lower_case=False, keep_whitespace=False, normalization_form=NormalizeForm.NONE,
                 preserve_unused_token=True, with_offsets=False):
        self.lower_case, self.keep_whitespace = lower_case, keep_whitespace
        self.normalization_form, self.preserve_unused_token = NormalizeForm(normalization_form), preserve_unused_token
        self.with_offsets = with_offsets

    def _normalize(self, text):
        if self.lower_case:
            return _fold(text)
        if self.normalization_form != NormalizeForm.NONE:
            return unicodedata.normalize(self.normalization_form.name, text)
        return text

    def tokens(self, text):
        """[(token, start byte, end byte), ...] of ``text``."""
        parts, pos = [], 0
        for m in (_SPECIAL.finditer(text) if self.preserve_unused_token else ()):
            parts += [(self._normalize(text[pos:m.start()]), False), (m.group(), True)]
            pos = m.end()
        parts.append((self._normalize(text[pos:]), False))
        out, offset = [], 0
        for part, special in parts:
            if special:
                out.append((part, offset, offset + len(part.encode("utf8"))))
            else:
                out += self._split(part, offset)
            offset += len(part.encode("utf8"))
        return out

    def _split(self, text, offset):
        """Tokens of a stretch of text that starts at byte ``offset``: words, marks, CJK characters (and spaces)."""
        out, word, start, run, pos = [], "", offset, None, offset

        def flush():
            if word and (run != "space" or self.keep_whitespace):
                out.append((word, start, pos))

        for c in text:
            kind, size = _kind(c), len(c.encode("utf8"))
            if kind in ("punct", "cjk"):
                flush()
                out.append((c, pos, pos + size))
                word, run = "", None
            elif kind == run:
                word += " " if kind == "space" else c
            else:
                flush()
                word, start, run = " " if kind == "space" else c, pos, kind
            pos += size
        flush()
        return out

    def apply(self, text):
        return _result(self.tokens(_as_str(text, "BasicTokenizerOp")), self.with_offsets)


class WordpieceTokenizer(Transform):
    """Cut each word of a str array into vocabulary pieces (``##`` marks a piece that continues a word)."""

    def __init__(self, vocab, suffix_indicator="##", max_bytes_per_token=100, unknown_token="[UNK]",
                 with_offsets=False):
        self.vocab, self.suffix_indicator, self.max_bytes_per_token = vocab, suffix_indicator, max_bytes_per_token
        self.unknown_token, self.with_offsets = unknown_token, with_offsets

    def pieces(self, word, ids):
        """[(piece, start byte, end byte), ...] of one word (byte positions within the word)."""
        data = word.encode("utf8")
        if len(data) > self.max_bytes_per_token:
            return [(self.unknown_token or word, 0, len(data))]
        out, start = [], 0
        while start < len(word):
            for end in range(len(word), start, -1):
                piece = word[start:end] if start == 0 else self.suffix_indicator + word[start:end]
                if piece in ids:
                    break
            else:
                return [(self.unknown_token or word, 0, len(data))]
            a = len(word[:start].encode("utf8"))
            out.append((piece, a, a + len(word[start:end].encode("utf8"))))
            start = end
        return out

    def apply(self, words):
        if words.dtype.kind not in "US":
            raise RuntimeError("WordpieceTokenizer: the input datatype should be string.")
        ids = self.vocab.vocab()
        tokens = [p for w in np.atleast_1d(words).tolist() for p in self.pieces(w, ids)]
        return _result(tokens, self.with_offsets)


class BertTokenizer(Transform):
    """BasicTokenizer, then WordpieceTokenizer on each word: the input pipeline of BERT."""

    def __init__(self, vocab, suffix_indicator="##", max_bytes_per_token=100, unknown_token="[UNK]", lower_case=False,
                 keep_whitespace=False, normalization_form=NormalizeForm.NONE, preserve_unused_token=True,
                 with_offsets=False):
        self.basic = BasicTokenizer(lower_case, keep_whitespace, normalization_form, preserve_unused_token)
        self.wordpiece = WordpieceTokenizer(vocab, suffix_indicator, max_bytes_per_token, unknown_token)
        self.with_offsets = with_offsets

    def apply(self, text):
        ids = self.wordpiece.vocab.vocab()
        tokens = [(p, start + a, start + b) for word, start, _ in self.basic.tokens(_as_str(text, "BertTokenizerOp"))
                  for p, a, b in self.wordpiece.pieces(word, ids)]
        return _result(tokens, self.with_offsets)


class CaseFold(Transform):
    """Fold case for caseless matching (``str.casefold``: "Straße" -> "strasse")."""

    def apply(self, text):
        return _each(str.casefold, text)


class RegexReplace(Transform):
    """Replace matches of ``pattern`` by ``replace`` (all of them, or the first with ``replace_all=False``).

    mslab uses Python's ``re``; MindSpore uses ICU regular expressions, which agree on the common syntax.
    """

    def __init__(self, pattern, replace, replace_all=True):
        self.pattern, self.replace, self.replace_all = pattern, replace, replace_all
        self._re = re.compile(pattern)

    def apply(self, text):
        return _each(lambda s: self._re.sub(self.replace, s, count=0 if self.replace_all else 1), text)
