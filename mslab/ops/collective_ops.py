"""Collective communication: AllReduce, AllGather, ReduceScatter and Broadcast across the ranks (MPI).

Each is a primitive like any other: it has a node in the graph (drawn in its own style: the class
attribute ``communication = True``), runs in both modes, and has a bprop (MindSpore's rules):

    AllReduce(sum):   out = sum_r x_r         dx = AllReduce(sum)(dout)
    AllReduce(max):   out = max_r x_r         dx = AllReduce(sum)(dout) * (x == out)
    AllReduce(prod):  out = prod_r x_r        dx = AllReduce(sum)(dout * out) / x
    AllGather:        out = concat_r x_r      dx = ReduceScatter(sum)(dout)
    ReduceScatter:    out = (sum_r x_r)[r]    dx = AllGather(dout)
    Broadcast(root):  out = x_root            dx = dout

The numbers travel through ``mslab.core.comm`` (mpi4py); with one process every collective returns
its input. MindSpore's AllReduce has no "mean": data-parallel averaging is a sum times 1/N
(``DistributedGradReducer``).
"""
from mslab.core import comm
from mslab.core.op_registry import op_table
from mslab.ops.primitive import Primitive

__all__ = ["AllGather", "AllReduce", "Broadcast", "ReduceOp", "ReduceScatter",
           "all_gather", "all_reduce", "broadcast", "reduce_scatter"]

_WORLD = "hccl_world_group"  # MindSpore's default group name (GlobalComm.WORLD_COMM_GROUP)


class ReduceOp:
    """How AllReduce combines the ranks' tensors (``mindspore.ops.ReduceOp``)."""

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"


class _Collective(Primitive):
    communication = True  # views draw communication nodes in their own style
    n_tensors = 1

    def key(self):
        return (type(self), id(self))  # every call is its own message exchange: never merged (no_eliminate)

    def infer(self, x):
        return tuple(x.shape), x.dtype


class AllReduce(_Collective):
    """``ops.AllReduce(op=ReduceOp.SUM, group)``: every rank gets the element-wise op over all ranks.

    d/dx: all_reduce(dout) for SUM; all_reduce(dout * out) / x for PROD; all_reduce(dout) where x == out
    (this rank held the extreme) for MAX and MIN.
    """

    def __init__(self, op=ReduceOp.SUM, group=_WORLD):
        if op not in (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD):
            raise TypeError(f"AllReduce: op must be one of ReduceOp.SUM/MAX/MIN/PROD ('sum', 'max', 'min', "
                            f"'prod'), got {op!r}")
        super().__init__(op=op, group=group)

    def compute(self, x):
        return comm.allreduce(x, self.op)

    def bprop(self, x, out, dout):
        if self.op == ReduceOp.SUM:
            return (all_reduce(dout),)
        if self.op == ReduceOp.PROD:
            return (all_reduce(dout * out) / x,)
        return (all_reduce(dout) * op_table.cast(x == out, dout.dtype),)


class AllGather(_Collective):
    """``ops.AllGather(group)``: the ranks' tensors concatenated along axis 0, in rank order."""

    def __init__(self, group=_WORLD):
        super().__init__(group=group)

    def infer(self, x):
        if len(x.shape) == 0:
            raise ValueError("AllGather needs a tensor of rank >= 1 (it concatenates along axis 0)")
        return (x.shape[0] * comm.size(),) + tuple(x.shape[1:]), x.dtype

    def compute(self, x):
        return comm.allgather(x)

    def bprop(self, x, out, dout):
        return (reduce_scatter(dout),)


class ReduceScatter(_Collective):
    """``ops.ReduceScatter(op=ReduceOp.SUM, group)``: the sum over ranks, split along axis 0 among them."""

    def __init__(self, op=ReduceOp.SUM, group=_WORLD):
        if op != ReduceOp.SUM:
            raise TypeError(f"ReduceScatter: mslab supports op=ReduceOp.SUM only, got {op!r}")
        super().__init__(op=op, group=group)

    def infer(self, x):
        n = comm.size()
        if len(x.shape) == 0 or x.shape[0] % n:
            raise ValueError(f"ReduceScatter: axis 0 of shape {tuple(x.shape)} must split evenly among {n} ranks")
        return (x.shape[0] // n,) + tuple(x.shape[1:]), x.dtype

    def compute(self, x):
        return comm.reduce_scatter(x, self.op)

    def bprop(self, x, out, dout):
        return (all_gather(dout),)


class Broadcast(_Collective):
    """``ops.Broadcast(root_rank, group)``: a tuple of tensors in, rank ``root_rank``'s tuple out on every rank."""

    def __init__(self, root_rank, group=_WORLD):
        if isinstance(root_rank, bool) or not isinstance(root_rank, int):
            raise TypeError(f"Broadcast: root_rank must be an int, got {type(root_rank).__name__}")
        super().__init__(root_rank=root_rank, group=group)

    def __call__(self, x):
        if isinstance(x, (tuple, list)):  # MindSpore's Broadcast takes and returns a tuple
            return tuple(super(Broadcast, self).__call__(t) for t in x)
        return super().__call__(x)

    def compute(self, x):
        if not 0 <= self.root_rank < comm.size():
            raise ValueError(f"Broadcast: root_rank {self.root_rank} is not a rank of a group of {comm.size()}")
        return comm.broadcast(x, self.root_rank)

    def bprop(self, x, out, dout):
        return (dout,)


# ---- functional forms (mslab's; each builds the primitive above) ------------------------------------
def all_reduce(x, op=ReduceOp.SUM):
    """AllReduce(op)(x)."""
    return AllReduce(op)(x)


def all_gather(x):
    """AllGather()(x)."""
    return AllGather()(x)


def reduce_scatter(x, op=ReduceOp.SUM):
    """ReduceScatter(op)(x)."""
    return ReduceScatter(op)(x)


def broadcast(x, root_rank=0):
    """Broadcast(root_rank)(x) for one tensor."""
    return Broadcast(root_rank)(x)


op_table.register(globals(), __all__)
