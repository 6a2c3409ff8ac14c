"""``DistributedSampler``: the rows one shard (one of ``num_shards`` training processes) reads.

Each shard reads ``ceil(n / num_shards)`` rows: shard s takes rows ``s, s + num_shards, s + 2 * num_shards,
...`` of the (shuffled, by default) order, wrapping round to the start so that every shard reads as many
rows (observed on MindSpore 2.10: 10 rows in 3 shards give shard 1 the rows [1, 4, 7, 0]). ``offset``
shifts which shard starts: shard s reads as shard ``s - offset`` would. mslab runs one process, so a
program uses this to look at one shard's share, e.g. to check that the shards cover the data set.
"""
import math

from mslab.dataset.sources import Sampler


class DistributedSampler(Sampler):
    """Rows of shard ``shard_id`` of ``num_shards``; ``shuffle`` (default True) shuffles them first."""

    def __init__(self, num_shards, shard_id, shuffle=True, num_samples=None, offset=-1):
        for name, v in (("num_shards", num_shards), ("shard_id", shard_id)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"DistributedSampler: {name} must be an int, got {type(v).__name__}")
        if num_shards < 1 or not 0 <= shard_id < num_shards:
            raise ValueError(f"DistributedSampler: need num_shards >= 1 and 0 <= shard_id < num_shards, got "
                             f"num_shards={num_shards}, shard_id={shard_id}")
        super().__init__(num_samples)
        self.num_shards, self.shard_id, self.shuffle, self.offset = num_shards, shard_id, shuffle, offset
        self.random = bool(shuffle)

    def _all(self, n, rng):
        order = rng.permutation(n) if self.shuffle else range(n)
        start = (self.shard_id - max(self.offset, 0)) % self.num_shards
        per_shard = math.ceil(n / self.num_shards) if n else 0
        return [int(order[(start + k * self.num_shards) % n]) for k in range(per_shard)]
