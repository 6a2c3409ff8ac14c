"""freeze: a constant turned into a hashable key part, equal exactly when the constants are equal.

Caches key on constants: common-subexpression elimination merges two nodes whose primitive attributes and
constant inputs are equal (``mslab.ir.passes.cse``, ``Primitive.key``), a compiled graph is reused for a
call whose constant arguments are equal (``mslab.runtime.compiled.signature``), and the speed layer replays a
recorded backward for a step whose ops got equal constants (``mslab.fast.backward_replay``). Equal has to mean
"the kernel would compute the same thing", which is stricter than Python's ``==``:

* the type is part of the key: ``1``, ``1.0`` and ``True`` are three constants (``1 == 1.0 == True`` in
  Python), as are ``(1, 2)`` and ``[1, 2]``;
* tuples, lists and slices are compared item by item, dicts entry by entry (in any order);
* a numpy array by its dtype, shape and bytes (two arrays with equal contents are one constant).

Anything else must be hashable and is keyed by its own ``==`` (a function, a Cell: by identity); a value with
no such form (a set, a user object without ``__hash__``) raises TypeError, and the caller decides: CSE leaves
that node alone, the compile cache keys the argument by identity, backward replay does not replay.
"""
from typing import Any, Hashable

import numpy as np

_ATOMS = frozenset({int, float, bool, str, type(None)})  # hashable, and compared by value: keyed as they are


def freeze(value: Any, max_array_size: int | None = None) -> Hashable:
    """A hashable stand-in for the constant ``value``: ``freeze(a) == freeze(b)`` exactly when ``a`` and ``b``
    are the same constant (same type, equal contents). TypeError if ``value`` has no such form, or holds an array
    of more than ``max_array_size`` elements (a caller for whom copying its bytes into a key costs too much)."""
    t = type(value)
    if t in _ATOMS:  # most constants: a number, a string, None
        return (t, value)
    if t is tuple or t is list:
        return (t, *[freeze(x, max_array_size) for x in value])
    if t is dict:
        return (t, frozenset((k, freeze(x, max_array_size)) for k, x in value.items()))
    if t is slice:
        return (t, freeze(value.start), freeze(value.stop), freeze(value.step))
    if t is np.ndarray:
        if max_array_size is not None and value.size > max_array_size:
            raise TypeError(f"an array of {value.size} elements as a constant (at most {max_array_size} here)")
        return (t, value.dtype.str, value.shape, value.tobytes())
    hash(value)  # TypeError for a value that cannot be compared by contents
    return (t, value)
