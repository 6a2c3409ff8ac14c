"""Sharding a source among data-parallel ranks: ``num_shards``/``shard_id`` (MindSpore's DistributedSampler).

Every rank reads the same source; shard ``k`` of ``K`` keeps the rows at positions k, k+K, k+2K, ...
of the (possibly shuffled) order. When the rows do not split evenly the order is padded with its own
first rows, so every shard has ceil(n / K) rows and all ranks run the same number of steps
(observed on MindSpore 2.10: 7 rows in 3 shards give [0, 3, 6], [1, 4, 0], [2, 5, 1]).

A shuffled sharded source shuffles with a generator every rank seeds alike (``config.shared_seed()``),
so in each epoch the shards are disjoint pieces of one permutation, and each epoch has a new one.
"""
import numpy as np


class Shard:
    """Which rows of a source this rank reads: shard ``shard_id`` of ``num_shards``."""

    def __init__(self, num_shards, shard_id):
        self.num_shards, self.shard_id = num_shards, shard_id

    @classmethod
    def from_args(cls, op_name, num_shards, shard_id, random_access):
        """Check the arguments as MindSpore does; None when the source is not sharded."""
        if num_shards is None and shard_id is None:
            return None
        if num_shards is None or shard_id is None:
            raise ValueError(f"{op_name}: num_shards and shard_id need to be passed in together.")
        for name, v in (("num_shards", num_shards), ("shard_id", shard_id)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise TypeError(f"{op_name}: {name} must be an int, got {type(v).__name__}")
        if num_shards < 1:
            raise ValueError(f"{op_name}: num_shards must be >= 1, got {num_shards}")
        if not 0 <= shard_id < num_shards:
            raise ValueError(f"{op_name}: shard_id should be less than num_shards (and >= 0); got shard_id="
                             f"{shard_id}, num_shards={num_shards}.")
        if not random_access:
            raise ValueError(f"{op_name}: num_shards is not supported if source does not have attribute "
                             f"'__getitem__'.")
        return cls(int(num_shards), int(shard_id))

    def size(self, n):
        """Rows in each shard of ``n`` rows: ceil(n / num_shards)."""
        return -(-n // self.num_shards)

    def take(self, order):
        """This shard's rows of ``order`` (row indices), padded with the first rows to split evenly."""
        order = np.asarray(order)
        if len(order) == 0:
            return order
        padded = order[np.arange(self.size(len(order)) * self.num_shards) % len(order)]
        return padded[self.shard_id::self.num_shards]
