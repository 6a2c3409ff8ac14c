"""General transforms, as ``mindspore.dataset.transforms``: TypeCast, OneHot, Compose.

    >>> import numpy as np
    >>> from mslab.core import dtype as mstype
    >>> TypeCast(mstype.int32)(np.uint32(7)).dtype
    dtype('int32')
    >>> OneHot(3)(np.array(1))
    array([0, 1, 0])
"""
import numpy as np

from mslab.core import dtype as mstype


class Transform:
    """Base of the transforms: ``transform(value) -> value`` on numpy arrays."""

    def __call__(self, *values):
        values = tuple(v.asnumpy() if hasattr(v, "asnumpy") else np.asarray(v) for v in values)
        return self.apply(*values)

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({args})"


class TypeCast(Transform):
    """Cast to ``dtype`` (an mstype such as ``mstype.int32``, a numpy dtype, or a Python type)."""

    def __init__(self, data_type):
        self.data_type = data_type
        self._np = mstype.to_numpy(data_type)

    def apply(self, x):
        return x.astype(self._np)


class OneHot(Transform):
    """Integer labels -> one-hot vectors of length ``num_classes`` (same dtype as the labels).

    With ``smoothing_rate`` s > 0 the result is float32: ``(1 - s) * one_hot + s / num_classes``.
    """

    def __init__(self, num_classes, smoothing_rate=0.0):
        if int(num_classes) < 1:
            raise ValueError(f"OneHot: num_classes must be >= 1, got {num_classes}")
        self.num_classes = int(num_classes)
        self.smoothing_rate = float(smoothing_rate)

    def apply(self, x):
        if x.dtype.kind not in "ui":
            raise TypeError(f"OneHot: labels must be integers, got {x.dtype}")
        if x.size and (x.min() < 0 or x.max() >= self.num_classes):
            raise ValueError(f"OneHot: labels must be in [0, {self.num_classes}), got values {np.unique(x)[:10]}")
        out = (x[..., None] == np.arange(self.num_classes)).astype(x.dtype)
        if self.smoothing_rate:
            s = np.float32(self.smoothing_rate)
            out = out.astype(np.float32) * (1 - s) + s / self.num_classes
        return out


class Compose(Transform):
    """Several transforms as one: ``Compose([a, b])(x) == b(a(x))``."""

    def __init__(self, transforms):
        self.transforms = list(transforms)

    def __call__(self, *values):
        for t in self.transforms:
            out = t(*values)
            values = tuple(out) if isinstance(out, (tuple, list)) else (out,)
        return values[0] if len(values) == 1 else values
