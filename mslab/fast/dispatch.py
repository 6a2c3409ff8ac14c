"""A primitive's eager call with every skippable step skipped: ``Primitive.__call__`` written out in one function.

The plain ``Primitive.__call__`` (ops/primitive.py) reads as the four things a call does: cast for mixed
precision, ``prepare`` the arguments, record a node while GRAPH mode traces, or ``run`` now and let tapes
record. Every eager op pays for those helper calls, ``Tensor._wrap`` and a default ``prepare`` that has nothing
to do; this version makes none of them (about a tenth of a small op's time) and does exactly the same. The
speed layer installs it as ``Primitive.__call__`` (``mslab.core.hooks.primitive_call``).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mslab.core import state
from mslab.core.fp_warnings import quiet_kernels
from mslab.core.tensor import Tensor
from mslab.ops.primitive import Primitive, lift_scalars

_new_object = object.__new__
_default_prepare: dict[type, bool] = {}  # primitive class -> whether its ``prepare`` is Primitive's own


def call(self: Primitive, *args: Any) -> Tensor:
    """``Primitive.__call__``, step for step, with ``prepare``, ``run`` and ``Tensor._wrap`` written in."""
    if state.mixed_precision:
        args = self._cast_for_mixed_precision(args)
    cls = type(self)
    plain_prepare = _default_prepare.get(cls)
    if plain_prepare is None:
        plain_prepare = _default_prepare[cls] = cls.prepare is Primitive.prepare
    if not plain_prepare:
        args = self.prepare(args)
    elif self.lift_scalars:
        args = lift_scalars(args, self.n_tensors)
    tracer = state.tracer
    if tracer is not None:
        return tracer.record(self, args)
    vals = [a._data if isinstance(a, Tensor) else a for a in args]
    try:
        self.infer(*vals)
        if state.kernels_quiet:
            out = self.compute(*vals)
        else:
            with quiet_kernels():
                out = self.compute(*vals)
    except Exception as e:
        raise self.error(args, e) from None
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    t = _new_object(Tensor)  # Tensor._wrap(out)
    t._data = out
    t._sym = None
    for tape in state.tapes:
        tape.record(self, args, t)
    return t
