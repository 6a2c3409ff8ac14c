"""Recurrent layers, as ``mindspore.nn``: LSTM and GRU over sequences, LSTMCell for one step.

For each time step t, layer and direction, with x_t the input (or the layer below's output), LSTM
(gates i, f, g, o in MindSpore's order)::

    i, f, g, o = split(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh, 4)
    c_t = sigmoid(f) * c_{t-1} + sigmoid(i) * tanh(g)
    h_t = sigmoid(o) * tanh(c_t)

and GRU (gates r, z, n; the reset gate r scales the hidden part of n only)::

    r = sigmoid(x_t W_ir^T + b_ir + h_{t-1} W_hr^T + b_hr);  z = sigmoid(... W_iz ... W_hz ...)
    n = tanh(x_t W_in^T + b_in + r * (h_{t-1} W_hn^T + b_hn))
    h_t = n + z * (h_{t-1} - n)

The loop over time is Python, so GRAPH mode unrolls it into one graph per sequence length; the
gradients are those of MatMul, Sigmoid, Tanh, the slices and Stack. ``bidirectional=True`` also runs
each layer over the reversed sequence and concatenates both directions' outputs on the feature axis.
"""
import math

import numpy as np

from mslab.core import dtype as mstype
from mslab.core.initializer import Uniform
from mslab.core.tensor import Parameter, Tensor, initializer
from mslab.nn.cell import Cell
from mslab.ops import functional as F

__all__ = ["LSTM", "GRU", "LSTMCell"]


def _linear(x, w, b):
    out = F.matmul(x, w, False, True)
    return out if b is None else F.add(out, b)


def _lstm_step(x_t, h, c, w_ih, w_hh, b_ih, b_hh):
    """One LSTM step: (h_t, c_t) from x_t and (h_{t-1}, c_{t-1}) (see the module docstring)."""
    z = F.add(_linear(x_t, w_ih, b_ih), _linear(h, w_hh, b_hh))
    i, f, g, o = F.split(z, w_hh.shape[1], 1)
    c = F.add(F.mul(F.sigmoid(f), c), F.mul(F.sigmoid(i), F.tanh(g)))
    return F.mul(F.sigmoid(o), F.tanh(c)), c


def _gru_step(x_t, h, w_ih, w_hh, b_ih, b_hh):
    """One GRU step: h_t from x_t and h_{t-1} (see the module docstring)."""
    i_r, i_z, i_n = F.split(_linear(x_t, w_ih, b_ih), w_hh.shape[1], 1)
    h_r, h_z, h_n = F.split(_linear(h, w_hh, b_hh), w_hh.shape[1], 1)
    r, z = F.sigmoid(F.add(i_r, h_r)), F.sigmoid(F.add(i_z, h_z))
    n = F.tanh(F.add(i_n, F.mul(r, h_n)))
    return F.add(n, F.mul(z, F.sub(h, n)))


class _RNN(Cell):
    """The layers, directions and time loop shared by LSTM and GRU; ``_step`` and ``_gates`` differ."""

    _gates = 4

    def __init__(self, input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, dtype=mstype.float32):
        super().__init__()
        name = type(self).__name__
        for arg, value in (("input_size", input_size), ("hidden_size", hidden_size), ("num_layers", num_layers)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"For '{name}', {arg} must be an int >= 1, got {value!r}")
        if not 0.0 <= float(dropout) < 1.0:
            raise ValueError(f"For '{name}', dropout must be in [0, 1), got {dropout}")
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.has_bias, self.batch_first = bool(has_bias), bool(batch_first)
        self.dropout, self.bidirectional = float(dropout), bool(bidirectional)
        self.num_directions = 2 if bidirectional else 1
        suffixes = [f"_l{k}{'_reverse' if d else ''}" for k in range(num_layers) for d in range(self.num_directions)]
        self._suffixes = suffixes
        kinds = ("weight_ih", "weight_hh") + (("bias_ih", "bias_hh") if has_bias else ())
        # MindSpore draws each array straight from np.random.uniform, layer by layer and direction by direction
        # (weight_ih, weight_hh, bias_ih, bias_hh): drawn in that order, the weights are MindSpore's own numbers
        # (observed on MindSpore 2.10 CPU for LSTM).
        stdv = 1.0 / math.sqrt(hidden_size)
        below = hidden_size * self.num_directions  # the input width of layers above the first
        rows = self._gates * hidden_size
        drawn = {}
        for k, s in enumerate(suffixes):
            widths = {"weight_ih": input_size if k < self.num_directions else below, "weight_hh": hidden_size}
            for kind in kinds:
                shape = (rows, widths[kind]) if kind in widths else (rows,)
                drawn[kind + s] = np.random.uniform(-stdv, stdv, shape).astype(np.float32)
        for kind in kinds:  # registered as MindSpore orders them: all weight_ih, then weight_hh, ...
            for s in suffixes:
                setattr(self, kind + s, Parameter(Tensor(drawn[kind + s], dtype), name=kind + s))

    def _weights(self, s):
        biases = (getattr(self, "bias_ih" + s), getattr(self, "bias_hh" + s)) if self.has_bias else (None, None)
        return (getattr(self, "weight_ih" + s), getattr(self, "weight_hh" + s)) + biases

    def _run(self, x, states):
        """``states``: the initial states (h0, or h0 and c0), each (layers * directions, batch, hidden) or None.
        Returns the output sequence and the final states, stacked the same way."""
        name = type(self).__name__
        if len(x.shape) != 3 or x.shape[2] != self.input_size:
            raise ValueError(f"For '{name}', the input must be (seq_len, batch, {self.input_size})"
                             f"{' with batch_first: (batch, seq_len, ...)' if self.batch_first else ''}, "
                             f"got shape {tuple(x.shape)}")
        if self.batch_first:
            x = F.transpose(x, (1, 0, 2))
        steps, batch = x.shape[0], x.shape[1]
        zeros = F.zeros((self.num_layers * self.num_directions, batch, self.hidden_size), x.dtype)
        states = tuple(zeros if h is None else h for h in states)
        layer_in = [F.getitem(x, t) for t in range(steps)]
        finals = [[] for _ in states]
        for k in range(self.num_layers):
            outs = []
            for d in range(self.num_directions):
                idx = k * self.num_directions + d
                state, weights, seq = tuple(F.getitem(h, idx) for h in states), self._weights(self._suffixes[idx]), []
                for t in (range(steps - 1, -1, -1) if d else range(steps)):
                    state = self._step(layer_in[t], state, weights)
                    seq.append(state[0])
                outs.append(seq[::-1] if d else seq)
                for final, value in zip(finals, state):
                    final.append(value)
            layer_in = [F.concat((a, b), 1) for a, b in zip(*outs)] if self.bidirectional else outs[0]
            if self.dropout and self.training and k < self.num_layers - 1:
                layer_in = [F.dropout(v, p=self.dropout) for v in layer_in]
        output = F.stack(layer_in, 0)
        if self.batch_first:
            output = F.transpose(output, (1, 0, 2))
        return output, tuple(F.stack(f, 0) for f in finals)

    @staticmethod
    def _no_seq_length(name, seq_length):
        if seq_length is not None:
            raise NotImplementedError(f"{name}: seq_length (padded sequences of different lengths) is not supported "
                                      "by mslab")


class LSTM(_RNN):
    """``LSTM(input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False, dropout=0.0,
    bidirectional=False, dtype=mstype.float32)``; ``lstm(x, hx=None)`` -> ``(output, (h_n, c_n))``.

    x is (seq_len, batch, input_size), or (batch, seq_len, input_size) with ``batch_first``; h_n and
    c_n are (num_layers * num_directions, batch, hidden_size). Parameters ``weight_ih_l{k}``,
    ``weight_hh_l{k}``, ``bias_ih_l{k}``, ``bias_hh_l{k}`` (``_reverse`` for the backward direction),
    created in MindSpore's order (all weight_ih, then weight_hh, bias_ih, bias_hh), initialised
    uniformly in [-1/sqrt(hidden_size), 1/sqrt(hidden_size)].
    """

    def _step(self, x_t, state, weights):
        return _lstm_step(x_t, state[0], state[1], *weights)

    def construct(self, x, hx=None, seq_length=None):
        self._no_seq_length("LSTM", seq_length)
        output, (h_n, c_n) = self._run(x, (None, None) if hx is None else hx)
        return output, (h_n, c_n)


class GRU(_RNN):
    """``GRU(input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False, dropout=0.0,
    bidirectional=False, dtype=mstype.float32)``; ``gru(x, hx=None)`` -> ``(output, h_n)``.

    As LSTM (shapes, parameter names and order, initialisation) with 3 gates (r, z, n) instead of 4:
    ``weight_ih_l{k}`` is (3 * hidden_size, input width), and there is no cell state.
    """

    _gates = 3

    def _step(self, x_t, state, weights):
        return (_gru_step(x_t, state[0], *weights),)

    def construct(self, x, hx=None, seq_length=None):
        self._no_seq_length("GRU", seq_length)
        output, (h_n,) = self._run(x, (hx,))
        return output, h_n


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
