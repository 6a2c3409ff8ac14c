"""Basic layers, as ``mindspore.nn``: Dense (fully connected), Flatten, Dropout."""
import math

from mslab.core import dtype as mstype
from mslab.core.initializer import HeUniform, Initializer, Uniform
from mslab.core.tensor import Parameter, Tensor, initializer
from mslab.nn.cell import Cell
from mslab.nn.layer.activation import get_activation
from mslab.ops import functional as F
from mslab.ops.matmul_ops import MatMul
from mslab.ops.nn_ops import BiasAdd

__all__ = ["Dense", "Flatten", "Dropout", "ClipByNorm", "Identity", "OneHot", "Unfold"]


def _check_int(value, name, cls_name, minimum=1):
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"For '{cls_name}', '{name}' must be an int >= {minimum}, got {value!r}")
    return value


def _init_repr(init):
    if isinstance(init, Tensor):
        return f"Tensor(shape={list(init.shape)})"
    if isinstance(init, Initializer):
        return type(init).__name__
    return str(init)  # a name prints bare, as MindSpore's repr does: weight_init=ones


def _make_activation(activation, cls_name):
    if activation is None or isinstance(activation, Cell):
        return activation
    if isinstance(activation, str):
        return get_activation(activation)
    if callable(activation):  # a primitive such as ops.ReLU()
        return activation
    raise TypeError(f"For '{cls_name}', activation must be None, a str, a Cell or a primitive, "
                    f"got {type(activation).__name__}")


class Dense(Cell):
    """Fully connected layer: ``y = activation(x @ weight.T + bias)`` (``mindspore.nn.Dense``).

    ``weight`` has shape ``[out_channels, in_channels]``, ``bias`` ``[out_channels]``. Inputs of rank
    above 2 are flattened to ``(-1, in_channels)`` and the result reshaped back. ``weight_init`` and
    ``bias_init`` may be Initializers, names, numbers or Tensors; by default (None) they follow
    MindSpore 2.x: ``HeUniform(math.sqrt(5))`` and ``Uniform(1 / sqrt(in_channels))``.

        >>> net = Dense(3, 4, activation="relu")
        >>> net(Tensor(np.ones((2, 3), np.float32))).shape
        (2, 4)
    """

    def __init__(self, in_channels, out_channels, weight_init=None, bias_init=None, has_bias=True,
                 activation=None, dtype=mstype.float32):
        super().__init__()
        name = type(self).__name__
        self.in_channels = _check_int(in_channels, "in_channels", name)
        self.out_channels = _check_int(out_channels, "out_channels", name)
        self.has_bias = bool(has_bias)
        shape = (out_channels, in_channels)
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != shape:
            raise ValueError(f"For '{name}', weight_init shape {tuple(weight_init.shape)} must be "
                             f"(out_channels, in_channels) = {shape}")
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, shape, dtype), name="weight")
        self.bias = None
        if self.has_bias:
            if isinstance(bias_init, Tensor) and tuple(bias_init.shape) != (out_channels,):
                raise ValueError(f"For '{name}', bias_init shape {tuple(bias_init.shape)} must be "
                                 f"(out_channels,) = ({out_channels},)")
            if bias_init is None:
                bias_init = Uniform(1 / math.sqrt(in_channels))
            self.bias = Parameter(initializer(bias_init, (out_channels,), dtype), name="bias")
        self.activation = _make_activation(activation, name)
        self.activation_flag = self.activation is not None
        self.matmul = MatMul(transpose_b=True)  # MindSpore's Dense holds its two primitives too
        self.bias_add = BiasAdd()

    def construct(self, x):
        x_shape = x.shape
        if len(x_shape) < 1 or x_shape[-1] != self.in_channels:
            raise ValueError(f"Dense: the input's last axis must have in_channels={self.in_channels} features, "
                             f"got input shape {tuple(x_shape)}")
        if len(x_shape) != 2:
            x = F.reshape(x, (-1, x_shape[-1]))
        x = self.matmul(x, self.weight)
        if self.has_bias:
            x = self.bias_add(x, self.bias)
        if self.activation_flag:
            x = self.activation(x)
        if len(x_shape) != 2:
            x = F.reshape(x, x_shape[:-1] + (self.out_channels,))
        return x

    def extend_repr(self):
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


class Flatten(Cell):
    """Merge axes ``start_dim..end_dim`` into one; by default ``(N, ...) -> (N, prod(...))``."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def construct(self, x):
        nd = len(x.shape)
        if nd == 0:
            return F.reshape(x, (1,))
        s, e = self.start_dim % nd, self.end_dim % nd
        if s > e:
            raise ValueError(f"Flatten: start_dim {self.start_dim} comes after end_dim {self.end_dim} "
                             f"for an input of rank {nd}")
        if s == e:
            return x
        shape = tuple(x.shape)
        return F.reshape(x, shape[:s] + (-1,) + shape[e + 1:])


class Dropout(Cell):
    """Randomly zero elements while training, scaling the rest by ``1 / keep_prob``; identity in eval.

    ``Dropout(keep_prob=0.8)`` (1.x) or ``Dropout(p=0.2)`` (2.x; p is the drop probability). The mask
    comes from numpy's global generator (``mslab.set_seed`` seeds it). ``net.set_train(False)``
    (the default state) makes it the identity.
    """

    def __init__(self, keep_prob=None, p=None, dtype=mstype.float32):
        super().__init__()
        if keep_prob is not None and p is not None:
            raise ValueError("For 'Dropout', give keep_prob or p, not both")
        if p is not None:
            if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0.0 <= p < 1.0:
                raise ValueError(f"For 'Dropout', p must be a float in [0, 1), got {p!r}")
            keep_prob = 1.0 - float(p)
        elif keep_prob is None:
            keep_prob = 0.5
        elif isinstance(keep_prob, bool) or not isinstance(keep_prob, (int, float)) or not 0.0 < keep_prob <= 1.0:
            raise ValueError(f"For 'Dropout', keep_prob must be a float in (0, 1], got {keep_prob!r}")
        self.keep_prob = float(keep_prob)
        self.p = p

    def construct(self, x):
        if not self.training or self.keep_prob == 1.0:
            return x
        return F.dropout(x, keep_prob=self.keep_prob)

    def extend_repr(self):
        return f"p={self.p}" if self.p is not None else f"keep_prob={self.keep_prob}"


class ClipByNorm(Cell):
    """Rescale x so that its L2 norm is at most ``clip_norm``: ``x * clip_norm / max(||x||, clip_norm)``.

    ``axis`` (None: every axis) says over which axes the norm is taken (``mindspore.nn.ClipByNorm``);
    called as ``ClipByNorm()(x, clip_norm)``. An all-zero x stays zero.
    """

    def __init__(self, axis=None):
        super().__init__()
        self.axis = () if axis is None else axis

    def construct(self, x, clip_norm):
        l2sum = F.reduce_sum(F.square(x), self.axis, True)
        positive = F.greater(l2sum, 0.0)
        # sqrt only where the sum is positive, so the gradient at an all-zero x stays finite
        l2norm = F.select(positive, F.sqrt(F.select(positive, l2sum, F.ones_like(l2sum))), l2sum)
        clip_norm = F.cast(clip_norm, x.dtype) if isinstance(clip_norm, Tensor) else clip_norm
        return F.div(F.mul(x, clip_norm), F.maximum(l2norm, clip_norm))


class Identity(Cell):
    """Returns its input unchanged (``mindspore.nn.Identity``); any constructor arguments are ignored."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def construct(self, input):  # noqa: A002 - MindSpore's argument name
        return input


class OneHot(Cell):
    """One-hot encoding as a layer (``mindspore.nn.OneHot``, deprecated there for ``ops.one_hot``).

    ``OneHot(axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=float32)(indices)``: a new axis of
    length ``depth`` at ``axis``, on_value where it equals the index, off_value elsewhere (also for
    indices outside [0, depth)), in ``dtype``.
    """

    def __init__(self, axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=mstype.float32):
        super().__init__()
        self.axis, self.depth, self.dtype = axis, depth, dtype
        self.on_value, self.off_value = on_value, off_value

    def construct(self, indices):
        on = F.cast(Tensor(self.on_value), self.dtype)
        off = F.cast(Tensor(self.off_value), self.dtype)
        return F.one_hot(indices, self.depth, on, off, self.axis)


class Unfold(Cell):
    """``Unfold(ksizes, strides, rates, padding="valid")``: image patches as channels, which MindSpore 2.10
    cannot compute on CPU.

    Each of ksizes, strides, rates is ``[1, row, col, 1]``. MindSpore runs it with the
    ExtractImagePatches kernel, which exists for Ascend and GPU only: on CPU the layer builds and a call
    raises RuntimeError "Unsupported op [ExtractImagePatches] on CPU"; mslab does the same.
    """

    def __init__(self, ksizes, strides, rates, padding="valid"):
        super().__init__()
        for arg, value in (("ksize", ksizes), ("stride", strides), ("rate", rates)):
            if not isinstance(value, (tuple, list)) or len(value) != 4 or value[0] != 1 or value[3] != 1:
                raise ValueError(f"For 'Unfold' the format of '{arg}s' must be [1, {arg}_row, {arg}_col, 1], but "
                                 f"got {value}.")
            if not all(isinstance(v, int) and v >= 1 for v in value[1:3]):
                raise ValueError(f"For 'Unfold' the {arg}_row and {arg}_col in '{arg}s' must be an positive integer "
                                 f"number, but got {arg}_row is {value[1]}, {arg}_col is {value[2]}")
        self.ksizes, self.strides, self.rates, self.padding = ksizes, strides, rates, padding

    def construct(self, input_x):
        raise RuntimeError("Unsupported op [ExtractImagePatches] on CPU: MindSpore 2.10 has this kernel (behind "
                           "nn.Unfold) for Ascend and GPU only, so nn.Unfold cannot run on CPU (mslab mirrors "
                           "MindSpore on CPU).")
