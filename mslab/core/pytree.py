"""Flatten nested tuples/lists/dicts of tensors into a list of leaves and rebuild them.

A compiled graph has a flat list of outputs; ``construct`` may return a tensor, a tuple of tensors
or a nested structure with Python constants in it. ``flatten`` splits the two, ``unflatten`` rebuilds.
"""
from mslab.core.tensor import Tensor


def flatten(obj):
    """``(tensors, tree)``: the Tensor leaves in order and a description to rebuild ``obj``."""
    leaves = []

    def walk(o):
        if isinstance(o, Tensor):
            leaves.append(o)
            return ("T",)
        if isinstance(o, (tuple, list)):
            return (type(o), tuple(walk(x) for x in o))
        if isinstance(o, dict):
            return (dict, tuple((k, walk(v)) for k, v in o.items()))
        return ("C", o)

    return leaves, walk(obj)


def leaves(obj):
    """The Tensor leaves of ``obj`` in order (``flatten(obj)[0]`` without building the tree)."""
    if isinstance(obj, Tensor):
        return [obj]
    if isinstance(obj, (tuple, list)) and all(isinstance(o, Tensor) for o in obj):
        return list(obj)  # the usual case: an optimizer's tuple of updated weights
    return flatten(obj)[0]


def unflatten(tree, leaves):
    it = iter(leaves)

    def build(t):
        tag = t[0]
        if tag == "T":
            return next(it)
        if tag == "C":
            return t[1]
        if tag is dict:
            return {k: build(v) for k, v in t[1]}
        items = [build(x) for x in t[1]]
        return tag(items) if tag is list else tuple(items) if tag is tuple else tag(items)

    return build(tree)
