"""The LSTM layer and a single LSTM step, as ``mindspore.nn.LSTM`` and ``nn.LSTMCell`` (gates i, f, g, o).

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
from mslab.core.initializer import Uniform
from mslab.core.tensor import Parameter, initializer
from mslab.nn.cell import Cell
from mslab.ops import functional as F

__all__ = ["LSTM", "LSTMCell"]


def _lstm_step(x_t, h, c, w_ih, w_hh, b_ih, b_hh):
    """One LSTM step: (h_t, c_t) from x_t and (h_{t-1}, c_{t-1}) (see the module docstring)."""
    z = F.add(F.matmul(x_t, w_ih, False, True), F.matmul(h, w_hh, False, True))
    if b_ih is not None:
        z = F.add(z, F.add(b_ih, b_hh))
    i, f, g, o = F.split(z, w_hh.shape[1], 1)
    c = F.add(F.mul(F.sigmoid(f), c), F.mul(F.sigmoid(i), F.tanh(g)))
    return F.mul(F.sigmoid(o), F.tanh(c)), c


class LSTM(Cell):
    """``LSTM(input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False, dropout=0.0,
    bidirectional=False, dtype=mstype.float32)``; ``lstm(x, hx=None)`` -> ``(output, (h_n, c_n))``.

    x is (seq_len, batch, input_size), or (batch, seq_len, input_size) with ``batch_first``; h_n and
    c_n are (num_layers * num_directions, batch, hidden_size). Parameters ``weight_ih_l{k}``,
    ``weight_hh_l{k}``, ``bias_ih_l{k}``, ``bias_hh_l{k}`` (``_reverse`` for the backward direction),
    created in MindSpore's order (all weight_ih, then weight_hh, bias_ih, bias_hh), initialised
    uniformly in [-1/sqrt(hidden_size), 1/sqrt(hidden_size)].
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
        init = Uniform(1.0 / math.sqrt(hidden_size))
        suffixes = [f"_l{k}{'_reverse' if d else ''}" for k in range(num_layers) for d in range(self.num_directions)]
        self._suffixes = suffixes
        below = hidden_size * self.num_directions  # the input width of layers above the first
        for kind in ("weight_ih", "weight_hh") + (("bias_ih", "bias_hh") if has_bias else ()):
            for s in suffixes:
                if kind == "weight_ih":
                    shape = (4 * hidden_size, input_size if s.startswith("_l0_") or s == "_l0" else below)
                else:
                    shape = (4 * hidden_size, hidden_size) if kind == "weight_hh" else (4 * hidden_size,)
                setattr(self, kind + s, Parameter(initializer(init, shape, dtype), name=kind + s))

    def _cell(self, x_t, h, c, s):
        biases = (getattr(self, "bias_ih" + s), getattr(self, "bias_hh" + s)) if self.has_bias else (None, None)
        return _lstm_step(x_t, h, c, getattr(self, "weight_ih" + s), getattr(self, "weight_hh" + s), *biases)

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


class LSTMCell(Cell):
    """One LSTM step, ``LSTMCell(input_size, hidden_size, has_bias=True)(x, (hx, cx))`` -> ``(hy, cy)``.

    x (batch, input_size), hx and cx (batch, hidden_size). Parameters ``weight_ih`` (4 * hidden,
    input), ``weight_hh`` (4 * hidden, hidden), ``bias_ih``, ``bias_hh`` (4 * hidden,), uniform in
    [-1/sqrt(hidden_size), 1/sqrt(hidden_size)] (``mindspore.nn.LSTMCell``; ``nn.LSTM`` runs a sequence).
    """

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=mstype.float32):
        super().__init__()
        if not isinstance(has_bias, bool):
            raise TypeError(f"For 'LSTMCell', the type of 'has_bias' should be 'bool', but got type "
                            f"'{type(has_bias).__name__}'.")
        for arg, value in (("hidden_size", hidden_size), ("input_size", input_size)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"For 'LSTMCell', the '{arg}' must be int and must > 0, but got {value!r}.")
        self.input_size, self.hidden_size, self.has_bias = input_size, hidden_size, has_bias
        shapes = [("weight_ih", (4 * hidden_size, input_size)), ("weight_hh", (4 * hidden_size, hidden_size))]
        shapes += [("bias_ih", (4 * hidden_size,)), ("bias_hh", (4 * hidden_size,))] if has_bias else []
        for _, shape in shapes:  # MindSpore first fills them with numpy's randn, drawing from its global generator
            np.random.randn(*shape)
        init = Uniform(1 / math.sqrt(hidden_size))
        for name, shape in shapes:
            setattr(self, name, Parameter(initializer(init, shape, dtype), name=name))
        if not has_bias:
            self.bias_ih = self.bias_hh = None

    def construct(self, x, hx):
        if not isinstance(hx, (tuple, list)) or len(hx) != 2:
            raise TypeError(f"For 'LSTMCell', the length of 'hx' must be '2', but got "
                            f"'{len(hx) if isinstance(hx, (tuple, list)) else type(hx).__name__}'")
        return _lstm_step(x, hx[0], hx[1], self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
