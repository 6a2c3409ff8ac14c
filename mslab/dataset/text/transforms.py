"""Text transforms, as ``mindspore.dataset.text``: ``Lookup`` and the whitespace / character tokenizers.

A tokenizer takes one string (a 0-d str array, as a text column gives it) and returns a 1-D str array
of tokens (``[""]`` when there are none, as in MindSpore); ``with_offsets=True`` adds two uint32
arrays: each token's start and end as UTF-8 byte offsets (observed on MindSpore 2.10 CPU).
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.dataset.transforms.transforms import Transform


class Lookup(Transform):
    """Tokens -> their ids in ``vocab`` (same shape, ``data_type``, int32 by default).

    A token not in the vocabulary takes the id of ``unknown_token``; without one it is an error.
    """

    def __init__(self, vocab, unknown_token=None, data_type=mstype.int32):
        self.vocab, self.unknown_token, self.data_type = vocab, unknown_token, data_type

    def apply(self, tokens):
        if tokens.dtype.kind not in "US":
            raise RuntimeError("Lookup: input is not string datatype.")  # MindSpore's message
        ids = self.vocab.vocab()
        unknown = None
        if self.unknown_token is not None:
            if self.unknown_token not in ids:
                raise RuntimeError(f'Lookup: "{self.unknown_token}" doesn\'t exist in vocab.')
            unknown = ids[self.unknown_token]
        flat = np.char.decode(tokens, "utf8") if tokens.dtype.kind == "S" else tokens
        out = []
        for t in flat.ravel().tolist():
            if t not in ids and unknown is None:
                raise RuntimeError(f'Lookup: invalid data, token: "{t}" doesn\'t exist in vocab and no unknown token '
                                   f'is specified.')
            out.append(ids.get(t, unknown))
        return np.array(out, mstype.to_numpy(self.data_type)).reshape(tokens.shape)


class _Tokenizer(Transform):
    def __init__(self, with_offsets=False):
        self.with_offsets = with_offsets

    def _spans(self, s):
        """(start, end) character positions of each token of ``s``."""
        raise NotImplementedError

    def apply(self, s):
        if s.ndim != 0 or s.dtype.kind not in "US":  # MindSpore's message
            raise RuntimeError(f"{type(self).__name__}Op: the input shape should be scalar and the input datatype "
                               f"should be string.")
        s = s.item().decode("utf8") if s.dtype.kind == "S" else s.item()
        spans = self._spans(s) or [(0, 0)]
        tokens = np.array([s[a:b] for a, b in spans])
        if not self.with_offsets:
            return tokens
        nbytes = np.cumsum([0] + [len(c.encode("utf8")) for c in s])  # character -> UTF-8 byte offset
        return (tokens, np.array([nbytes[a] for a, _ in spans], np.uint32),
                np.array([nbytes[b] for _, b in spans], np.uint32))


class WhitespaceTokenizer(_Tokenizer):
    """Split a string at whitespace (spaces, tabs, newlines and Unicode spaces such as U+3000)."""

    def _spans(self, s):
        spans, start = [], None
        for i, c in enumerate(s + " "):
            if c.isspace() and start is not None:
                spans.append((start, i))
                start = None
            elif not c.isspace() and start is None:
                start = i
        return spans


class UnicodeCharTokenizer(_Tokenizer):
    """Split a string into its Unicode characters (spaces included)."""

    def _spans(self, s):
        return [(i, i + 1) for i in range(len(s))]


class ToNumber(Transform):
    """Strings that spell numbers -> an array of ``data_type`` (a numeric mstype), as ``"22"`` -> 22."""

    def __init__(self, data_type):
        self.data_type = data_type
        self._np = mstype.to_numpy(data_type)
        if self._np.kind not in "uifb":
            raise TypeError(f"data_type: {data_type} is not numeric data type.")

    def apply(self, x):
        out = []
        for s in x.ravel().tolist():
            s = s.decode("utf8") if isinstance(s, bytes) else str(s)
            try:
                value = float(s) if self._np.kind == "f" else int(s)
            except ValueError:
                raise RuntimeError(f'ToNumber: it is invalid to convert "{s}" to a number.') from None
            if self._np.kind in "ui":
                info = np.iinfo(self._np)
                if not info.min <= value <= info.max:
                    raise RuntimeError(f"ToNumber: string input {s} will be out of bounds if cast to "
                                       f"{self._np.name}. The valid range is: [{info.min}, {info.max}].")
            out.append(value)
        return np.array(out, self._np).reshape(x.shape)


class TruncateSequencePair(Transform):
    """Cut two sequences so their lengths add up to at most ``max_length``: one element at a time from the
    end of the longer one (of the second when they are as long), as BERT's input pairs are cut."""

    def __init__(self, max_length):
        self.max_length = int(max_length)

    def apply(self, a, b):
        n, m = len(a), len(b)
        while n + m > self.max_length:
            if n > m:
                n -= 1
            else:
                m -= 1
        return a[:n], b[:m]


class Ngram(Transform):
    """The n-grams of a 1-D array of tokens, for each n of ``n`` in turn, joined by ``separator``.

    ``left_pad`` / ``right_pad`` = (token, count) add ``count`` copies of a token before / after the
    sequence; a sequence shorter than n gives no n-gram (``[""]`` when there are none at all).
    """

    def __init__(self, n, left_pad=("", 0), right_pad=("", 0), separator=" "):
        self.n = [n] if isinstance(n, int) else list(n)
        if not self.n or min(self.n) < 1:
            raise ValueError(f"Ngram: n must be an int >= 1 or a list of them, got {n}")
        self.left_pad, self.right_pad, self.separator = tuple(left_pad), tuple(right_pad), separator

    def apply(self, tokens):
        if tokens.ndim != 1:
            raise RuntimeError(f"Ngram: the input must be a 1-D array of strings, got shape {tokens.shape}")
        seq = [self.left_pad[0]] * self.left_pad[1] + tokens.tolist() + [self.right_pad[0]] * self.right_pad[1]
        grams = [self.separator.join(seq[i:i + n]) for n in self.n for i in range(len(seq) - n + 1)]
        return np.array(grams or [""])
