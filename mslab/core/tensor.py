"""Tensor, Parameter and ParameterTuple, as in ``mindspore.common``.

A Tensor holds a numpy array. While GRAPH mode traces ``construct``, a Tensor may instead be
*symbolic*: it knows its shape and dtype and which graph value it stands for, but has no numbers
yet. Asking a symbolic tensor for numbers (``asnumpy``, ``float(x)``, ``if x > 0:``) is the
graph-mode rule a learner meets: the graph is built before any data flows through it.
"""
from __future__ import annotations

import builtins
import itertools
import weakref
from typing import Any, Iterator

import numpy as np

from mslab.core import dtype as mstype
from mslab.core import state, tensor_hooks
from mslab.core.errors import GraphModeError
from mslab.core.initializer import init_array
from mslab.core.op_registry import op_table  # what Tensor's operators call (x + y: op_table.add), filled by mslab.ops
from mslab.core.tensor_inplace import InplaceMethods
from mslab.core.tensor_text import tensor_repr


def _as_array(data: Any, dtype: Any) -> np.ndarray:
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
        try:
            arr = np.array(items)
        except ValueError:  # nested lists of different lengths: MindSpore 2.10's TypeError (observed)
            raise TypeError(f"For Tensor, the input_data is {data} that contain unsupported element. (Its nested "
                            "lists differ in length: a tensor needs a rectangular shape.)") from None
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


# MindSpore names an unnamed Parameter "Parameter#<n>" from a process-wide counter (a Cell renames it to the
# attribute it is assigned to). Importing MindSpore 2.10 already uses #0 and #1, so a learner's first unnamed
# Parameter prints as Parameter#2 there (observed on MindSpore 2.10 CPU); mslab starts at 2 to match.
_next_parameter_id = itertools.count(2)


def _generated_parameter_name():
    return f"Parameter#{next(_next_parameter_id)}"


class Tensor(InplaceMethods):
    """An n-dimensional array, as ``mindspore.Tensor``.

    ``Tensor(np.ones((2, 3), np.float32))``, ``Tensor(1.5)`` (Float32), ``Tensor([1, 2])`` (Int64),
    ``Tensor(x, mstype.float16)``. Operators (``+ - * / @ **``, comparisons) and methods
    (``sum``, ``mean``, ``reshape``, ...) run mslab primitives, so they are recorded on the tape in
    PYNATIVE mode and become graph nodes in GRAPH mode.
    """

    __slots__ = ("_data", "_sym", "__weakref__")
    __array_priority__ = 100  # np_array * tensor calls Tensor.__rmul__, not numpy's elementwise loop
    _data: np.ndarray | None  # the numbers; None while the tensor is symbolic (GRAPH mode tracing)
    _sym: Any  # the graph value (mslab.ir.node.Value) a symbolic tensor stands for, else None

    def __init__(self, input_data: Any = None, dtype: Any = None, shape: Any = None, init: Any = None,
                 const_arg: bool = False) -> None:
        self._sym = None
        if init is not None:  # numbers drawn by init_data() (or asnumpy()), as MindSpore 2.10 does
            if shape is None or dtype is None:  # MindSpore 2.10's ValueError and text (observed on CPU)
                raise ValueError("init, dtype and shape must have values at the same time.")
            _DATA_SLOT.__set__(self, None)
            _pend(self, (init, shape, dtype))
            self.__class__ = _UninitializedTensor
            return
        if input_data is None:
            if shape is None:
                raise ValueError("Tensor: give input_data, or shape and dtype")
            self._data = np.zeros(shape, mstype.to_numpy(dtype or mstype.float32))
            return
        if isinstance(input_data, Tensor) and input_data._data is None:
            # Tensor(t) of a traced tensor (e.g. of a JIT Fallback result): the same graph value, cast if asked.
            same = input_data if dtype is None or mstype.to_numpy(dtype) == input_data._np_dtype else \
                op_table.cast(input_data, dtype)
            self._data, self._sym = None, same._sym
            return
        self._data = _as_array(input_data, dtype)

    @classmethod
    def _wrap(cls, arr: np.ndarray) -> Tensor:
        """Wrap a numpy array without copying or checking (the engine's fast path)."""
        t = object.__new__(Tensor)
        t._data = arr
        t._sym = None
        return t

    @staticmethod
    def from_numpy(array: np.ndarray) -> Tensor:
        """A Tensor sharing ``array``'s memory (``Tensor.from_numpy``): writes to either show in both."""
        if not isinstance(array, np.ndarray):
            raise TypeError("Expected a NumPy array.")  # MindSpore 2.10's message (observed on CPU)
        return Tensor._wrap(array)

    @classmethod
    def _symbolic(cls, value: Any) -> Tensor:
        """A tensor that stands for a graph value while tracing."""
        t = object.__new__(Tensor)
        t._data = None
        t._sym = value
        return t

    # ---- what a tensor is -------------------------------------------------------------------
    @property
    def is_symbolic(self) -> bool:
        """True while this tensor is a placeholder in a graph being traced (no numbers yet)."""
        return self._data is None

    def _numbers(self, what: str) -> np.ndarray:
        if self._data is None:
            raise GraphModeError(
                f"{what} needs the tensor's numbers, but this tensor is symbolic: GRAPH mode is tracing "
                f"construct to build a graph, and no data flows until the graph runs. "
                f"Return the tensor from construct and read it afterwards, or use PYNATIVE_MODE.")
        return self._data

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape as a tuple of ints (known while tracing too)."""
        d = self._data
        return d.shape if d is not None else self._sym.shape

    @property
    def _np_dtype(self) -> np.dtype:
        d = self._data
        return d.dtype if d is not None else self._sym.dtype

    @property
    def dtype(self) -> mstype.Type:
        """The element type, e.g. ``Float32``."""
        return mstype.from_numpy(self._np_dtype)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def itemsize(self) -> int:
        return self._np_dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.itemsize

    @property
    def strides(self) -> tuple[int, ...]:
        """Bytes from one element to the next along each axis, row-major: ``(12, 4)`` for a float32 (2, 3) tensor.

        In bytes, as MindSpore 2.10's ``Tensor.strides`` (observed on CPU, also for a transposed tensor: a tensor's
        numbers are laid out afresh in its own shape)."""
        steps, step = [], self.itemsize
        for n in reversed(self.shape):
            steps.append(step)
            step *= n
        return tuple(reversed(steps))

    def asnumpy(self) -> np.ndarray:
        """The numbers as a numpy array."""
        return self._numbers("asnumpy()")

    def numpy(self) -> np.ndarray:
        return self.asnumpy()

    def item(self, index: Any = None) -> Any:
        arr = self._numbers("item()")
        return arr.item() if index is None else arr.item(index)

    def tolist(self) -> Any:
        return self._numbers("tolist()").tolist()

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        arr = self._numbers("np.asarray(tensor)")
        return arr if dtype is None else arr.astype(dtype)

    def __bool__(self) -> bool:
        if self._data is None:
            raise GraphModeError(
                "this code asks for a traced tensor's truth value (`if`/`while`/`and`/`or` on a tensor) in a place "
                "mslab's graph front end did not convert: a lambda, a function whose "
                "source cannot be read (typed into `python -c`, built by exec), code run with capture_mode='trace', "
                "or a library function. Move the condition into construct (or a function of your own that it "
                "calls), or compute both sides and pick with ops.select(cond, a, b).")
        if self._data.size != 1:
            raise ValueError(f"The truth value of a tensor with shape {self.shape} is ambiguous; use .any() or .all()")
        return bool(self._data)

    def _scalar(self, kind: type) -> Any:
        if self._data is None:
            raise GraphModeError(
                f"this needs a traced tensor as a Python {kind.__name__} (a slice bound, an index, a size): its value "
                f"is unknown until the graph runs, and mslab's graphs have static shapes (MindSpore 2.10 compiles "
                f"such dynamic shapes). Use a Python number there, keep the value a tensor (ops.select, ops.gather), "
                f"or run in PYNATIVE mode.")
        return kind(self._data)

    def __float__(self) -> float:
        return self._scalar(float)

    def __int__(self) -> int:
        return self._scalar(int)

    def __index__(self) -> int:
        return self._scalar(int)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def __iter__(self) -> Iterator[Tensor]:
        for i in range(len(self)):
            yield self[i]

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        if self._data is None:
            return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value=<symbolic {self._sym.name}>)"
        return tensor_repr(self._data)

    def __str__(self) -> str:
        if self._data is None:
            return repr(self)
        return str(self._data)

    # ---- operators (each runs one primitive) ------------------------------------------------
    def __add__(self, o: Any) -> Tensor: return op_table.add(self, o)
    def __radd__(self, o: Any) -> Tensor: return op_table.add(o, self)
    def __sub__(self, o: Any) -> Tensor: return op_table.sub(self, o)
    def __rsub__(self, o: Any) -> Tensor: return op_table.sub(o, self)
    def __mul__(self, o: Any) -> Tensor: return op_table.mul(self, o)
    def __rmul__(self, o: Any) -> Tensor: return op_table.mul(o, self)
    def __truediv__(self, o: Any) -> Tensor: return op_table.div(self, o)
    def __rtruediv__(self, o: Any) -> Tensor: return op_table.div(o, self)
    def __floordiv__(self, o: Any) -> Tensor: return op_table.floor_div(self, o)
    def __rfloordiv__(self, o: Any) -> Tensor: return op_table.floor_div(o, self)
    def __mod__(self, o: Any) -> Tensor: return op_table.floor_mod(self, o)
    def __rmod__(self, o: Any) -> Tensor: return op_table.floor_mod(o, self)
    def __pow__(self, o: Any) -> Tensor: return op_table.pow(self, o)
    def __rpow__(self, o: Any) -> Tensor: return op_table.pow(o, self)
    def __matmul__(self, o: Any) -> Tensor: return op_table.matmul(self, o)
    def __rmatmul__(self, o: Any) -> Tensor: return op_table.matmul(o, self)
    def __neg__(self) -> Tensor: return op_table.neg(self)
    def __pos__(self) -> Tensor: return self
    def __abs__(self) -> Tensor: return op_table.abs(self)
    def __invert__(self) -> Tensor: return op_table.logical_not(self)
    def __and__(self, o: Any) -> Tensor: return op_table.logical_and(self, o)
    def __or__(self, o: Any) -> Tensor: return op_table.logical_or(self, o)
    def __eq__(self, o): return op_table.equal(self, o)
    def __ne__(self, o): return op_table.not_equal(self, o)
    def __lt__(self, o: Any) -> Tensor: return op_table.less(self, o)
    def __le__(self, o: Any) -> Tensor: return op_table.less_equal(self, o)
    def __gt__(self, o: Any) -> Tensor: return op_table.greater(self, o)
    def __ge__(self, o: Any) -> Tensor: return op_table.greater_equal(self, o)
    def __getitem__(self, index: Any) -> Tensor: return op_table.getitem(self, index)

    def __setitem__(self, index: Any, value: Any) -> None:
        arr = self._numbers("tensor[...] = value (in-place assignment)")
        if state.tapes and not isinstance(self, Parameter):
            _check_recorded_write(self)
        state.before_write(arr)
        arr[index] = value.asnumpy() if isinstance(value, Tensor) else value

    # ---- methods (MindSpore's Tensor methods, each a functional op) ---------------------------
    @property
    def T(self) -> Tensor:
        return op_table.transpose(self, tuple(range(self.ndim))[::-1])

    def astype(self, dtype, copy=True) -> Tensor: return op_table.cast(self, dtype)
    def to(self, dtype) -> Tensor: return op_table.cast(self, dtype)
    def float(self): return op_table.cast(self, mstype.float32)
    def int(self): return op_table.cast(self, mstype.int32)
    def reshape(self, *shape: Any) -> Tensor:
        return op_table.reshape(self, shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape)
    def view(self, *shape) -> Tensor: return self.reshape(*shape)
    def flatten(self) -> Tensor: return op_table.reshape(self, (-1,))
    def ravel(self) -> Tensor: return op_table.reshape(self, (-1,))
    def expand_dims(self, axis) -> Tensor: return op_table.expand_dims(self, axis)
    def squeeze(self, axis=()) -> Tensor: return op_table.squeeze(self, axis)

    def transpose(self, *axes: Any) -> Tensor:
        if not axes:
            axes = tuple(range(self.ndim))[::-1]
        elif len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        return op_table.transpose(self, axes)

    def sum(self, axis=None, keepdims=False) -> Tensor:
        return op_table.reduce_sum(self, () if axis is None else axis, keepdims)

    def mean(self, axis=None, keep_dims=False) -> Tensor:
        return op_table.reduce_mean(self, () if axis is None else axis, keep_dims)

    def max(self, axis=None, keepdims=False) -> Tensor:
        return op_table.reduce_max(self, () if axis is None else axis, keepdims)

    def min(self, axis=None, keepdims=False) -> Tensor:
        return op_table.reduce_min(self, () if axis is None else axis, keepdims)

    # No axis: the index in the flattened tensor, as MindSpore's documentation says and its PYNATIVE mode
    # does (observed on 2.10: GRAPH mode there uses the last axis instead; mslab follows PYNATIVE in both).
    # Observed dtypes: argmax Int64, argmin Int32; keepdims is ignored without an axis.
    def argmax(self, axis=None, keepdims=False) -> Tensor:
        return op_table.argmax(self, axis, keepdims and axis is not None)


    def argmin(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        return op_table.cast(op_table.argmin(self, axis, keepdims and axis is not None), mstype.int32)

    def abs(self) -> Tensor: return op_table.abs(self)
    def exp(self) -> Tensor: return op_table.exp(self)
    def log(self) -> Tensor: return op_table.log(self)
    def sqrt(self) -> Tensor: return op_table.sqrt(self)
    def square(self) -> Tensor: return op_table.square(self)
    def clip(self, xmin, xmax) -> Tensor: return op_table.clip(self, xmin, xmax)
    def all(self, axis=(), keep_dims=False) -> Tensor: return op_table.reduce_all(self, axis, keep_dims)
    def any(self, axis=(), keep_dims=False) -> Tensor: return op_table.reduce_any(self, axis, keep_dims)
    # MindSpore 2.x names (Tensor.prod takes dim, not axis: prod(axis=1) is a TypeError there too)
    def prod(self, dim=None, keepdim=False, dtype=None) -> Tensor: return op_table.prod(self, dim, keepdim, dtype)
    def std(self, axis=None, ddof=0, keepdims=False) -> Tensor: return op_table.std(self, axis, ddof, keepdims)
    def var(self, axis=None, ddof=0, keepdims=False) -> Tensor: return op_table.var(self, axis, ddof, keepdims)
    def swapaxes(self, axis0, axis1) -> Tensor: return op_table.swapaxes(self, axis0, axis1)
    def unsqueeze(self, dim) -> Tensor: return op_table.expand_dims(self, dim)
    def nelement(self) -> builtins.int: return self.size  # builtins: Tensor.int is a method
    # method forms of functional ops (issue 28), as MindSpore 2.10's: x.add(y, alpha=2) is x + 2 * y
    def dim(self) -> builtins.int: return len(self.shape)
    def add(self, other, *, alpha=1) -> Tensor: return op_table.add(self, other if alpha == 1 else other * alpha)
    def sub(self, other, *, alpha=1) -> Tensor: return op_table.sub(self, other if alpha == 1 else other * alpha)
    def mul(self, other) -> Tensor: return op_table.mul(self, other)
    def cos(self) -> Tensor: return op_table.cos(self)
    def sin(self) -> Tensor: return op_table.sin(self)
    def neg(self) -> Tensor: return op_table.neg(self)
    def masked_fill(self, mask, value) -> Tensor: return op_table.masked_fill(self, mask, value)
    def expand_as(self, other) -> Tensor: return op_table.broadcast_to(self, other.shape)

    def cumsum(self, axis=None, dtype=None) -> Tensor:
        """``ops.cumsum`` along ``axis``; over the flattened tensor when it is None (MindSpore 2.10, observed)."""
        if axis is None:
            return op_table.cumsum(op_table.reshape(self, (-1,)), 0, dtype)
        return op_table.cumsum(self, axis, dtype)

    def div(self, other, *, rounding_mode=None) -> Tensor:
        """x / other; ``rounding_mode`` 'floor' rounds the quotient down, 'trunc' towards zero (-7 / 2: -4, -3)."""
        q = op_table.div(self, other)
        if rounding_mode is None:
            return q
        if rounding_mode == "floor":
            return op_table.floor(q)
        if rounding_mode == "trunc":
            return op_table.sign(q) * op_table.floor(op_table.abs(q))
        raise ValueError(f"For 'div', rounding_mode must be None, 'floor' or 'trunc', but got {rounding_mode!r}")

    def copy(self) -> Tensor:
        return Tensor._wrap(self._numbers("copy()").copy())

    def set_dtype(self, dtype: Any) -> Tensor:
        self._data = self._numbers("set_dtype").astype(mstype.to_numpy(dtype))
        return self

    def init_data(self, *args: Any, **kwargs: Any) -> Tensor:
        """Draw the numbers of a tensor made inside ``no_init_parameters`` (others hold them already)."""
        if type(self) in _LAZY_BASE:
            _materialise(self)
        return self

    def register_hook(self, hook: Any) -> tensor_hooks.TensorHookHandle:
        """Call ``hook(grad)`` with this tensor's whole gradient whenever a backward pass computes it
        (``mindspore.Tensor.register_hook``).

        A Tensor ``hook`` returns takes the gradient's place (for the tensor's own gradient and everything
        upstream), None keeps it; several hooks run in registration order, each seeing the last one's result.
        Uses of the tensor before the registration count too. Works in PYNATIVE and GRAPH mode (there the hook
        is compiled into the backward graph, as MindSpore 2.10 does). ``handle.remove()`` unhooks.
        """
        return tensor_hooks.register(self, hook)

    @property
    def has_init(self) -> bool:
        """True while the numbers are not drawn yet (only inside ``nn.utils.no_init_parameters``)."""
        return type(self) in _LAZY_BASE


def tensor(input_data: Any = None, dtype: Any = None, shape: Any = None, init: Any = None, const_arg: bool = False,
           device: Any = None) -> Tensor:
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
    _assigned_in_graph = True  # an in-place method in GRAPH mode writes it with Assign (mslab.core.tensor_inplace)
    init_param = True  # False inside mslab.nn.utils.no_init_parameters(): initializers draw later
    _data: np.ndarray  # a Parameter always holds its numbers: it is never symbolic

    def __init__(self, default_input: Any, name: str | None = None, requires_grad: bool = True,
                 layerwise_parallel: bool = False, parallel_optimizer: bool = True) -> None:
        self._sym = None
        if type(default_input) is _LazyTensor and not Parameter.init_param:
            _pend(self, _PENDING[id(default_input)])  # stays undrawn until first read (see _LazyParameter)
            self.__class__ = _LazyParameter
        elif isinstance(default_input, Tensor):
            arr = default_input.asnumpy()
        elif hasattr(default_input, "to_array"):  # an Initializer whose shape is known
            arr = default_input.to_array()
        else:
            arr = _as_array(default_input, None)
        if not isinstance(self, _LazyParameter):  # a parameter owns its numbers: optimizers write in place
            self._data = np.array(arr, copy=True)
        self.name = name
        self.requires_grad = bool(requires_grad)
        self.layerwise_parallel = layerwise_parallel
        self.parallel_optimizer = parallel_optimizer

    @property
    def name(self) -> str:
        return self._name

    @name.setter
    def name(self, value: str | None) -> None:
        """A str (stripped of spaces); None or ``''`` gives a generated ``Parameter#<n>``, which a Cell replaces
        with the attribute name the Parameter is assigned to."""
        if value is not None and not isinstance(value, str):
            # observed on MindSpore 2.10 CPU: ValueError, this text
            raise ValueError(f"The type of the Parameter's name should be 'string' or 'None', but got {type(value)}.")
        value = value.strip() if value else ""
        self._auto_named = not value
        self._name = value or _generated_parameter_name()

    @property
    def data(self) -> Tensor:
        """The numbers as a plain Tensor sharing this Parameter's storage, as MindSpore's ``Parameter.data``.

        Writing into it (``p.data[0] = 3``) or assigning to the Parameter shows in both; ``set_data`` gives the
        Parameter new storage and leaves an earlier ``data`` with the old numbers (observed on MindSpore 2.10).
        No gradient flows back through it to the Parameter, in either mode (MindSpore 2.10 gives zeros); while
        GRAPH mode traces, it is the Parameter's value read by the graph.
        """
        if state.tracer is not None:
            return op_table.stop_gradient(self)
        return Tensor._wrap(self._data)

    def value(self) -> Tensor:
        """The current numbers as a plain Tensor (a copy: later updates do not change it)."""
        return Tensor._wrap(self._data.copy())

    def asnumpy(self) -> np.ndarray:
        """A copy of the current numbers (optimizers update the parameter in place)."""
        return self._data.copy()

    def set_data(self, data: Any, slice_shape: bool = False) -> Parameter:
        """Replace the numbers; the new data must have the same shape and is cast to this dtype."""
        arr = data.asnumpy() if isinstance(data, Tensor) else _as_array(data, None)
        if arr.shape != self._data.shape and not slice_shape:
            raise ValueError(f"Parameter '{self.name}'.set_data: new shape {arr.shape} differs from the "
                             f"parameter's shape {self._data.shape}")
        self._data = np.array(arr, dtype=self._data.dtype, copy=True)
        return self

    def clone(self, init: Any = "same") -> Parameter:
        """A new Parameter with the same name, flags and (for init='same') a copy of the numbers."""
        if init == "same":
            arr = self._data
        else:
            arr = init_array(init, self._data.shape, mstype.from_numpy(self._data.dtype))
        p = Parameter(Tensor._wrap(arr), self._name, self.requires_grad, self.layerwise_parallel,
                      self.parallel_optimizer)
        p._auto_named = self._auto_named
        return p

    def __repr__(self) -> str:
        return (f"Parameter (name={self.name}, shape={tuple(self.shape)}, dtype={self.dtype}, "
                f"requires_grad={self.requires_grad})")

    # print(p) names the Parameter rather than printing its numbers, as MindSpore 2.10 does (its __str__ is
    # this __repr__); print(p.asnumpy()), print(p.value()) or print(p.data) show the numbers.
    __str__ = __repr__

    def __reduce__(self):
        return (Parameter, (Tensor._wrap(self._data), self._name, self.requires_grad))


class ParameterTuple(tuple):
    """A tuple of Parameters only, as ``mindspore.ParameterTuple`` (e.g. an optimizer's ``parameters``).

    It prints as the plain tuple of its Parameters, as in MindSpore 2.10.
    """

    def __new__(cls, iterable: Any = ()) -> ParameterTuple:
        items = tuple(iterable)
        for i, p in enumerate(items):
            if not isinstance(p, Parameter):
                raise TypeError(f"ParameterTuple: item {i} is a {type(p).__name__}, not a Parameter")
        return super().__new__(cls, items)

    def clone(self, prefix: str, init: Any = "same") -> ParameterTuple:
        """Clones named ``prefix.<name>``: how optimizers make their state (``moments.fc.weight``)."""
        out = []
        for p in self:
            c = p.clone(init)
            c.name = f"{prefix}.{p.name}"
            out.append(c)
        return ParameterTuple(out)


def initializer(init: Any, shape: Any = None, dtype: Any = mstype.float32) -> Tensor:
    """A Tensor of ``shape`` and ``dtype`` made by ``init`` (``mindspore.common.initializer.initializer``).

    ``init`` is an Initializer, a name (``"ones"``, ``"zeros"``, ``"normal"``, ``"truncatednormal"``,
    ``"uniform"``, ``"xavier_uniform"``, ``"he_uniform"``, ``"he_normal"``), a number (every element that
    value), or a Tensor / numpy array (copied; its shape must match; a Tensor keeps its own dtype, as in
    MindSpore). A random ``init`` gives MindSpore's numbers (``mslab.core.philox``). MindSpore fills the Tensor
    lazily, when its data is first used (``asnumpy``, ``Parameter(...)``); mslab fills it here, so the two differ
    only if ``np.random`` is drawn from in between (observed on MindSpore 2.10 CPU).
    """
    if not Parameter.init_param and not hasattr(init, "asnumpy") and not isinstance(init, np.ndarray):
        return _lazy(_LazyTensor, (init, shape, dtype))
    return Tensor._wrap(init_array(init, shape, dtype))


# ---- delayed initialisation (mslab.nn.utils.no_init_parameters) -------------------------------------
# Inside the block, ``initializer(...)`` returns a _LazyTensor and a Parameter made from it becomes a
# _LazyParameter: same memory layout as Tensor / Parameter (no new slots), with (init, shape, dtype)
# kept in _PENDING. The first read of ``_data`` draws the numbers with init_array and turns the object
# back into a plain Tensor / Parameter, so ordinary tensors pay nothing. A Cell call first draws all of
# its parameters in parameter order (Cell.init_parameters_data), as MindSpore's Cell does.
# id(lazy tensor) -> (init, shape, dtype); by id, since a Tensor's == is elementwise
_PENDING: dict[int, tuple[Any, Any, Any]] = {}
_DATA_SLOT = Tensor.__dict__["_data"]


def _pend(t, record):
    _PENDING[id(t)] = record
    weakref.finalize(t, _PENDING.pop, id(t), None)  # a lazy tensor dropped undrawn leaves no entry


def _lazy(cls, record):
    t = object.__new__(cls)
    _DATA_SLOT.__set__(t, None)
    t._sym = None
    _pend(t, record)
    return t


def _materialise(t, arr=None):
    """Give a lazy tensor its numbers (drawn now unless ``arr`` is given) and make it a plain one."""
    init, shape, dtype = _PENDING.pop(id(t))
    arr = init_array(init, shape, dtype) if arr is None else arr
    _DATA_SLOT.__set__(t, arr)
    t.__class__ = _LAZY_BASE[type(t)]
    return arr


def has_pending() -> bool:
    """Whether any tensor made inside ``no_init_parameters`` is still waiting for its numbers."""
    return bool(_PENDING)


class _LazyTensor(Tensor):
    """A tensor from ``initializer`` inside ``no_init_parameters``: shape and dtype now, numbers on first use."""

    __slots__ = ()

    @property
    def _data(self):
        return _materialise(self)

    @_data.setter
    def _data(self, value):
        _materialise(self, value)

    @property
    def shape(self):
        return tuple(int(n) for n in _PENDING[id(self)][1])

    @property
    def _np_dtype(self):
        return np.dtype(mstype.to_numpy(_PENDING[id(self)][2]))


class _LazyParameter(Parameter):
    """A Parameter made inside ``no_init_parameters`` from an initializer: undrawn until first read."""

    __slots__ = ()
    # the lazy properties in place of the slots (type: ignore: a property over an inherited slot is the point here)
    _data, shape, _np_dtype = _LazyTensor._data, _LazyTensor.shape, _LazyTensor._np_dtype  # type: ignore[misc]

    def set_data(self, data, slice_shape=False):
        """Loading numbers (``load_param_into_net``) replaces the pending draw: nothing is drawn."""
        _materialise(self, np.zeros(self.shape, self._np_dtype))
        return Parameter.set_data(self, data, slice_shape)

    def clone(self, init="same"):
        """An optimizer's state cloned inside the block waits too; ``init='same'`` draws this parameter."""
        if init == "same":
            _materialise(self)
            return self.clone(init)
        shape, dtype = self.shape, mstype.from_numpy(self._np_dtype)
        data = (Tensor._wrap(init_array(init, shape, dtype)) if Parameter.init_param
                else _lazy(_LazyTensor, (init, shape, dtype)))
        p = Parameter(data, self._name, self.requires_grad, self.layerwise_parallel, self.parallel_optimizer)
        p._auto_named = self._auto_named
        return p


class _UninitializedTensor(Tensor):
    """``Tensor(shape=..., dtype=..., init=One())``: shape and dtype now, numbers when ``init_data()`` (or
    ``asnumpy()``) draws them. What MindSpore 2.10 does meanwhile (observed on CPU): ``print`` shows
    ``value=<uninitialized>``, ``repr`` and ``tolist()`` show zeros, and an op on it raises RuntimeError."""

    __slots__ = ()
    shape, _np_dtype = _LazyTensor.shape, _LazyTensor._np_dtype

    @property
    def _data(self):
        raise RuntimeError(f"The {self} is uninitialized. Maybe the Tensor is create by initializer. You need to call "
                           f"Tensor.init_data before using this Tensor.")

    @_data.setter
    def _data(self, value):
        _materialise(self, value)

    def asnumpy(self):
        return _materialise(self)

    def _zeros(self):
        return Tensor._wrap(np.zeros(self.shape, self._np_dtype))

    def __str__(self):
        return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value={chr(10) if len(self.shape) > 1 else ''}" \
               "<uninitialized>)"

    def __repr__(self):
        return repr(self._zeros())

    def tolist(self):
        return self._zeros().tolist()


_LAZY_BASE = {_LazyTensor: Tensor, _LazyParameter: Parameter, _UninitializedTensor: Tensor}


def _check_recorded_write(t: Tensor) -> None:
    """``t[...] = v`` while a PYNATIVE gradient records: MindSpore 2.10 refuses it on the gradient function's own
    input (its RuntimeError, observed); on a tensor the tape already holds, mslab cannot yet record the write, and
    refuses instead of computing a gradient of values that are no longer there."""
    if any(a is t for inputs in state.grad_inputs for a in inputs):
        raise RuntimeError("Can not modify tensor id of input tensor from network by assign value, this may caused by "
                           "slice op, please check your code to avoid this error!")
    if any(tape.holds(t) for tape in state.tapes if hasattr(tape, "holds")):
        raise NotImplementedError(
            "tensor[...] = value on a tensor a PYNATIVE gradient has recorded: mslab does not yet record in-place "
            "writes on its tape (MindSpore differentiates through them). Make a new tensor instead "
            "(ops.tensor_scatter_update, ops.select, ops.concat), or compute the gradient in GRAPH mode.")
