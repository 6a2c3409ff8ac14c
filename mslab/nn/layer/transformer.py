"""Multi-head attention, as ``mindspore.nn.MultiheadAttention`` (``mindspore.nn.layer.transformer``).

For query (L, N, E) and key/value (S, N, E) (batch first with ``batch_first``), each head h of the
num_heads works on head_dim = E / num_heads features::

    q, k, v = query W_q^T + b_q, key W_k^T + b_k, value W_v^T + b_v     (W_q; W_k; W_v = in_proj_weight)
    weights_h = softmax((q_h / d^(1/4)) (k_h / d^(1/4))^T + mask)          (d = head_dim, as MindSpore)
    output = concat_h(weights_h v_h) W_o^T + b_o                           (out_proj, a Dense)

A mask entry True (or -inf as a float mask) keeps a query from attending to that key; dropout acts on
the weights in training. The weights returned are the heads' average unless average_attn_weights=False.
"""
import math

import numpy as np

from mslab.core import dtype as mstype
from mslab.core.initializer import HeUniform, Uniform, XavierUniform
from mslab.core.tensor import Parameter, initializer
from mslab.nn.cell import Cell
from mslab.nn.layer.basic import Dense
from mslab.ops import functional as F

__all__ = ["MultiheadAttention"]


def _linear(x, w, b):
    out = F.matmul(x, w, False, True)
    return out if b is None else F.add(out, b)


def _as_additive(mask, dtype):
    """A bool mask (True = do not attend) as 0 / -inf; a float mask as it is."""
    if mask.dtype == mstype.bool_:
        zeros = F.zeros(mask.shape, dtype)
        return F.select(mask, F.add(zeros, float("-inf")), zeros)
    return F.cast(mask, dtype)


class MultiheadAttention(Cell):
    """``MultiheadAttention(embed_dim, num_heads, dropout=0.0, has_bias=True, batch_first=False)``;
    ``mha(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
    average_attn_weights=True)`` -> ``(output, weights)``, or ``(output,)`` without need_weights.

    Parameters ``in_proj_weight`` (3E, E, Xavier uniform), ``in_proj_bias`` (3E, zeros) and the
    ``out_proj`` Dense. key_padding_mask (N, S) and attn_mask (L, S) or (N * num_heads, L, S) are
    bool or float. mslab implements key and value widths equal to embed_dim only (no kdim/vdim), and
    no add_bias_kv / add_zero_attn.
    """

    def __init__(self, embed_dim, num_heads, dropout=0.0, has_bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, dtype=mstype.float32):
        super().__init__()
        if embed_dim // num_heads * num_heads != embed_dim:
            raise ValueError("The init argument 'embed_dim' must be divisible by 'num_heads'.")
        if kdim not in (None, embed_dim) or vdim not in (None, embed_dim) or add_bias_kv or add_zero_attn:
            raise NotImplementedError("MultiheadAttention: mslab implements kdim = vdim = embed_dim without "
                                      "add_bias_kv and add_zero_attn")
        self.embed_dim, self.num_heads, self.head_dim = embed_dim, num_heads, embed_dim // num_heads
        self.dropout, self.batch_first = dropout, batch_first
        self.in_proj_weight = Parameter(initializer(XavierUniform(), (3 * embed_dim, embed_dim), dtype),
                                        "in_proj_weight")
        self.in_proj_bias = Parameter(initializer("zeros", (3 * embed_dim,), dtype), "in_proj_bias") \
            if has_bias else None
        self.out_proj = Dense(embed_dim, embed_dim, has_bias=has_bias, weight_init=HeUniform(math.sqrt(5)),
                              bias_init=Uniform(1 / math.sqrt(embed_dim)), dtype=dtype)

    def _masks(self, key_padding_mask, attn_mask, n, length, src, dtype):
        """The additive mask, broadcastable to (N, heads, L, S), or None."""
        mask = None
        if attn_mask is not None:
            if tuple(attn_mask.shape) not in ((length, src), (n * self.num_heads, length, src)):
                raise ValueError(f"The shape of the `attn_mask` should be {(length, src)} or "
                                 f"{(n * self.num_heads, length, src)}, but got {tuple(attn_mask.shape)}.")
            mask = _as_additive(attn_mask, dtype)
            mask = F.reshape(mask, (1, 1, length, src) if len(attn_mask.shape) == 2 else
                             (n, self.num_heads, length, src))
        if key_padding_mask is not None:
            if tuple(key_padding_mask.shape) != (n, src):
                raise ValueError(f"The shape of `key_padding_mask` should be {(n, src)}, but got "
                                 f"{tuple(key_padding_mask.shape)}.")
            padding = F.reshape(_as_additive(key_padding_mask, dtype), (n, 1, 1, src))
            mask = padding if mask is None else F.add(mask, padding)
        return mask

    def construct(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                  average_attn_weights=True):
        batched = len(query.shape) == 3
        if self.batch_first and batched:
            query, key, value = (F.swapaxes(t, 0, 1) for t in (query, key, value))
        if not batched:
            query, key, value = (F.expand_dims(t, 1) for t in (query, key, value))
            if key_padding_mask is not None:
                key_padding_mask = F.expand_dims(key_padding_mask, 0)
        length, n, e = query.shape
        src = key.shape[0]
        if e != self.embed_dim or tuple(key.shape) != tuple(value.shape):
            raise ValueError(f"MultiheadAttention: query (L, N, {self.embed_dim}) and key, value of one shape "
                             f"(S, N, {self.embed_dim}) expected, got {tuple(query.shape)}, {tuple(key.shape)}, "
                             f"{tuple(value.shape)}")
        ws = F.split(self.in_proj_weight, e, 0)
        bs = F.split(self.in_proj_bias, e, 0) if self.in_proj_bias is not None else (None,) * 3
        h, d = self.num_heads, self.head_dim
        q, k, v = (F.transpose(F.reshape(_linear(t, w, b), (t.shape[0], n, h, d)), (1, 2, 0, 3))
                   for t, w, b in zip((query, key, value), ws, bs))  # (N, heads, L or S, head_dim)
        scale = float(np.sqrt(np.sqrt(np.float32(d))))
        scores = F.matmul(F.div(q, scale), F.swapaxes(F.div(k, scale), -2, -1))
        mask = self._masks(key_padding_mask, attn_mask, n, length, src, scores.dtype)
        weights = F.softmax(scores if mask is None else F.add(scores, mask), -1)
        if self.training and self.dropout > 0:
            weights = F.dropout(weights, p=self.dropout)
        out = F.reshape(F.transpose(F.matmul(weights, v), (2, 0, 1, 3)), (length * n, e))
        out = F.reshape(self.out_proj(out), (length, n, e))
        if average_attn_weights:
            weights = F.div(F.reduce_sum(weights, 1), float(h))
        if self.batch_first and batched:
            out = F.swapaxes(out, 0, 1)
        if not batched:
            out, weights = F.squeeze(out, 1), F.squeeze(weights, 0)
        return (out, weights) if need_weights else (out,)
