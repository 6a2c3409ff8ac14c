"""The path ``mindspore.dataset.engine.samplers``: the samplers (as ``mslab.dataset.X``)."""
from mslab.dataset.distributed_sampler import DistributedSampler
from mslab.dataset.samplers import IterSampler, PKSampler, WeightedRandomSampler
from mslab.dataset.sources import RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler, SubsetSampler

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "SubsetSampler", "SubsetRandomSampler",
           "DistributedSampler", "WeightedRandomSampler", "PKSampler", "IterSampler"]
