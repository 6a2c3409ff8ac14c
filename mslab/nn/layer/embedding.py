"""Embedding lookup, as ``mindspore.nn.Embedding``: integer ids -> rows of a learned table.

``embedding_table`` has shape (vocab_size, embedding_size); ``Embedding(...)(ids)`` of shape S gives
S + (embedding_size,): row ``ids[i]`` for every id (a Gather along axis 0, whose gradient adds dout
into the rows that were read). ``padding_idx`` starts its row at zeros.
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core.tensor import Parameter, Tensor, initializer
from mslab.nn.cell import Cell
from mslab.ops import functional as F

__all__ = ["Embedding"]


class Embedding(Cell):
    """``Embedding(vocab_size, embedding_size, use_one_hot=False, embedding_table='normal', dtype=mstype.float32,
    padding_idx=None)``."""

    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table="normal",
                 dtype=mstype.float32, padding_idx=None):
        super().__init__()
        for arg, value in (("vocab_size", vocab_size), ("embedding_size", embedding_size)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"For 'Embedding', {arg} must be an int >= 1, got {value!r}")
        if padding_idx is not None and not -vocab_size <= padding_idx < vocab_size:
            raise ValueError(f"For 'Embedding', padding_idx must be in [{-vocab_size}, {vocab_size}), "
                             f"got {padding_idx}")
        self.vocab_size, self.embedding_size = vocab_size, embedding_size
        self.use_one_hot = bool(use_one_hot)
        self.dtype = dtype
        self.padding_idx = padding_idx
        table = initializer(embedding_table, (vocab_size, embedding_size), mstype.float32)
        if padding_idx is not None:
            data = np.array(table.asnumpy())
            data[padding_idx] = 0
            table = Tensor(data)
        self.embedding_table = Parameter(table, name="embedding_table")

    def construct(self, ids):
        if ids.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For 'Embedding', the ids must be Int32 or Int64, got {ids.dtype}")
        if self.use_one_hot:  # the same numbers as a one-hot matrix times the table
            hot = F.one_hot(F.reshape(ids, (-1,)), self.vocab_size, F.scalar_to_tensor(1.0), F.scalar_to_tensor(0.0))
            out = F.matmul(hot, self.embedding_table)
        else:
            out = F.gather(self.embedding_table, F.reshape(ids, (-1,)), 0)
        return F.reshape(out, tuple(ids.shape) + (self.embedding_size,))

    def extend_repr(self):
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, use_one_hot={self.use_one_hot}, "
                f"embedding_table={self.embedding_table!r}, dtype={self.dtype}, padding_idx={self.padding_idx}")
