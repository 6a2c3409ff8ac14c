"""The LSTM layer, as ``mindspore.nn.LSTM`` (gates in MindSpore's order i, f, g, o).

For each time step t, layer and direction, with x_t the input (or the layer below's output)::

    i, f, g, o = split(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh, 4)
    c_t = sigmoid(f) * c_{t-1} + sigmoid(i) * tanh(g)
    h_t = sigmoid(o) * tanh(c_t)

The loop over time is Python, so GRAPH mode unrolls it into one graph per sequence length; the
gradients are those of MatMul, Sigmoid, Tanh, the slices and Stack. ``bidirectional=True`` also runs
each layer over the reversed sequence and concatenates both directions' outputs on the feature axis.
"""
import math

import numpy as np

from mslab.core import dtype as mstype
from mslab.core.tensor import Parameter, Tensor
from mslab.nn.cell import Cell
from mslab.ops import functional as F

__all__ = ["LSTM"]


class LSTM(Cell):
    """``LSTM(input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False, dropout=0.0,
    bidirectional=False, dtype=mstype.float32)``; ``lstm(x, hx=None)`` -> ``(output, (h_n, c_n))``.

    x is (seq_len, batch, input_size), or (batch, seq_len, input_size) with ``batch_first``; h_n and
    c_n are (num_layers * num_directions, batch, hidden_size). Parameters ``weight_ih_l{k}``,
    ``weight_hh_l{k}``, ``bias_ih_l{k}``, ``bias_hh_l{k}`` (``_reverse`` for the backward direction),
    created in MindSpore's order (all weight_ih, then weight_hh, bias_ih, bias_hh), initialised
    uniformly in [-1/sqrt(hidden_size), 1/sqrt(hidden_size)] by ``np.random.uniform`` as MindSpore does, so after
    ``np.random.seed(n)`` they are MindSpore's numbers (observed on MindSpore 2.10 CPU).
    """

    def __init__(self, input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, dtype=mstype.float32):
        super().__init__()
        for arg, value in (("input_size", input_size), ("hidden_size", hidden_size), ("num_layers", num_layers)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"For 'LSTM', {arg} must be an int >= 1, got {value!r}")
        if not 0.0 <= float(dropout) < 1.0:
            raise ValueError(f"For 'LSTM', dropout must be in [0, 1), got {dropout}")
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.has_bias, self.batch_first = bool(has_bias), bool(batch_first)
        self.dropout, self.bidirectional = float(dropout), bool(bidirectional)
        self.num_directions = 2 if bidirectional else 1
        suffixes = [f"_l{k}{'_reverse' if d else ''}" for k in range(num_layers) for d in range(self.num_directions)]
        self._suffixes = suffixes
        kinds = ("weight_ih", "weight_hh") + (("bias_ih", "bias_hh") if has_bias else ())
        # MindSpore draws each array straight from np.random.uniform, layer by layer and direction by direction
        # (weight_ih, weight_hh, bias_ih, bias_hh): drawn in that order, the weights are MindSpore's own numbers.
        stdv = 1.0 / math.sqrt(hidden_size)
        below = hidden_size * self.num_directions  # the input width of layers above the first
        drawn = {}
        for k, s in enumerate(suffixes):
            widths = {"weight_ih": input_size if k < self.num_directions else below, "weight_hh": hidden_size}
            for kind in kinds:
                shape = (4 * hidden_size, widths[kind]) if kind in widths else (4 * hidden_size,)
                drawn[kind + s] = np.random.uniform(-stdv, stdv, shape).astype(np.float32)
        for kind in kinds:  # registered as MindSpore orders them: all weight_ih, then weight_hh, ...
            for s in suffixes:
                setattr(self, kind + s, Parameter(Tensor(drawn[kind + s], dtype), name=kind + s))

    def _cell(self, x_t, h, c, s):
        z = F.add(F.matmul(x_t, getattr(self, "weight_ih" + s), False, True),
                  F.matmul(h, getattr(self, "weight_hh" + s), False, True))
        if self.has_bias:
            z = F.add(z, F.add(getattr(self, "bias_ih" + s), getattr(self, "bias_hh" + s)))
        i, f, g, o = F.split(z, self.hidden_size, 1)
        c = F.add(F.mul(F.sigmoid(f), c), F.mul(F.sigmoid(i), F.tanh(g)))
        return F.mul(F.sigmoid(o), F.tanh(c)), c

    def construct(self, x, hx=None, seq_length=None):
        if seq_length is not None:
            raise NotImplementedError("LSTM: seq_length (padded sequences of different lengths) is not supported "
                                      "by mslab")
        if len(x.shape) != 3 or x.shape[2] != self.input_size:
            raise ValueError(f"For 'LSTM', the input must be (seq_len, batch, {self.input_size})"
                             f"{' with batch_first: (batch, seq_len, ...)' if self.batch_first else ''}, "
                             f"got shape {tuple(x.shape)}")
        if self.batch_first:
            x = F.transpose(x, (1, 0, 2))
        steps, batch = x.shape[0], x.shape[1]
        if hx is None:
            zeros = F.zeros((self.num_layers * self.num_directions, batch, self.hidden_size), x.dtype)
            hx = (zeros, zeros)
        h0, c0 = hx
        layer_in = [F.getitem(x, t) for t in range(steps)]
        h_n, c_n = [], []
        for k in range(self.num_layers):
            outs = []
            for d in range(self.num_directions):
                idx = k * self.num_directions + d
                h, c = F.getitem(h0, idx), F.getitem(c0, idx)
                seq = []
                for t in (range(steps - 1, -1, -1) if d else range(steps)):
                    h, c = self._cell(layer_in[t], h, c, self._suffixes[idx])
                    seq.append(h)
                outs.append(seq[::-1] if d else seq)
                h_n.append(h)
                c_n.append(c)
            layer_in = [F.concat((a, b), 1) for a, b in zip(*outs)] if self.bidirectional else outs[0]
            if self.dropout and self.training and k < self.num_layers - 1:
                layer_in = [F.dropout(v, p=self.dropout) for v in layer_in]
        output = F.stack(layer_in, 0)
        if self.batch_first:
            output = F.transpose(output, (1, 0, 2))
        return output, (F.stack(h_n, 0), F.stack(c_n, 0))
