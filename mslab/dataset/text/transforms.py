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
