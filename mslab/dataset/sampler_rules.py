"""The rules of user-defined samplers and child samplers, as MindSpore 2.10's.

A user-defined sampler subclasses ``mslab.dataset.Sampler`` and yields indices from ``__iter__`` (reading
``self.dataset_size``); ``parent.add_child(child)`` makes ``parent`` pick among the indices ``child`` gives:

    >>> import mslab.dataset as ds
    >>> parent = ds.SequentialSampler(start_index=1, num_samples=2)
    >>> parent.add_child(ds.SubsetSampler([5, 6, 7, 8]))
    >>> [int(r[0]) for r in ds.GeneratorDataset(list(range(10)), ["x"], sampler=parent)]
    [6, 7]

(observed on MindSpore 2.10). :class:`mslab.dataset.sources.Sampler` calls these functions.
"""
import numbers

import numpy as np


def user_indices(sampler):
    """The indices of a user-defined sampler's ``__iter__``, as MindSpore's ``Sampler.get_indices``: a number is one
    index, a list is several; ``num_samples`` counts what ``__iter__`` yields; indices must be integers."""
    num_samples = getattr(sampler, "num_samples", None)
    out = []
    for count, idx in enumerate(sampler, 1):
        out.extend([idx] if isinstance(idx, numbers.Number) else idx)
        if num_samples is not None and count >= num_samples:
            break
    indices = np.array(out)
    if indices.dtype == object:  # MindSpore's messages
        raise RuntimeError("Fetched indices can not be converted to a valid ndarray.")
    if indices.size and indices.dtype.kind not in "iu":
        raise RuntimeError(f"Python sampler should return index of type integer, but got: {indices.dtype}")
    return [int(i) for i in indices]


def add_child(parent, child, user_defined):
    """``parent.add_child(child)``: MindSpore's checks (a built-in sampler takes one child; a ``user_defined`` one,
    a subclass with ``__iter__``, replaces its child)."""
    if not hasattr(child, "_indices"):  # not a sampler: what MindSpore raises for a list
        raise AttributeError(f"'{type(child).__name__}' object has no attribute 'get_shuffle_mode'")
    if not user_defined and parent.get_child() is not None:
        raise RuntimeError("Cannot add child sampler, this sampler already has a child.")
    parent.child_sampler = child
    if child.random:
        parent.random = True  # the dataset hands the parent a generator, which the parent passes on


def through_child(parent, child, n, rng, dataset):
    """The parent's indices pick among the child's: the child's k-th index for each parent index k."""
    ids = list(child._indices(n, rng, dataset))
    picks = parent._own(len(ids), rng, dataset)
    for k in picks:
        if not 0 <= k < len(ids):  # MindSpore's message
            raise RuntimeError(f"Sample ID ({k}) is out of bound, expected range [0, {len(ids) - 1}]")
    return [ids[k] for k in picks]
