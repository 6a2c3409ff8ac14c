"""MindSpore 2.10's in-place Tensor methods (the ``*_`` family), as its CPU build runs them.

MindSpore documents ``x.add_(y)`` as writing into ``x``. Its CPU build (observed, MindSpore 2.10) does that only
for some of them, and differently in each mode; mslab does what the CPU build does, so a tutorial prints the
same numbers:

* PYNATIVE mode: ``add_ sub_ mul_ div_ exp_ floor_divide_ remainder_`` fall back to the ordinary op: they
  return the result and leave ``x`` as it was. ``copy_`` and ``set_`` write into ``x``. ``requires_grad_``
  returns None. Every other in-place method stops with the RuntimeError naming its kernel ("The kernel
  InplaceZero unregistered."): MindSpore 2.10's CPU build has no kernel for them.
* GRAPH mode (while ``construct`` is compiled): ``add_ mul_ div_ floor_divide_ remainder_ copy_``, and
  ``sub_`` given ``alpha``, write into ``x``; ``sub_`` without ``alpha`` returns the result only.
  ``exp_`` and the kernels missing above are refused when the graph is compiled.

In GRAPH mode a write into ``x`` is recorded as a new value of ``x``: later uses read it, the gradient flows
through the op that made it, and the old value stays what earlier uses saw, so gradients come out right even
when an op before the write needs the old ``x`` (MindSpore 2.10's GRAPH mode may read the new value there:
d/dx of ``y = x.exp(); y.add_(1); y.sum()`` is exp(x) + 1 on its CPU build, exp(x) in mslab). In PYNATIVE mode
``copy_`` while a gradient is recorded is refused for now (MindSpore tracks it with version counters).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from mslab.core import dtype as mstype
from mslab.core import state
from mslab.core.op_registry import op_table


def _unregistered(kernel: str) -> RuntimeError:
    """MindSpore 2.10 CPU's error for an in-place kernel its CPU build lacks (text observed on CPU)."""
    return RuntimeError(f"The kernel {kernel} unregistered.")


def _kind(value: Any) -> str:
    return "Tensor" if hasattr(value, "asnumpy") else "Scalar"


class InplaceMethods:
    """The ``*_`` methods of ``mindspore.Tensor`` (mixed into mslab's Tensor)."""

    __slots__ = ()
    if TYPE_CHECKING:  # what the Tensor these methods are mixed into has
        _data: np.ndarray | None
        _sym: Any

        @property
        def shape(self) -> tuple[int, ...]: ...

        @property
        def _np_dtype(self) -> np.dtype: ...
    _assigned_in_graph = False  # a Parameter: GRAPH mode writes it with an Assign node (mslab.core.tensor sets it)
    # MindSpore's bookkeeping for a tensor that is a view of another (None on a tensor that is none, as mslab's)
    index_of_parent_ = None
    parent_tensor_ = None

    # ---- what writes into the tensor ------------------------------------------------------------------------
    def _write(self, new: Any) -> Any:
        """Make ``new`` (a Tensor of this shape) this tensor's value, in place; returns ``new``.

        GRAPH mode: this tensor stands for ``new``'s graph value from now on; the value it had before stays what
        earlier uses (and their gradients) read. PYNATIVE mode: the numbers are copied into this tensor's array
        (views and ``Parameter.data`` see them); refused while a tape records (see the error)."""
        if tuple(new.shape) != tuple(self.shape):
            raise RuntimeError(f"an in-place write into a tensor of shape {tuple(self.shape)} got a result of "
                               f"shape {tuple(new.shape)}")
        if state.tracer is not None and self._data is not None:  # a Parameter: an Assign node writes it at run time
            op_table.assign(self, new if new._np_dtype == self._np_dtype else
                            op_table.cast(new, mstype.from_numpy(self._np_dtype)))
            return new
        if self._data is None:
            old = self._sym
            if old.handle is self:  # what autodiff reads for the old value: not this tensor, which moves on
                old.handle = type(self)._symbolic(old)
            self._sym = new._sym
            return new
        if state.tapes:
            raise NotImplementedError(
                f"{type(self).__name__}.copy_ while a gradient (or mslab.record) is recording in PYNATIVE mode: the "
                "tape refers to tensors by identity, and mslab does not yet give a tensor written in place a new "
                "value on it. Use the source tensor itself from here on (y = src), or GRAPH mode")
        arr = self._data
        state.before_write(arr)  # an all-or-nothing training step can put the old numbers back
        arr[...] = new._data
        return new

    def _in_graph(self) -> bool:
        """Whether this call is compiled (GRAPH mode) rather than run now. Refuses what mslab cannot write there
        as MindSpore does: an argument of the compiled call or a value a control-flow branch reads from outside
        (MindSpore writes those back to the caller), or a constant (MindSpore writes its own copy)."""
        if state.tracer is None:
            return False
        if self._data is not None and not self._assigned_in_graph:
            raise NotImplementedError("an in-place Tensor method in GRAPH mode on a constant tensor: mslab writes "
                                      "graph values and Parameters in place, not constants; compute a new tensor")
        if self._data is None and self._sym.kind == "input":
            raise NotImplementedError("an in-place Tensor method in GRAPH mode on an argument of the compiled "
                                      "function (or a value an if/while branch reads from outside): MindSpore 2.10 "
                                      "writes the new numbers back to the caller's tensor, which mslab does not yet; "
                                      "compute a new tensor (y = x + 1) instead")
        return True

    def _arith(self, new: Any, in_graph_writes: bool = True) -> Any:
        """An arithmetic ``*_`` method's result: written into the tensor where MindSpore's CPU build writes."""
        if self._in_graph() and in_graph_writes:
            return self._write(new)
        return new

    # ---- arithmetic ------------------------------------------------------------------------------------------
    def add_(self, other: Any, *, alpha: Any = 1) -> Any:
        """``self + alpha * other`` (PYNATIVE: returned only; GRAPH: also written into self)."""
        return self._arith(op_table.add(self, other if alpha == 1 else op_table.mul(other, alpha)))

    def sub_(self, other: Any, *, alpha: Any = None) -> Any:
        """``self - alpha * other`` (PYNATIVE: returned only; GRAPH: written into self when ``alpha`` is given,
        as observed on MindSpore 2.10 CPU, whose ``sub_(other)`` takes the out-of-place path)."""
        scaled = other if alpha is None or alpha == 1 else op_table.mul(other, alpha)
        return self._arith(op_table.sub(self, scaled), in_graph_writes=alpha is not None)

    def mul_(self, other: Any) -> Any:
        """``self * other`` (PYNATIVE: returned only; GRAPH: also written into self)."""
        return self._arith(op_table.mul(self, other))

    def div_(self, other: Any, *, rounding_mode: str | None = None) -> Any:
        """``self / other``; ``rounding_mode`` "floor" rounds down, "trunc" towards zero (PYNATIVE: returned only;
        GRAPH: also written into self)."""
        q = op_table.div(self, other)
        if rounding_mode == "floor":
            q = op_table.floor(q)
        elif rounding_mode == "trunc":
            q = op_table.mul(op_table.sign(q), op_table.floor(op_table.abs(q)))
        elif rounding_mode is not None:
            raise ValueError(f"For 'div_', rounding_mode must be None, 'floor' or 'trunc', but got {rounding_mode!r}")
        return self._arith(q)

    def floor_divide_(self, other: Any) -> Any:
        """``floor(self / other)`` (PYNATIVE: returned only; GRAPH: also written into self)."""
        return self._arith(op_table.floor_div(self, other))

    def remainder_(self, other: Any) -> Any:
        """``self - floor(self / other) * other`` (PYNATIVE: returned only; GRAPH: also written into self)."""
        return self._arith(op_table.floor_mod(self, other))

    def exp_(self) -> Any:
        """``exp(self)``, returned only (PYNATIVE); GRAPH mode has no CPU kernel (InplaceExp)."""
        if self._in_graph():
            raise RuntimeError("Unsupported op [InplaceExp] on CPU (MindSpore 2.10's CPU build has no kernel for "
                               "Tensor.exp_ in GRAPH mode)")
        return op_table.exp(self)

    # ---- copying ---------------------------------------------------------------------------------------------
    def copy_(self, src: Any, non_blocking: bool = False) -> Any:
        """Write ``src`` (cast to this dtype, broadcast to this shape) into self, in both modes; the gradient
        flows to ``src``. Returns the tensor holding the new numbers."""
        if tuple(src.shape) != tuple(self.shape):
            try:
                target = np.broadcast_shapes(tuple(src.shape), tuple(self.shape))
            except ValueError:
                target = None
            if target != tuple(self.shape):
                raise RuntimeError(f"For 'InplaceCopy', the shape of 'value' {list(src.shape)} cannot be broadcast to "
                                   f"the shape of 'variable' {list(self.shape)}")
            src = op_table.broadcast_to(src, tuple(self.shape))
        if src._np_dtype != self._np_dtype:
            src = op_table.cast(src, mstype.from_numpy(self._np_dtype))
        elif src is self or (src._data is not None and src._data is self._data):
            return self
        if self._in_graph():
            return self._write(src)
        self._write(src)
        return type(self)._wrap(self._data)  # type: ignore[attr-defined]

    def set_(self, source: Any = None, storage_offset: int = 0, size: Any = None, stride: Any = None) -> Any:
        """Make self hold ``source``'s numbers, shape included (no source: an empty tensor), PYNATIVE mode."""
        if self._data is None:
            raise NotImplementedError("Tensor.set_ in GRAPH mode: mslab sets a tensor's storage in PYNATIVE mode only")
        if state.tapes:
            raise NotImplementedError("Tensor.set_ while a gradient (or mslab.record) is recording: mslab's tape "
                                      "refers to tensors by identity; use the source tensor itself instead")
        if storage_offset or size is not None or stride is not None:
            raise NotImplementedError("Tensor.set_ with storage_offset, size or stride: mslab sets whole tensors only")
        arr = np.zeros((0,), self._data.dtype) if source is None else np.array(source.asnumpy())
        self._data = arr  # type: ignore[misc]  # the slot is Tensor's, which this class is mixed into
        return type(self)._wrap(arr)  # type: ignore[attr-defined]

    def requires_grad_(self, requires_grad: bool = True) -> None:
        """Accepted; returns None, as MindSpore 2.10 (mslab differentiates with respect to what ``grad`` names)."""
        return None

    # ---- kernels MindSpore 2.10's CPU build lacks (its errors, text observed) ----------------------------------
    def fill_(self, value: Any) -> Any:
        raise _unregistered(f"InplaceFill{_kind(value)}")

    def zero_(self) -> Any:
        raise _unregistered("InplaceZero")

    def clamp_(self, min: Any = None, max: Any = None) -> Any:  # noqa: A002  # MindSpore's argument names
        if min is None and max is None:
            raise ValueError("For Clamp, at least one of 'min' or 'max' must not be None.")
        raise _unregistered(f"InplaceClamp{_kind(min if min is not None else max)}")

    def log_(self) -> Any:
        raise _unregistered("InplaceLog")

    def sigmoid_(self) -> Any:
        raise _unregistered("InplaceSigmoid")

    def tanh_(self) -> Any:
        raise _unregistered("InplaceTanh")

    def sign_(self) -> Any:
        raise _unregistered("InplaceSign")

    def floor_(self) -> Any:
        raise _unregistered("InplaceFloor")

    def erfinv_(self) -> Any:
        raise _unregistered("InplaceErfinv")

    def addmm_(self, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
        raise _unregistered("InplaceAddmm")

    def index_add_(self, dim: int, index: Any, source: Any, *, alpha: Any = 1) -> Any:
        raise _unregistered("InplaceIndexAddExt")

    def index_copy_(self, dim: int, index: Any, tensor: Any) -> Any:
        raise _unregistered("InplaceIndexCopy")

    def index_fill_(self, dim: int, index: Any, value: Any) -> Any:
        raise _unregistered(f"InplaceIndexFill{_kind(value)}")

    def index_put_(self, indices: Any, values: Any, accumulate: bool = False) -> Any:
        raise _unregistered("InplaceIndexPut")

    def masked_fill_(self, mask: Any, value: Any) -> Any:
        raise _unregistered(f"InplaceMaskedFill{_kind(value)}")

    def masked_scatter_(self, mask: Any, source: Any) -> Any:
        raise _unregistered("InplaceMaskedScatter")

    def scatter_(self, dim: int, index: Any, src: Any = None, **kwargs: Any) -> Any:
        raise _unregistered("InplaceScatterSrc" if hasattr(src, "asnumpy") else "InplaceScatterValue")

    def scatter_add_(self, dim: int, index: Any, src: Any) -> Any:
        raise _unregistered("InplaceScatterAdd")

    def fill_diagonal_(self, fill_value: Any, wrap: bool = False) -> Any:
        raise ValueError("should not come here for fill_diagonal method.")

    def put_(self, index: Any, source: Any, accumulate: bool = False) -> Any:
        raise RuntimeError("There is no branch to go function tensor_put_!")

    # random fills: no CPU kernel in MindSpore 2.10 either (its errors, observed)
    def uniform_(self, from_: Any = 0, to: Any = 1, *, generator: Any = None) -> Any:
        raise RuntimeError("Create kernelmod for op InplaceUniform failed")

    def normal_(self, mean: Any = 0, std: Any = 1, *, generator: Any = None) -> Any:
        raise RuntimeError("Create kernelmod for op InplaceNormal failed")

    def random_(self, from_: Any = 0, to: Any = None, *, generator: Any = None) -> Any:
        raise RuntimeError("Create kernelmod for op InplaceRandom failed")

    def bernoulli_(self, p: Any = 0.5, *, generator: Any = None) -> Any:
        raise RuntimeError("'bernoulli_' is not supported on this device.")

    def exponential_(self, lambd: Any = 1, *, generator: Any = None) -> Any:
        raise RuntimeError("Not implement exception")

    # device memory: MindSpore 2.10's CPU build has no kernel for these ("Unsupported op [Free] on CPU")
    def to_(self, device: Any = None, non_blocking: bool = False) -> Any:
        if device is None:
            raise ValueError("The value of 'to' must be one of ['Ascend', 'CPU'], but got None")
        raise RuntimeError("Unsupported op [Free] on CPU (Tensor.to_ moves device memory; mslab runs on the host)")

    def delete_(self, non_blocking: bool = False) -> Any:
        raise RuntimeError("Unsupported op [Free] on CPU (Tensor.delete_ frees device memory; mslab runs on the host)")
