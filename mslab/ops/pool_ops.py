"""Pooling primitives (NCHW): MaxPool, AvgPool and their backward kernels.

Each backward is a primitive of its own (``MaxPoolGrad``, ``AvgPoolGrad``), as in MindSpore, so a
backward graph shows them as nodes. The numpy kernels (strided windows) live in ``conv_kernels``; the
geometry (padding, output size) is worked out once per node at compile time.
"""
from mslab.core.op_registry import op_table
from mslab.ops import conv_kernels as K
from mslab.ops.primitive import Primitive, check_float, hashable, instance

__all__ = [
    "AvgPool",
    "AvgPoolGrad",
    "MaxPool",
    "MaxPoolGrad",
    "MaxPoolGradGrad",
]


def _shape(v):
    return tuple(v.shape)


# ---- pooling ------------------------------------------------------------------------------------------------
class _PoolBase(Primitive):
    """kernel_size, strides: int or (h, w); pad_mode "valid" | "same" (| "pad" with ``pad``, an mslab extension
    for the functional forms' explicit padding)."""

    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW", pad=0):
        name = type(self).__name__
        pad_mode = K.pad_mode_of(pad_mode, ("valid", "same", "pad"))
        if data_format != "NCHW":
            raise ValueError(f"{name}: only data_format='NCHW' is supported, got {data_format!r}")
        attrs = dict(kernel_size=K.pair(kernel_size, f"{name} kernel_size"), strides=K.pair(strides, f"{name} strides"),
                     pad_mode=pad_mode, data_format=data_format)
        if pad_mode == "pad":
            attrs["pad"] = K.four_pads(pad)
        elif pad not in (0, None):
            raise ValueError(f"{name}: pad={pad!r} needs pad_mode='pad'")
        super().__init__(**attrs)

    def _sibling(self, cls):
        cache = self.__dict__.setdefault("_siblings", {})
        if cls not in cache:
            cache[cls] = cls(**self.attrs)
        return cache[cls]

    def _geometry(self, x_shape):
        return K.window_geometry(x_shape, self.kernel_size, self.strides, (1, 1), self.pad_mode,
                                 self.attrs.get("pad", (0, 0, 0, 0)))

    def _out(self, x):
        check_float(self, x)
        if len(x.shape) != 4:
            raise ValueError(f"needs x of shape (N, C, H, W), got {_shape(x)}")
        _, (oh, ow) = self._geometry(_shape(x))
        return _shape(x)[:2] + (oh, ow)

    def _check_grad(self, x, out, dout):
        expected = self._out(x)
        if _shape(out) != expected or _shape(dout) != expected:
            raise ValueError(f"out and dout of shape {expected} expected for x {_shape(x)}, got "
                             f"{_shape(out)} and {_shape(dout)}")
        return _shape(x), x.dtype


class MaxPool(_PoolBase):
    """Maximum over each kh x kw window (``MaxPool(kernel_size, strides, pad_mode)(x)``), NCHW.

    d/dx = MaxPoolGrad: each window's dout goes to its (first) maximum, one position per window.
    """

    n_tensors = 1

    def infer(self, x):
        return self._out(x), x.dtype

    def compute(self, x):
        pads, out_hw = self._geometry(x.shape)
        return K.max_pool(x, self.kernel_size, self.strides, pads, out_hw)

    def kernel(self, ins):
        (pads, out_hw), ks, st = self._geometry(tuple(ins[0].shape)), self.kernel_size, self.strides
        return lambda x: K.max_pool(x, ks, st, pads, out_hw)

    def bprop(self, x, out, dout):
        return (self._sibling(MaxPoolGrad)(x, out, dout),)


class MaxPoolGrad(_PoolBase):
    """MaxPool's backward kernel ``(x, out, dout) -> dx``: dout routed to each window's argmax.

    Its gradient for dout is MaxPoolGradGrad (g read at the argmax); x and out get none (the
    routing is piecewise constant).
    """

    n_tensors = 3

    def infer(self, x, out, dout):
        return self._check_grad(x, out, dout)

    def compute(self, x, out, dout):
        pads, out_hw = self._geometry(x.shape)
        return K.max_pool_grad(x, out, dout, self.kernel_size, self.strides, pads, out_hw)

    def kernel(self, ins):
        (pads, out_hw), ks, st = self._geometry(tuple(ins[0].shape)), self.kernel_size, self.strides
        return lambda x, out, dout: K.max_pool_grad(x, out, dout, ks, st, pads, out_hw)

    def bprop(self, x, out, dout, o, g):
        return None, None, self._sibling(MaxPoolGradGrad)(x, out, g)


class MaxPoolGradGrad(_PoolBase):
    """``(x, out, grad) -> grad`` read at each window's argmax (shape of out): MaxPoolGrad's gradient."""

    n_tensors = 3

    def infer(self, x, out, grad):
        if _shape(grad) != _shape(x):
            raise ValueError(f"grad shape {_shape(grad)} differs from x shape {_shape(x)}")
        self._check_grad(x, out, out)
        return _shape(out), x.dtype

    def compute(self, x, out, grad):
        pads, out_hw = self._geometry(x.shape)
        return K.max_pool_grad_grad(x, out, grad, self.kernel_size, self.strides, pads, out_hw)

    def bprop(self, x, out, grad, o, g):
        return None, None, self._sibling(MaxPoolGrad)(x, out, g)


class AvgPool(_PoolBase):
    """Mean over each kh x kw window (``AvgPool(kernel_size, strides, pad_mode)(x)``), NCHW.

    With pad_mode "same" the padding is not counted (each window divides by its real elements, as
    MindSpore/TensorFlow); with "pad" it is (PyTorch's count_include_pad=True). d/dx = AvgPoolGrad.
    """

    n_tensors = 1

    def infer(self, x):
        return self._out(x), x.dtype

    def compute(self, x):
        pads, out_hw = self._geometry(x.shape)
        return K.avg_pool(x, self.kernel_size, self.strides, pads, out_hw, self.pad_mode == "pad")

    def bprop(self, x, out, dout):
        return (self._sibling(AvgPoolGrad)(x, out, dout),)


class AvgPoolGrad(_PoolBase):
    """AvgPool's backward kernel ``(x, out, dout) -> dx``: each window's dout / count spread over it.

    Linear in dout: its gradient for dout is AvgPool(g); x and out (read for their shapes) get none.
    """

    n_tensors = 3

    def infer(self, x, out, dout):
        return self._check_grad(x, out, dout)

    def compute(self, x, out, dout):
        pads, out_hw = self._geometry(x.shape)
        return K.avg_pool_grad(x.shape, dout, self.kernel_size, self.strides, pads, out_hw, self.pad_mode == "pad")

    def bprop(self, x, out, dout, o, g):
        return None, None, self._sibling(AvgPool)(g)


# ---- functional forms ---------------------------------------------------------------------------------
def _pool(cls, x, kernel_size, stride, padding, pad_mode):
    if stride is None:
        stride = kernel_size
    if padding not in (0, (0, 0), (0, 0, 0, 0)):
        if str(pad_mode).lower() != "valid":
            raise ValueError(f"give either padding={padding!r} or pad_mode={pad_mode!r}, not both")
        return instance(cls, kernel_size=hashable(kernel_size), strides=hashable(stride), pad_mode="pad",
                        pad=hashable(padding))(x)
    return instance(cls, kernel_size=hashable(kernel_size), strides=hashable(stride), pad_mode=pad_mode)(x)


def max_pool2d(x, kernel_size, stride=None, padding=0, pad_mode="valid"):
    """Maximum over kh x kw windows of x (N, C, H, W); ``stride`` defaults to ``kernel_size``.

    ``padding`` (int or 4 ints) pads with -inf; ``pad_mode="same"`` pads as MindSpore's MaxPool.
    """
    return _pool(MaxPool, x, kernel_size, stride, padding, pad_mode)


def avg_pool2d(x, kernel_size=1, stride=1, padding=0, pad_mode="valid"):
    """Mean over kh x kw windows of x (N, C, H, W).

    ``padding`` pads with zeros that count in the mean (count_include_pad=True); ``pad_mode="same"``
    does not count its padding (MindSpore's AvgPool).
    """
    return _pool(AvgPool, x, kernel_size, stride, padding, pad_mode)


__all__ += ["max_pool2d", "avg_pool2d"]
op_table.register(globals(), __all__)
