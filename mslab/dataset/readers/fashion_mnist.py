"""``FashionMnistDataset``: Fashion-MNIST, the same IDX files and columns as MNIST.

The folder holds ``train-images-idx3-ubyte``, ``train-labels-idx1-ubyte``, ``t10k-images-idx3-ubyte``
and ``t10k-labels-idx1-ubyte`` (each may end in ``.gz``); rows are ``image`` (uint8, (28, 28, 1))
and ``label`` (uint32). With ``usage="all"`` the test rows come first, then the training rows, as in
MnistDataset (observed on MindSpore 2.10).
"""
from mslab.dataset.readers.cifar import check_folder
from mslab.dataset.sources import MnistDataset


class FashionMnistDataset(MnistDataset):
    """Fashion-MNIST from ``dataset_dir`` (IDX files); ``usage`` is "train", "test" or "all"."""

    op_name = "FashionMnistDataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        super().__init__(check_folder(dataset_dir, self.op_name), usage, num_samples, num_parallel_workers, shuffle,
                         sampler, num_shards, shard_id, cache)
