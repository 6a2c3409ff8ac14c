"""General transforms, as ``mindspore.dataset.transforms``: TypeCast, OneHot, Compose, RandomApply, RandomChoice.

Every transform is a :class:`TensorOperation` and a :class:`PyTensorOperation` (as in MindSpore 2.10,
where ``issubclass(vision.Invert, PyTensorOperation)`` is True); users subclass them for their own.

    >>> import numpy as np
    >>> from mslab.core import dtype as mstype
    >>> TypeCast(mstype.int32)(np.uint32(7)).dtype
    dtype('int32')
    >>> OneHot(3)(np.array(1))
    array([0, 1, 0])
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.dataset import config


class TensorOperation:
    """MindSpore's base of the C++ transforms. A subclass gives ``__call__`` (mslab's ``map`` calls it;
    MindSpore's ``map`` asks a TensorOperation subclass for a C++ ``parse()`` and raises without one)."""

    def __call__(self, *values):
        raise NotImplementedError("TensorOperation has to implement parse() method.")  # MindSpore's message


class PyTensorOperation:
    """MindSpore's base of the Python transforms: a subclass gives ``__call__`` or ``_execute_py(*values)``."""

    random = False

    def __call__(self, *values):
        return self._execute_py(*values)


class Transform(TensorOperation, PyTensorOperation):
    """Base of mslab's transforms: ``transform(value) -> value`` on numpy arrays."""

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


def is_pil(value):
    """Whether ``value`` is a Pillow image (checked without importing Pillow, an optional dependency)."""
    return any(c.__module__ == "PIL.Image" and c.__name__ == "Image" for c in type(value).__mro__)


class Compose(Transform):
    """Several transforms as one: ``Compose([a, b])(x) == b(a(x))``.

    As in MindSpore 2.10, a Compose that runs MindSpore's Python path (its input is one Pillow image, or
    one of its transforms exists only in Python there: ``ToPIL``, ``Grayscale``, ``RandomErasing``,
    ``Decode(to_pil=True)``) returns a tuple even of one value (observed:
    ``Compose([Resize((6, 5)), CenterCrop(4)])`` gives an array for an array and a 1-tuple for a Pillow image).
    """

    def __init__(self, transforms):
        self.transforms = list(transforms)

    def __call__(self, *values):
        python_path = (len(values) == 1 and is_pil(values[0])) or \
            any(getattr(t, "python_only", False) for t in self.transforms)
        values = self._run(values)
        return values if python_path or len(values) != 1 else values[0]

    def _run(self, values):
        for t in self.transforms:
            out = t(*values)
            values = tuple(out) if isinstance(out, (tuple, list)) else (out,)
        return values


class RandomOp:
    """A transform that draws random numbers: its generator is seeded from the dataset config on first use,
    so ``mslab.set_seed`` repeats the draws (they are not MindSpore's own draws)."""

    _rng = None

    @property
    def rng(self):
        if self._rng is None:
            self._rng = np.random.default_rng(config.launch_seed())
        return self._rng


def _transforms(transforms, what):
    if not isinstance(transforms, list):
        raise TypeError(f"{what}: transforms must be a list, got {type(transforms).__name__}")
    if not transforms:
        raise ValueError("transforms list can not be empty.")  # MindSpore's message
    for t in transforms:
        if not callable(t):
            raise TypeError(f"{what}: transform {t!r} is not callable")
    return list(transforms)


class RandomApply(RandomOp, Compose):
    """With probability ``prob``, apply all of ``transforms`` in order; otherwise pass the input through."""

    def __init__(self, transforms, prob=0.5):
        super().__init__(_transforms(transforms, "RandomApply"))
        if isinstance(prob, bool) or not isinstance(prob, (int, float)) or not 0 <= prob <= 1:
            raise ValueError("Input prob is not within the required interval of [0, 1].")  # MindSpore's message
        self.prob = prob

    def __call__(self, *values):
        if self.rng.random() < self.prob:
            values = self._run(values)
        return values[0] if len(values) == 1 else values


class RandomChoice(RandomOp, Compose):
    """Apply one of ``transforms``, chosen uniformly at random for each input."""

    def __init__(self, transforms):
        super().__init__(_transforms(transforms, "RandomChoice"))

    def __call__(self, *values):
        return self.transforms[self.rng.integers(len(self.transforms))](*values)


class RandomSelectSubpolicy(RandomOp, Transform):
    """One sub-policy of ``policy``, chosen at random, is applied: each of its ``(op, prob)`` pairs runs
    with probability ``prob``, in order (the AutoAugment policies are written this way)."""

    def __init__(self, policy):
        if not isinstance(policy, list) or not policy:
            raise ValueError("policy can not be empty.")  # MindSpore's messages
        for i, sub in enumerate(policy):
            for j, pair in enumerate(sub):
                if not isinstance(pair, tuple) or len(pair) != 2:
                    raise ValueError(f"Value policy[{i}][{j}] needs to be a 2-tuple.")
                if not callable(pair[0]):
                    raise TypeError(f"RandomSelectSubpolicy: policy[{i}][{j}][0] is not callable: {pair[0]!r}")
                if not 0 <= pair[1] <= 1:
                    raise ValueError(f"Input prob of (op, prob) policy[{i}][{j}] is not within the required interval "
                                     f"of [0, 1].")
        self.policy = policy

    def __call__(self, *values):
        for op, prob in self.policy[self.rng.integers(len(self.policy))]:
            if self.rng.random() < prob:
                out = op(*values)
                values = tuple(out) if isinstance(out, (tuple, list)) else (out,)
        return values[0] if len(values) == 1 else values
