"""``Vocab`` (a table of tokens and their ids) and ``to_str``, as ``mindspore.dataset.text.utils``.

``Vocab.from_list(["a", "b"], special_tokens=["<pad>", "<unk>"])`` numbers the special tokens first
(``special_first=True``: <pad> 0, <unk> 1, a 2, b 3) or last; ``Vocab.from_dict`` takes the ids as given.
Unknown tokens map to -1 and unknown ids to "" (observed on MindSpore 2.10 CPU).
"""
import numbers

import numpy as np

_MAX_ID = 2**31 - 1


class Vocab:
    """Tokens and their integer ids; build it with :meth:`from_list` or :meth:`from_dict`."""

    def __init__(self, word_dict=None):
        self._ids = dict(word_dict or {})
        self._tokens = {i: w for w, i in self._ids.items()}

    @classmethod
    def from_list(cls, word_list, special_tokens=None, special_first=True):
        """Ids 0, 1, ... in list order, with ``special_tokens`` before (``special_first``) or after the words."""
        for name, value in (("word_list", word_list), ("special_tokens", special_tokens)):
            if value is not None and not isinstance(value, list):  # MindSpore's message
                raise TypeError(f"Argument {name} with value {value} is not of type [<class 'list'>], "
                                f"but got {type(value)}.")
        special_tokens = special_tokens or []
        for w in word_list:
            if word_list.count(w) > 1:
                raise ValueError(f"word_list contains duplicate word: {w}.")
        both = set(word_list) & set(special_tokens)
        if both:
            raise ValueError(f"special_tokens and word_list contain duplicate word :{both}.")
        words = special_tokens + word_list if special_first else word_list + special_tokens
        return cls({w: i for i, w in enumerate(words)})

    @classmethod
    def from_file(cls, file_path, delimiter="", vocab_size=None, special_tokens=None, special_first=True):
        """One word per line of a text file, numbered in file order (as :meth:`from_list`).

        With a ``delimiter`` the word is the part of the line before it (``"home,1"`` -> ``home``); without
        one, the whole line, an empty line giving the word "" (observed on MindSpore 2.10). ``vocab_size``
        keeps the first words.
        """
        try:
            with open(file_path, encoding="utf8") as f:
                lines = f.read().split("\n")
        except OSError:
            raise RuntimeError(f"Get real path failed, path={file_path}") from None  # MindSpore's message
        if lines and lines[-1] == "":
            lines.pop()  # the newline that ends the last line
        words = [line.split(delimiter)[0] if delimiter else line for line in lines]
        words = words[:vocab_size] if vocab_size is not None else words
        repeated = next((w for i, w in enumerate(words) if w in words[:i]), None)
        if repeated is not None:  # MindSpore's message
            raise RuntimeError(f"from_file: word_list contains duplicate word:{repeated}")
        return cls.from_list(words, special_tokens, special_first)

    @classmethod
    def from_dict(cls, word_dict):
        """The vocabulary ``{token: id}`` as given (ids are ints in [0, 2**31 - 1])."""
        if not isinstance(word_dict, dict):
            raise TypeError(f"Argument word_dict with value {word_dict} is not of type [<class 'dict'>], "
                            f"but got {type(word_dict)}.")
        for i in word_dict.values():
            if isinstance(i, bool) or not isinstance(i, numbers.Integral):
                raise TypeError(f"Argument word_id with value {i} is not of type [<class 'int'>], but got {type(i)}.")
            if not 0 <= i <= _MAX_ID:
                raise ValueError(f"Input word_id is not within the required interval of [0, {_MAX_ID}].")
        return cls(word_dict)

    def vocab(self):
        """``{token: id}`` of the whole vocabulary."""
        return dict(self._ids)

    def tokens_to_ids(self, tokens):
        """The id of a token (or a list of ids of a list of tokens); -1 for a token not in the vocabulary."""
        if isinstance(tokens, str):
            return self._ids.get(tokens, -1)
        return [self._ids.get(str(t), -1) for t in tokens]

    def ids_to_tokens(self, ids):
        """The token of an id (or a list of tokens of a list of ids); "" for an id not in the vocabulary."""
        if isinstance(ids, numbers.Integral):
            return self._tokens.get(int(ids), "")
        return [self._tokens.get(int(i), "") for i in ids]

    def __len__(self):
        return len(self._ids)


def to_str(array, encoding="utf8"):
    """A numpy array of ``bytes`` as an array of ``str`` (decoded with ``encoding``)."""
    if not isinstance(array, np.ndarray):
        raise TypeError("input should be a NumPy array.")  # MindSpore's message
    if array.dtype.kind != "S":  # MindSpore fails calling bytes.decode on str
        raise AttributeError(f"to_str: the array holds {array.dtype}, not bytes; to_str decodes arrays of bytes "
                             f"(mslab's pipelines give text as str arrays already)")
    return np.char.decode(array, encoding)
