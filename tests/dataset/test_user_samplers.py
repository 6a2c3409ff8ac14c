"""User-defined samplers (``ds.Sampler`` subclasses with ``__iter__``) and child samplers (``add_child``), against
MindSpore 2.10 (each expected value printed by its CPU build, MindSpore's ``dataset/sampler.md`` style)."""
import pytest

import mslab.dataset as ds


def rows(sampler, epochs=1):
    it = ds.GeneratorDataset(list(range(10)), ["data"], sampler=sampler).create_tuple_iterator(
        output_numpy=True, num_epochs=epochs)
    return [[int(r[0]) for r in it] for _ in range(epochs)]


def size(sampler):
    return ds.GeneratorDataset(list(range(10)), ["data"], sampler=sampler).get_dataset_size()


class Reverse(ds.Sampler):
    def __iter__(self):
        for i in range(self.dataset_size - 1, -1, -1):
            yield i


class Listed(ds.Sampler):
    def __init__(self, ids, num_samples=None):
        super().__init__(num_samples)
        self.ids = ids

    def __iter__(self):
        return iter(self.ids)


def test_iter_gives_the_indices():
    assert rows(Reverse()) == [[9, 8, 7, 6, 5, 4, 3, 2, 1, 0]] and size(Reverse()) == 10  # MindSpore
    assert rows(Reverse(num_samples=3)) == [[9, 8, 7]] and size(Reverse(num_samples=3)) == 3
    assert rows(Listed([0, 2, 4, 6, 8])) == [[0, 2, 4, 6, 8]] and size(Listed([0, 2, 4, 6, 8])) == 5
    assert rows(Listed([0, -1])) == [[0, 9]]  # MindSpore: a negative index reads the list from its end


def test_len_sets_num_samples():
    class WithLen(ds.Sampler):
        def __iter__(self):
            return iter([0, 1, 2, 3])

        def __len__(self):
            return 2

    assert WithLen().num_samples == 2 and rows(WithLen()) == [[0, 1]]  # MindSpore


def test_iter_and_reset_once_per_pass():
    events = []

    class Counting(ds.Sampler):
        def __init__(self):
            super().__init__()
            self.calls = 0

        def __iter__(self):
            self.calls += 1
            events.append(("iter", self.calls, self.dataset_size))
            return iter([self.calls % 10, 1])

        def reset(self):
            events.append(("reset",))

    sampler = Counting()
    assert size(sampler) == 2 and sampler.calls == 0  # counted on a copy, as on MindSpore
    events.clear()
    assert rows(sampler, 2) == [[1, 1], [2, 1]]  # MindSpore
    # MindSpore's calls on the sampler itself, in this order (it also iterates a copy once as the iterator starts)
    assert events == [("iter", 1, 10), ("reset",), ("iter", 2, 10), ("reset",)]


def test_bad_indices():
    with pytest.raises(RuntimeError, match="Python sampler should return index of type integer, but got: float64"):
        rows(Listed([0.0, 2.0]))  # MindSpore's message
    with pytest.raises(IndexError):  # the list's own error, as on MindSpore
        rows(Listed([0, 20]))
    with pytest.raises(NotImplementedError):  # a Sampler without __iter__ (MindSpore raises NotImplementedError too)
        rows(ds.Sampler())


def test_child_samplers():
    parent = ds.SequentialSampler(start_index=1, num_samples=2)
    parent.add_child(ds.SubsetSampler([5, 6, 7, 8]))
    assert rows(parent) == [[6, 7]] and size(parent) == 2  # MindSpore
    parent = ds.SubsetSampler([3, 0])
    parent.add_child(ds.SequentialSampler(start_index=4))
    assert rows(parent) == [[7, 4]]  # MindSpore
    parent = ds.SubsetSampler([0, 1, 2])
    parent.add_child(Reverse())
    assert rows(parent) == [[9, 8, 7]]  # MindSpore
    middle = ds.SequentialSampler(start_index=2)
    middle.add_child(ds.SubsetSampler([9, 8, 7, 6, 5]))
    top = ds.SequentialSampler()
    top.add_child(middle)
    assert rows(top) == [[7, 6, 5]] and top.get_child() is middle  # MindSpore
    parent = ds.RandomSampler()
    parent.add_child(ds.SubsetSampler([5, 6, 7]))
    assert sorted(rows(parent)[0]) == [5, 6, 7] and size(parent) == 3  # MindSpore


def test_user_sampler_with_a_child_sees_the_childs_count():
    seen = []

    class Noting(Listed):
        def __iter__(self):
            seen.append(self.dataset_size)
            return iter(self.ids)

    parent = Noting([1, 0, 3, 2])
    parent.add_child(ds.SubsetSampler([5, 6, 7, 8]))
    assert rows(parent) == [[6, 5, 8, 7]] and seen[-1] == 4  # MindSpore: dataset_size 4, rows [6, 5, 8, 7]
    parent = Reverse()
    parent.add_child(ds.SubsetSampler([5, 6, 7, 8]))
    assert rows(parent) == [[8, 7, 6, 5]]  # MindSpore (whose get_dataset_size() says 10 here; mslab's says 4)
    assert size(parent) == 4


def test_child_sampler_errors():
    parent = ds.SubsetSampler([0, 5])
    parent.add_child(ds.SubsetSampler([1, 2]))
    with pytest.raises(RuntimeError, match=r"Sample ID \(5\) is out of bound, expected range \[0, 1\]"):
        rows(parent)  # MindSpore's message
    parent = ds.SequentialSampler()
    parent.add_child(ds.SubsetSampler([1, 2]))
    with pytest.raises(RuntimeError, match="Cannot add child sampler, this sampler already has a child."):
        parent.add_child(ds.SubsetSampler([3]))
    assert rows(parent) == [[1, 2]]  # MindSpore: the first child stays
    with pytest.raises(AttributeError, match="'list' object has no attribute 'get_shuffle_mode'"):
        ds.SequentialSampler().add_child([1, 2])  # what MindSpore raises
    assert ds.SequentialSampler(num_samples=3).get_child() is None
