"""HyperMap, Map, MultitypeFuncGraph and partial: MindSpore's tools for applying one rule to many tensors.

An optimizer or a gradient-clipping step does the same thing to every gradient. MindSpore writes it as

    clip_grad = ops.MultitypeFuncGraph("clip_grad")

    @clip_grad.register("Number", "Number", "Tensor")
    def _clip_grad(clip_type, clip_value, grad): ...

    grads = ops.HyperMap()(ops.partial(clip_grad, 1, 1.0), grads)

``MultitypeFuncGraph`` picks the registered function whose type names match the arguments;
``HyperMap`` applies a function element by element over tuples (recursively for nested tuples);
``partial`` fixes the leading arguments. In GRAPH mode these are plain Python that runs while tracing,
so the graph simply holds one copy of the rule's nodes per gradient (MindSpore unrolls them the same way).
"""
import functools

from mslab.core.tensor import Tensor

__all__ = ["HyperMap", "Map", "MultitypeFuncGraph", "partial"]


def _kind_matches(name, value):
    """Does ``value`` have the MindSpore type called ``name`` ("Tensor", "Number", "Tuple", ...)?"""
    if name in ("Tensor", "RowTensor", "Parameter"):
        return isinstance(value, Tensor)
    if name == "Number":
        return isinstance(value, (int, float)) and not isinstance(value, Tensor)
    if name == "Bool":
        return isinstance(value, bool)
    if name == "Int":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "Float":
        return isinstance(value, float)
    if name == "String":
        return isinstance(value, str)
    if name == "Tuple":
        return isinstance(value, tuple)
    if name == "List":
        return isinstance(value, list)
    if name == "Dictionary":
        return isinstance(value, dict)
    if name == "Function":
        return callable(value) and not isinstance(value, Tensor)
    if name == "None":
        return value is None
    return False


def _kind_of(value):
    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, bool):
        return "Bool"
    if isinstance(value, (int, float)):
        return "Number"
    return type(value).__name__


class MultitypeFuncGraph:
    """A function with one implementation per argument-type signature (``ops.MultitypeFuncGraph``).

    ``register("Number", "Tensor")`` decorates an implementation; calling the object dispatches on
    the kinds of the arguments (Tensor, Number, Bool, Int, Float, String, Tuple, List, Function, None).
    """

    def __init__(self, name, read_value=False):
        self.name = name
        self.read_value = read_value
        self.entries = []  # (type names, function), in registration order

    def register(self, *type_names):
        names = tuple(getattr(t, "name", t) if not isinstance(t, str) else t for t in type_names)

        def deco(fn):
            self.entries.append((names, fn))
            return fn
        return deco

    def __call__(self, *args):
        for names, fn in self.entries:
            if len(names) == len(args) and all(_kind_matches(n, a) for n, a in zip(names, args)):
                return fn(*args)
        got = ", ".join(_kind_of(a) for a in args)
        known = "; ".join("(" + ", ".join(n) + ")" for n, _ in self.entries) or "none"
        raise TypeError(f"MultitypeFuncGraph '{self.name}': no function registered for ({got}); registered: {known}")

    def __repr__(self):
        return f"MultitypeFuncGraph({self.name!r})"


def _is_seq(x):
    return isinstance(x, (tuple, list))


def _hyper_map(fn, args, recursive):
    seqs = [a for a in args if _is_seq(a)]
    if not seqs:
        return fn(*args)
    n = len(seqs[0])
    if any(len(s) != n for s in seqs):
        raise ValueError(f"HyperMap: the sequences have different lengths {[len(s) for s in seqs]}")
    out = []
    for i in range(n):
        items = [a[i] if _is_seq(a) else a for a in args]
        if recursive and any(_is_seq(x) for x in items):
            out.append(_hyper_map(fn, items, recursive))
        else:
            out.append(fn(*items))
    return tuple(out)


class HyperMap:
    """Apply a function element-wise over tuples, recursing into nested tuples (``ops.HyperMap``).

    ``HyperMap()(fn, grads)`` or ``HyperMap(fn)(grads)``; arguments that are not sequences are passed
    unchanged to every call. Returns a tuple.
    """

    _recursive = True

    def __init__(self, ops=None, reverse=False):
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args):
        if self.ops is not None:
            fn = self.ops
        else:
            if not args:
                raise TypeError(f"{type(self).__name__}()(fn, *sequences): give the function to apply")
            fn, args = args[0], args[1:]
        return _hyper_map(fn, list(args), self._recursive)


class Map(HyperMap):
    """Like HyperMap but one level deep only (``ops.Map``)."""

    _recursive = False


def partial(fn, *args):
    """``fn`` with its leading arguments fixed (``ops.partial``)."""
    return functools.partial(fn, *args)
