"""User-defined operators: ``ops.Custom``.

``Custom(func, out_shape, out_dtype, func_type="pyfunc", bprop=None)`` makes an operator of a Python
function on numpy arrays: ``func(*arrays)`` runs whenever the op runs (every call in PYNATIVE mode, every run
of a compiled graph), and ``out_shape`` / ``out_dtype`` (constants, or functions of the inputs' shapes and
dtypes) say what it gives, so a graph can be compiled around it. Several outputs: tuples of shapes and dtypes
(the function then runs once per output). Its gradient is ``bprop(*inputs, out, dout)`` on Tensors, returning
one gradient per input; without a bprop, differentiating through it is an error, as in MindSpore.

The other func_types build or load compiled kernels ('aot': a shared library, 'akg', 'tbe', 'hybrid',
'aicpu'): mslab accepts them as MindSpore 2.10 does (the same argument checks and messages, observed on
CPU) and raises a RuntimeError when such an op is called, since a numpy engine cannot run them.
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core.op_registry import op_table
from mslab.ops.primitive import Primitive

__all__ = ["Custom"]

_FUNC_TYPES = ["hybrid", "akg", "tbe", "aicpu", "aot", "pyfunc"]


def _check(func, func_type, out_shape, out_dtype, reg_info):
    where = f"For 'Custom', 'func_type': {func_type}, 'func': {func}"
    if func_type not in _FUNC_TYPES:
        raise ValueError(f"{where}, 'func_type' must be one of {_FUNC_TYPES}, but got {func_type}")
    if func_type == "aot" and not isinstance(func, str):
        raise TypeError(f"{where}, 'func' must be of type str, but got {type(func)}")
    if func_type == "tbe" and not callable(func):
        raise TypeError(f"{where}, 'func' must be of type function, but got {type(func)}")
    if func_type == "hybrid":
        raise TypeError(f"{where}, 'func' must be a function decorated by kernel")
    if func_type == "akg" and not callable(func):
        raise TypeError(f"'{func}' is not a callable object")
    if func_type == "aicpu" and reg_info is None:
        raise ValueError(f"{where}, the registration information must be set, but current is None. Use "
                         f"'CustomRegOp' to generate the registration information, then pass it to 'reg_info'")
    if func_type == "pyfunc":
        if not callable(func):
            raise TypeError(f"{where}, 'func' must be a Python function, but got {type(func)}")
        if not (isinstance(out_shape, (tuple, list)) or callable(out_shape)):
            raise TypeError(f"{where}, 'out_shape' must be one of [tuple, list, function], but got {type(out_shape)}")
        if not (isinstance(out_dtype, (mstype.Type, tuple, list)) or callable(out_dtype)):
            raise TypeError(f"{where}, 'out_dtype' must be one of [mindspore.dtype, tuple, list, function], but got "
                            f"{type(out_dtype)}")


def _shape(s):
    shape = tuple(int(d) for d in s)
    return shape if shape else (1,)  # MindSpore 2.10 on CPU gives shape (1,) for out_shape () (observed)


class Custom(Primitive):
    """``ops.Custom(func, out_shape, out_dtype, func_type="pyfunc", bprop=None, reg_info=None)`` (module docstring)."""

    deterministic = False  # a Python function may read anything: run it every time, never fold or merge it
    bprop_replayable = False  # the user's bprop function runs on every backward

    def __init__(self, func, out_shape=None, out_dtype=None, func_type=None, bprop=None, reg_info=None):
        if func_type is None:  # MindSpore's default on CPU: a Python function runs as pyfunc (observed)
            func_type = "pyfunc" if callable(func) else "aot"
        _check(func, func_type, out_shape, out_dtype, reg_info)
        super().__init__(func=func, out_shape=out_shape, out_dtype=out_dtype, func_type=func_type)
        self.user_bprop, self.index = bprop, None

    @property
    def multi_output(self):
        return isinstance(self.out_dtype, (tuple, list))

    def __call__(self, *args):
        if self.func_type != "pyfunc":
            raise RuntimeError(f"Custom(func_type={self.func_type!r}, func={self.func!r}) builds or loads a compiled "
                               f"kernel, which mslab cannot run; only func_type='pyfunc' (a Python function on numpy "
                               f"arrays) runs in mslab")
        if not self.multi_output or self.index is not None:
            return super().__call__(*args)
        return tuple(self._output(i)(*args) for i in range(len(self.out_dtype)))

    def _output(self, i):
        """This op restricted to output ``i`` (one node per output)."""
        part = self.__dict__.setdefault("_parts", {}).get(i)
        if part is None:
            part = self._parts[i] = Custom(self.func, self.out_shape, self.out_dtype, "pyfunc", self.user_bprop)
            part.index = i
        return part

    def _pick(self, values):
        return values[self.index] if self.index is not None else values

    def infer(self, *xs):
        shapes, dtypes = [tuple(x.shape) for x in xs], [mstype.from_numpy(x.dtype) for x in xs]
        shape = self.out_shape(*shapes) if callable(self.out_shape) else self.out_shape
        dtype = self.out_dtype(*dtypes) if callable(self.out_dtype) else self.out_dtype
        return _shape(self._pick(shape)), mstype.to_numpy(self._pick(dtype))

    def compute(self, *arrays):
        shape, dtype = self.infer(*arrays)
        result = self._pick(self.func(*[np.array(a) for a in arrays]))  # writable copies, as MindSpore passes
        if result is None:
            raise TypeError(f"Custom: {getattr(self.func, '__name__', self.func)} returned None; it must return "
                            f"an array of shape {shape} and dtype {mstype.from_numpy(dtype)}")
        if not isinstance(result, np.ndarray):
            result = np.asarray(result, dtype)  # a Python number
        expected = int(np.prod(shape)) * dtype.itemsize
        if result.dtype != dtype or result.nbytes != expected:
            raise TypeError(f"Custom: {getattr(self.func, '__name__', self.func)} returned {result.dtype}"
                            f"{list(result.shape)}, but out_shape/out_dtype say {mstype.from_numpy(dtype)}"
                            f"{list(shape)} (MindSpore copies the bytes and fails with 'memcpy failed' when their "
                            f"sizes differ)")
        return result.reshape(shape)

    def bprop(self, *args):
        if self.user_bprop is None:
            raise RuntimeError("Illegal primitive Custom's bprop not defined: give Custom(..., bprop=fn) with "
                               "fn(*inputs, out, dout) returning one gradient per input")
        if self.index is not None:
            raise RuntimeError("Custom: gradients through an op with several outputs are not supported in mslab")
        grads = self.user_bprop(*args)
        return tuple(grads) if isinstance(grads, (tuple, list)) else (grads,)


op_table.register(globals(), __all__)
