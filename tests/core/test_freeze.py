"""mslab.core.freeze: the one helper turning constants into cache-key parts (CSE, Primitive.key, compile cache)."""
import numpy as np
import pytest

import mslab as ms
from mslab import ops
from mslab.core.freeze import freeze
from mslab.ir.passes import cse
from mslab.runtime.compiled import signature, trace


def test_equal_constants_freeze_equal():
    assert freeze((1, [2.0, "a"])) == freeze((1, [2.0, "a"]))
    assert freeze({"a": 1, "b": (2, 3)}) == freeze({"b": (2, 3), "a": 1})  # dict order does not matter
    assert freeze(slice(1, None, 2)) == freeze(slice(1, None, 2))
    assert freeze(np.arange(3, dtype=np.float32)) == freeze(np.arange(3, dtype=np.float32))
    assert hash(freeze([1, {"k": np.ones(2)}])) == hash(freeze([1, {"k": np.ones(2)}]))


def test_the_type_is_part_of_a_constant():
    # Python says 1 == 1.0 == True and [1, 2] != (1, 2) only by type; a kernel bound to either may differ.
    assert len({freeze(1), freeze(1.0), freeze(True)}) == 3
    assert freeze([1, 2]) != freeze((1, 2))
    assert freeze(np.zeros(2, np.float32)) != freeze(np.zeros(2, np.float64))
    assert freeze(np.zeros((2, 1))) != freeze(np.zeros((1, 2)))
    assert freeze(slice(0, 2)) != freeze(slice(0, 2, 1))


def test_a_value_without_contents_to_compare_raises():
    with pytest.raises(TypeError):
        freeze({1, 2})
    with pytest.raises(TypeError):
        freeze([1, {3}])  # nested too


def test_primitive_key_freezes_attributes():
    a = ops.ReduceSum(keep_dims=True)
    b = ops.ReduceSum(keep_dims=True)
    assert a.key() == b.key()
    assert a.key() != ops.ReduceSum(keep_dims=False).key()


def test_compile_signature_keys_constants_by_value_and_unhashables_by_identity():
    x = ms.Tensor(np.ones((2, 3), np.float32))
    assert signature((x, 1, slice(0, 2))) == signature((x, 1, slice(0, 2)))
    assert signature((x, 1)) != signature((x, 1.0))
    s = {1}
    assert signature((s,)) == (("id", id(s)),)


def test_cse_merges_nodes_with_equal_frozen_constants():
    def f(x):
        return ops.reduce_sum(x, (0,)) + ops.reduce_sum(x, (0,))

    graph = trace(f, ms.Tensor(np.ones((2, 3), np.float32)), optimize_graph=False)
    before = [n.op for n in graph.nodes].count("ReduceSum")
    cse(graph)
    assert (before, [n.op for n in graph.nodes].count("ReduceSum")) == (2, 1)


def test_a_caller_may_refuse_large_arrays():
    assert freeze([np.zeros(64)], max_array_size=64) == freeze([np.zeros(64)])
    with pytest.raises(TypeError):
        freeze([np.zeros(65)], max_array_size=64)
