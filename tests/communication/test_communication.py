"""mslab.communication, the collective primitives and dataset sharding in one process (rank 0 of 1).

Runs on 2 and 3 ranks are in tests/communication/test_data_parallel.py; here: MindSpore's names and errors, every
collective as the identity with its gradient checked and GRAPH == PYNATIVE, the graph view marking
communication nodes, and which rows each shard reads (observed on MindSpore 2.10 CPU).
"""
import numpy as np
import pytest

import mslab as ms
import mslab.dataset as ds
from mslab import nn, ops
from mslab.communication import GlobalComm, get_group_size, get_rank, init, release
from mslab.lab.viz import to_dot
from mslab.ops import collective_ops
from mslab.testing import check_grad, check_modes


# ---- init and the group ---------------------------------------------------------------------------------
def test_without_a_launcher_this_is_rank_0_of_1_for_every_backend_name():
    for backend in ("hccl", "nccl", "mccl", None):
        init(backend)
        assert (get_rank(), get_group_size(), GlobalComm.INITED) == (0, 1, True)
        release()
        assert GlobalComm.INITED is False
    init("nccl")
    assert GlobalComm.WORLD_COMM_GROUP == "nccl_world_group"  # MindSpore's group names per backend
    init()
    assert GlobalComm.WORLD_COMM_GROUP == "hccl_world_group"


def test_init_rejects_what_mindspore_rejects():
    # observed on MindSpore 2.10 CPU
    with pytest.raises(TypeError, match="For 'init', the argument 'backend_name' must be a string, but got the "
                                        "type : <class 'int'>"):
        init(3)
    with pytest.raises(RuntimeError, match="must be one of 'hccl', 'nccl' and 'mccl', but got 'backend_name' : foo"):
        init("foo")


def test_device_num_defaults_to_the_number_of_ranks():
    ms.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context("device_num") == 1  # MindSpore 2.10 stand-alone: 1
    ms.set_auto_parallel_context(device_num=4)
    assert ms.get_auto_parallel_context("device_num") == 4
    ms.reset_auto_parallel_context()


# ---- the collectives: identities in one process, with bprops and both modes -------------------------------
COLLECTIVES = {
    "AllReduce": lambda x: ops.AllReduce()(x),
    "AllReduce(max)": lambda x: ops.AllReduce(ops.ReduceOp.MAX)(x),
    "AllReduce(min)": lambda x: ops.AllReduce(ops.ReduceOp.MIN)(x),
    "AllReduce(prod)": lambda x: ops.AllReduce(ops.ReduceOp.PROD)(x),
    "AllGather": lambda x: ops.AllGather()(x),
    "ReduceScatter": lambda x: ops.ReduceScatter()(x),
    "Broadcast": lambda x: ops.Broadcast(0)((x,))[0],
}


@pytest.mark.parametrize("name", sorted(COLLECTIVES))
def test_collective_is_the_identity_on_one_process_with_its_gradient(name):
    x = np.random.default_rng(0).uniform(0.5, 2.0, (3, 2))
    fn = COLLECTIVES[name]
    (got,) = check_modes(fn, ms.Tensor(x.astype(np.float32)))
    np.testing.assert_array_equal(got, x.astype(np.float32))
    check_grad(fn, x)


def test_every_collective_primitive_is_tested():
    primitives = {n for n in collective_ops.__all__ if n[0].isupper() and n != "ReduceOp"}
    assert primitives <= {k.split("(")[0] for k in COLLECTIVES}


def test_collective_errors_name_the_op():
    with pytest.raises(TypeError, match="AllReduce: op must be one of"):
        ops.AllReduce("mean")
    with pytest.raises(TypeError, match="Broadcast: root_rank must be an int"):
        ops.Broadcast("0")
    with pytest.raises(Exception, match="Broadcast: root_rank 1 is not a rank of a group of 1"):
        ops.Broadcast(1)((ms.Tensor(np.ones(2, np.float32)),))


def test_grad_reducer_puts_an_allreduce_per_gradient_in_the_graph_drawn_as_communication():
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    try:
        net = nn.Dense(3, 2)
        train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
        graph = ms.trace(train, ms.Tensor(np.ones((4, 3), np.float32)), ms.Tensor(np.ones((4, 2), np.float32)))
    finally:
        ms.reset_auto_parallel_context()
    reducers = [n for n in graph.nodes if n.op == "AllReduce"]
    assert len(reducers) == 2  # weight and bias
    dot = to_dot(graph, legend=False, collapse_depth=None)
    assert dot.count("shape=octagon") == 2


# ---- sharding: MindSpore's rows per shard ------------------------------------------------------------------
def rows(data, epochs=1):
    it = data.create_tuple_iterator(output_numpy=True, num_epochs=epochs)
    return [[int(r[0]) for r in it] for _ in range(epochs)]


@pytest.mark.parametrize("n,shards,expected", [
    # observed on MindSpore 2.10 CPU (NumpySlicesDataset(np.arange(n), shuffle=False, num_shards, shard_id))
    (10, 2, [[0, 2, 4, 6, 8], [1, 3, 5, 7, 9]]),
    (10, 3, [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]),
    (7, 2, [[0, 2, 4, 6], [1, 3, 5, 0]]),
    (7, 3, [[0, 3, 6], [1, 4, 0], [2, 5, 1]]),
])
def test_unshuffled_shards_take_every_kth_row_padded_from_the_start(n, shards, expected):
    got = [rows(ds.NumpySlicesDataset(np.arange(n), ["x"], shuffle=False, num_shards=shards, shard_id=k))[0]
           for k in range(shards)]
    assert got == expected
    sizes = [ds.NumpySlicesDataset(np.arange(n), ["x"], shuffle=False, num_shards=shards, shard_id=k)
             .get_dataset_size() for k in range(shards)]
    assert sizes == [len(e) for e in expected]


class _Source:
    def __getitem__(self, i):
        return (np.array(i),)

    def __len__(self):
        return 7


def test_generator_dataset_shards_alike_and_num_samples_counts_per_shard():
    # observed on MindSpore 2.10 CPU: [[0, 3, 6], [1, 4, 0], [2, 5, 1]]; num_samples=3 of 10 in 2 shards:
    # [[0, 2, 4], [1, 3, 5]]
    got = [rows(ds.GeneratorDataset(_Source(), ["x"], shuffle=False, num_shards=3, shard_id=k))[0] for k in range(3)]
    assert got == [[0, 3, 6], [1, 4, 0], [2, 5, 1]]
    got = [rows(ds.NumpySlicesDataset(np.arange(10), ["x"], shuffle=False, num_shards=2, shard_id=k,
                                      num_samples=3))[0] for k in range(2)]
    assert got == [[0, 2, 4], [1, 3, 5]]


def test_shuffled_shards_are_disjoint_each_epoch_and_reshuffle_between_epochs():
    # MindSpore 2.10 CPU (default seed 5489): epoch 1 [7, 5, 0, 3, 9] and [8, 6, 1, 4, 2], epoch 2
    # [0, 3, 8, 6, 1] and [9, 5, 7, 2, 4]: one permutation per epoch, split among the shards. mslab's
    # generator differs from MindSpore's, so the rule is checked, not the numbers.
    a, b = (rows(ds.NumpySlicesDataset(np.arange(10), ["x"], shuffle=True, num_shards=2, shard_id=k), 2)
            for k in range(2))
    for epoch in range(2):
        assert sorted(a[epoch] + b[epoch]) == list(range(10))
    assert a[0] != a[1]
    again = rows(ds.NumpySlicesDataset(np.arange(10), ["x"], shuffle=True, num_shards=2, shard_id=0), 2)
    assert again == a  # every rank (a fresh process) draws the same permutation


def test_shard_arguments_are_checked_as_mindspore_does():
    # messages observed on MindSpore 2.10 CPU
    with pytest.raises(ValueError, match="num_shards and shard_id need to be passed in together"):
        ds.NumpySlicesDataset(np.arange(7), ["x"], num_shards=3)
    with pytest.raises(ValueError, match="shard_id should be less than num_shards"):
        ds.NumpySlicesDataset(np.arange(7), ["x"], num_shards=3, shard_id=3)

    def gen():
        yield (np.array(1),)
    with pytest.raises(ValueError, match="num_shards is not supported if source does not have attribute "
                                         "'__getitem__'"):
        ds.GeneratorDataset(gen, ["x"], num_shards=2, shard_id=0)
