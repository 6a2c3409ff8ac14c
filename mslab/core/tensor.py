"""Tensor, Parameter and ParameterTuple, as in ``mindspore.common``.

A Tensor holds a numpy array. While GRAPH mode traces ``construct``, a Tensor may instead be
*symbolic*: it knows its shape and dtype and which graph value it stands for, but has no numbers
yet. Asking a symbolic tensor for numbers (``asnumpy``, ``float(x)``, ``if x > 0:``) is the
graph-mode rule a learner meets: the graph is built before any data flows through it.
"""
import numpy as np

from mslab.core import dtype as mstype
from mslab.core import state
from mslab.core.errors import GraphModeError
from mslab.core.initializer import init_array
from mslab.core.op_registry import F  # the ops Tensor's operators call (x + y -> F.add(x, y)), filled by mslab.ops


def _as_array(data, dtype):
    """numpy array from Tensor input data, with MindSpore's default dtypes (Python float -> float32)."""
    if isinstance(data, Tensor):
        arr = data.asnumpy()
    elif isinstance(data, np.ndarray):
        arr = data
    elif isinstance(data, (bool, np.bool_)):
        arr = np.array(data, np.bool_)
    elif isinstance(data, int):
        arr = np.array(data, np.int64)
    elif isinstance(data, float):
        arr = np.array(data, np.float32)
    elif isinstance(data, np.generic):
        arr = np.array(data)
    elif isinstance(data, (list, tuple)):
        items = [x.asnumpy() if isinstance(x, Tensor) else x for x in data]
        arr = np.array(items)
        if arr.dtype == np.float64 and not any(isinstance(x, np.ndarray) and x.dtype == np.float64 for x in items):
            arr = arr.astype(np.float32)
    else:
        raise TypeError(f"Tensor: cannot make a tensor from {type(data).__name__}; "
                        "give a numpy array, a Python number or a (nested) list")
    if dtype is not None:
        arr = arr.astype(mstype.to_numpy(dtype), copy=False)
    elif arr.dtype == np.float64 and not isinstance(data, (np.ndarray, np.generic, Tensor, list, tuple)):
        arr = arr.astype(np.float32)
    if arr.dtype.kind in "OUSV":
        raise TypeError(f"Tensor: cannot make a tensor from an array of {arr.dtype}")
    return arr


def _format_value(arr):
    if arr.ndim == 0:
        return " " + str(arr)
    body = np.array2string(arr, separator=", ")
    return ("\n" if arr.ndim > 1 else " ") + body


class Tensor:
    """An n-dimensional array, as ``mindspore.Tensor``.

    ``Tensor(np.ones((2, 3), np.float32))``, ``Tensor(1.5)`` (Float32), ``Tensor([1, 2])`` (Int64),
    ``Tensor(x, mstype.float16)``. Operators (``+ - * / @ **``, comparisons) and methods
    (``sum``, ``mean``, ``reshape``, ...) run mslab primitives, so they are recorded on the tape in
    PYNATIVE mode and become graph nodes in GRAPH mode.
    """

    __slots__ = ("_data", "_sym", "__weakref__")
    __array_priority__ = 100  # np_array * tensor calls Tensor.__rmul__, not numpy's elementwise loop

    def __init__(self, input_data=None, dtype=None, shape=None, init=None, const_arg=False):
        self._sym = None
        if init is not None:
            if shape is None:
                raise ValueError("Tensor: init=... needs shape=...")
            self._data = init_array(init, shape, dtype or mstype.float32)
            return
        if input_data is None:
            if shape is None:
                raise ValueError("Tensor: give input_data, or shape and dtype")
            self._data = np.zeros(shape, mstype.to_numpy(dtype or mstype.float32))
            return
        if isinstance(input_data, Tensor) and input_data._data is None:
            # Tensor(t) of a traced tensor (e.g. of a JIT Fallback result): the same graph value, cast if asked.
            same = input_data if dtype is None or mstype.to_numpy(dtype) == input_data._np_dtype else \
                F.cast(input_data, dtype)
            self._data, self._sym = None, same._sym
            return
        self._data = _as_array(input_data, dtype)

    @classmethod
    def _wrap(cls, arr):
        """Wrap a numpy array without copying or checking (the engine's fast path)."""
        t = object.__new__(Tensor)
        t._data = arr
        t._sym = None
        return t

    @classmethod
    def _symbolic(cls, value):
        """A tensor that stands for a graph value while tracing."""
        t = object.__new__(Tensor)
        t._data = None
        t._sym = value
        return t

    # ---- what a tensor is -------------------------------------------------------------------
    @property
    def is_symbolic(self):
        """True while this tensor is a placeholder in a graph being traced (no numbers yet)."""
        return self._data is None

    def _numbers(self, what):
        if self._data is None:
            raise GraphModeError(
                f"{what} needs the tensor's numbers, but this tensor is symbolic: GRAPH mode is tracing "
                f"construct to build a graph, and no data flows until the graph runs. "
                f"Return the tensor from construct and read it afterwards, or use PYNATIVE_MODE.")
        return self._data

    @property
    def shape(self):
        """The shape as a tuple of ints (known while tracing too)."""
        d = self._data
        return d.shape if d is not None else self._sym.shape

    @property
    def _np_dtype(self):
        d = self._data
        return d.dtype if d is not None else self._sym.dtype

    @property
    def dtype(self):
        """The element type, e.g. ``Float32``."""
        return mstype.from_numpy(self._np_dtype)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def itemsize(self):
        return self._np_dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self.itemsize

    def asnumpy(self):
        """The numbers as a numpy array."""
        return self._numbers("asnumpy()")

    def numpy(self):
        return self.asnumpy()

    def item(self, index=None):
        arr = self._numbers("item()")
        return arr.item() if index is None else arr.item(index)

    def tolist(self):
        return self._numbers("tolist()").tolist()

    def __array__(self, dtype=None, copy=None):
        arr = self._numbers("np.asarray(tensor)")
        return arr if dtype is None else arr.astype(dtype)

    def __bool__(self):
        if self._data is None:
            raise GraphModeError(
                "this code asks for a traced tensor's truth value (`if`/`while`/`and`/`or` on a tensor) in a place "
                "mslab's graph front end did not convert: a loop that contains `return`, a lambda, a function whose "
                "source cannot be read (typed into `python -c`, built by exec), code run with capture_mode='trace', "
                "or a library function. Move the condition into construct (or a function of your own that it "
                "calls), or compute both sides and pick with ops.select(cond, a, b).")
        if self._data.size != 1:
            raise ValueError(f"The truth value of a tensor with shape {self.shape} is ambiguous; use .any() or .all()")
        return bool(self._data)

    def _scalar(self, kind):
        if self._data is None:
            raise GraphModeError(
                f"this needs a traced tensor as a Python {kind.__name__} (a slice bound, an index, a size): its value "
                f"is unknown until the graph runs, and mslab's graphs have static shapes (MindSpore 2.10 compiles "
                f"such dynamic shapes). Use a Python number there, keep the value a tensor (ops.select, ops.gather), "
                f"or run in PYNATIVE mode.")
        return kind(self._data)

    def __float__(self):
        return self._scalar(float)

    def __int__(self):
        return self._scalar(int)

    def __index__(self):
        return self._scalar(int)

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    __hash__ = object.__hash__

    def __repr__(self):
        if self._data is None:
            return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value=<symbolic {self._sym.name}>)"
        return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value={_format_value(self._data)})"

    def __str__(self):
        if self._data is None:
            return repr(self)
        return str(self._data)

    # ---- operators (each runs one primitive) ------------------------------------------------
    def __add__(self, o): return F.add(self, o)
    def __radd__(self, o): return F.add(o, self)
    def __sub__(self, o): return F.sub(self, o)
    def __rsub__(self, o): return F.sub(o, self)
    def __mul__(self, o): return F.mul(self, o)
    def __rmul__(self, o): return F.mul(o, self)
    def __truediv__(self, o): return F.div(self, o)
    def __rtruediv__(self, o): return F.div(o, self)
    def __floordiv__(self, o): return F.floor_div(self, o)
    def __rfloordiv__(self, o): return F.floor_div(o, self)
    def __mod__(self, o): return F.floor_mod(self, o)
    def __rmod__(self, o): return F.floor_mod(o, self)
    def __pow__(self, o): return F.pow(self, o)
    def __rpow__(self, o): return F.pow(o, self)
    def __matmul__(self, o): return F.matmul(self, o)
    def __rmatmul__(self, o): return F.matmul(o, self)
    def __neg__(self): return F.neg(self)
    def __pos__(self): return self
    def __abs__(self): return F.abs(self)
    def __invert__(self): return F.logical_not(self)
    def __and__(self, o): return F.logical_and(self, o)
    def __or__(self, o): return F.logical_or(self, o)
    def __eq__(self, o): return F.equal(self, o)
    def __ne__(self, o): return F.not_equal(self, o)
    def __lt__(self, o): return F.less(self, o)
    def __le__(self, o): return F.less_equal(self, o)
    def __gt__(self, o): return F.greater(self, o)
    def __ge__(self, o): return F.greater_equal(self, o)
    def __getitem__(self, index): return F.getitem(self, index)

    def __setitem__(self, index, value):
        arr = self._numbers("tensor[...] = value (in-place assignment)")
        state.before_write(arr)
        arr[index] = value.asnumpy() if isinstance(value, Tensor) else value

    # ---- methods (MindSpore's Tensor methods, each a functional op) ---------------------------
    @property
    def T(self):
        return F.transpose(self, tuple(range(self.ndim))[::-1])

    def astype(self, dtype, copy=True): return F.cast(self, dtype)
    def to(self, dtype): return F.cast(self, dtype)
    def float(self): return F.cast(self, mstype.float32)
    def int(self): return F.cast(self, mstype.int32)
    def reshape(self, *shape):
        return F.reshape(self, shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape)
    def view(self, *shape): return self.reshape(*shape)
    def flatten(self): return F.reshape(self, (-1,))
    def ravel(self): return F.reshape(self, (-1,))
    def expand_dims(self, axis): return F.expand_dims(self, axis)
    def squeeze(self, axis=()): return F.squeeze(self, axis)

    def transpose(self, *axes):
        if not axes:
            axes = tuple(range(self.ndim))[::-1]
        elif len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        return F.transpose(self, axes)

    def sum(self, axis=None, keepdims=False): return F.reduce_sum(self, () if axis is None else axis, keepdims)
    def mean(self, axis=None, keep_dims=False): return F.reduce_mean(self, () if axis is None else axis, keep_dims)
    def max(self, axis=None, keepdims=False): return F.reduce_max(self, () if axis is None else axis, keepdims)
    def min(self, axis=None, keepdims=False): return F.reduce_min(self, () if axis is None else axis, keepdims)
    # No axis: the index in the flattened tensor, as MindSpore's documentation says and its PYNATIVE mode
    # does (observed on 2.10: GRAPH mode there uses the last axis instead; mslab follows PYNATIVE in both).
    # Observed dtypes: argmax Int64, argmin Int32; keepdims is ignored without an axis.
    def argmax(self, axis=None, keepdims=False): return F.argmax(self, axis, keepdims and axis is not None)

    def argmin(self, axis=None, keepdims=False):
        return F.cast(F.argmin(self, axis, keepdims and axis is not None), mstype.int32)

    def abs(self): return F.abs(self)
    def exp(self): return F.exp(self)
    def log(self): return F.log(self)
    def sqrt(self): return F.sqrt(self)
    def square(self): return F.square(self)
    def clip(self, xmin, xmax): return F.clip_by_value(self, xmin, xmax)
    def all(self, axis=(), keep_dims=False): return F.reduce_all(self, axis, keep_dims)
    def any(self, axis=(), keep_dims=False): return F.reduce_any(self, axis, keep_dims)
    # MindSpore 2.x names (Tensor.prod takes dim, not axis: prod(axis=1) is a TypeError there too)
    def prod(self, dim=None, keepdim=False, dtype=None): return F.prod(self, dim, keepdim, dtype)
    def std(self, axis=None, ddof=0, keepdims=False): return F.std(self, axis, ddof, keepdims)
    def var(self, axis=None, ddof=0, keepdims=False): return F.var(self, axis, ddof, keepdims)
    def swapaxes(self, axis0, axis1): return F.swapaxes(self, axis0, axis1)
    def unsqueeze(self, dim): return F.expand_dims(self, dim)
    def nelement(self): return self.size

    def copy(self):
        return Tensor._wrap(self._numbers("copy()").copy())

    def set_dtype(self, dtype):
        self._data = self._numbers("set_dtype").astype(mstype.to_numpy(dtype))
        return self

    def init_data(self):
        """MindSpore initialises lazily; mslab tensors hold their numbers from the start."""
        return self

    def has_init(self):
        return False


def tensor(input_data=None, dtype=None, shape=None, init=None, const_arg=False, device=None):
    """``mindspore.tensor(...)``: the lowercase constructor of MindSpore 2.x, the same as ``Tensor(...)``
    (``ms.tensor([1, 2])`` is Int64, as ``Tensor([1, 2])``). ``device`` is accepted; mslab runs on the CPU."""
    return Tensor(input_data, dtype, shape, init, const_arg)


class Parameter(Tensor):
    """A trainable Tensor with a name, as ``mindspore.Parameter``.

    ``Parameter(Tensor(np.ones((1, 1)), mstype.float32), name="fc.weight", requires_grad=True)``.
    Optimizers update its numbers in place (MindSpore's ``Assign``), so every graph that reads it sees
    the new value. A Parameter left unnamed takes the attribute name it is assigned to in a Cell.
    """

    __slots__ = ("_name", "requires_grad", "layerwise_parallel", "parallel_optimizer", "_auto_named", "__dict__")

    def __init__(self, default_input, name=None, requires_grad=True, layerwise_parallel=False,
                 parallel_optimizer=True):
        self._sym = None
        if isinstance(default_input, Tensor):
            arr = default_input.asnumpy()
        elif hasattr(default_input, "to_array"):  # an Initializer whose shape is known
            arr = default_input.to_array()
        else:
            arr = _as_array(default_input, None)
        # A parameter owns its numbers: optimizers write into them in place.
        self._data = np.array(arr, copy=True)
        self._name = name
        self._auto_named = name is None
        self.requires_grad = bool(requires_grad)
        self.layerwise_parallel = layerwise_parallel
        self.parallel_optimizer = parallel_optimizer

    @property
    def name(self):
        return self._name if self._name is not None else "Parameter"

    @name.setter
    def name(self, value):
        if not isinstance(value, str):
            raise TypeError(f"Parameter name must be a str, got {type(value).__name__}")
        self._name = value
        self._auto_named = False

    @property
    def data(self):
        return self

    def value(self):
        """The current numbers as a plain Tensor (a copy: later updates do not change it)."""
        return Tensor._wrap(self._data.copy())

    def asnumpy(self):
        """A copy of the current numbers (optimizers update the parameter in place)."""
        return self._data.copy()

    def set_data(self, data, slice_shape=False):
        """Replace the numbers; the new data must have the same shape and is cast to this dtype."""
        arr = data.asnumpy() if isinstance(data, Tensor) else _as_array(data, None)
        if arr.shape != self._data.shape and not slice_shape:
            raise ValueError(f"Parameter '{self.name}'.set_data: new shape {arr.shape} differs from the "
                             f"parameter's shape {self._data.shape}")
        self._data = np.array(arr, dtype=self._data.dtype, copy=True)
        return self

    def clone(self, init="same"):
        """A new Parameter with the same name, flags and (for init='same') a copy of the numbers."""
        if init == "same":
            arr = self._data
        else:
            arr = init_array(init, self._data.shape, mstype.from_numpy(self._data.dtype))
        p = Parameter(Tensor._wrap(arr), self._name, self.requires_grad, self.layerwise_parallel,
                      self.parallel_optimizer)
        p._auto_named = self._auto_named
        return p

    def __repr__(self):
        return (f"Parameter (name={self.name}, shape={tuple(self.shape)}, dtype={self.dtype}, "
                f"requires_grad={self.requires_grad})")

    def __reduce__(self):
        return (Parameter, (Tensor._wrap(self._data), self._name, self.requires_grad))


class ParameterTuple(tuple):
    """A tuple of Parameters only, as ``mindspore.ParameterTuple`` (e.g. an optimizer's ``parameters``)."""

    def __new__(cls, iterable=()):
        items = tuple(iterable)
        for i, p in enumerate(items):
            if not isinstance(p, Parameter):
                raise TypeError(f"ParameterTuple: item {i} is a {type(p).__name__}, not a Parameter")
        return super().__new__(cls, items)

    def clone(self, prefix, init="same"):
        """Clones named ``prefix.<name>``: how optimizers make their state (``moments.fc.weight``)."""
        out = []
        for p in self:
            c = p.clone(init)
            c.name = f"{prefix}.{p.name}"
            out.append(c)
        return ParameterTuple(out)

    def __repr__(self):
        return "ParameterTuple(" + ", ".join(p.name for p in self) + ")"


def initializer(init, shape=None, dtype=mstype.float32):
    """A Tensor of ``shape`` and ``dtype`` made by ``init`` (``mindspore.common.initializer.initializer``).

    ``init`` is an Initializer, a name (``"ones"``, ``"zeros"``, ``"normal"``, ``"truncatednormal"``,
    ``"uniform"``, ``"xavier_uniform"``, ``"he_uniform"``, ``"he_normal"``), a number (every element that
    value), or a Tensor / numpy array (copied; its shape must match; a Tensor keeps its own dtype, as in
    MindSpore).
    """
    return Tensor._wrap(init_array(init, shape, dtype))
