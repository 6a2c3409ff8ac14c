"""``ImageFolderDataset``: a folder of class folders (``dogs/001.jpg``, ``cats/7.png``, ...).

Each sub-folder is a class; its files are the class's images. Classes are numbered in sorted order
of the folder names (``cats`` 0, ``dogs`` 1) unless ``class_indexing`` maps names to numbers, and
files come in sorted order within each class. As in MindSpore, ``image`` is the file's raw bytes
(uint8, 1-D: decode it with ``vision.Decode()``, or pass ``decode=True``) and ``label`` is int32.
Only the list of file names is kept in memory; each image is read when its row is.
"""
import os

import numpy as np

from mslab.dataset.file_bytes import file_bytes
from mslab.dataset.readers.cifar import check_folder
from mslab.dataset.sources import GeneratorDataset
from mslab.dataset.vision.pil_transforms import decode_image


class _ImageFiles:
    def __init__(self, files, decode, what):
        self.files, self.decode, self.what = files, decode, what

    def __len__(self):
        return len(self.files)

    def labels(self):
        """Every row's label, known from the folder names without reading the images (for PKSampler)."""
        return [label for _, label in self.files]

    def __getitem__(self, i):
        path, label = self.files[i]
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:  # a broken link, a file removed since, no permission: MindSpore's words, then why
            raise RuntimeError(f"{self.what}: Failed to open file: {path} ({e.strerror or e})") from None
        image = decode_image(data, f"{self.what}: {path}") if self.decode else file_bytes(data, path)
        return image, np.int32(label)


def list_images(dataset_dir, extensions, class_indexing, what):
    """``[(path, label), ...]`` for the class folders of ``dataset_dir``, in MindSpore's order."""
    classes = sorted(d for d in os.listdir(dataset_dir) if os.path.isdir(os.path.join(dataset_dir, d)))
    if class_indexing is not None:
        unknown = set(class_indexing) - set(classes)
        if unknown:
            raise ValueError(f"{what}: class_indexing names folders that are not in {dataset_dir}: {sorted(unknown)}")
        classes = [c for c in classes if c in class_indexing]
    labels = class_indexing or {c: i for i, c in enumerate(classes)}
    exts = None if extensions is None else tuple(e.lower() for e in extensions)
    files = []
    for c in classes:
        folder = os.path.join(dataset_dir, c)
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            # files and broken links, as MindSpore lists them: a broken link is a row that fails when read
            if (os.path.isfile(path) or os.path.islink(path) and not os.path.exists(path)) \
                    and (exts is None or name.lower().endswith(exts)):
                files.append((path, labels[c]))
    return files


class ImageFolderDataset(GeneratorDataset):
    """Images in class folders under ``dataset_dir``: columns ``image`` (raw bytes, or decoded) and ``label``.

    ``extensions`` (e.g. ``[".jpg", ".png"]``) keeps only files with those endings (every file by
    default, as in MindSpore); ``class_indexing`` (``{"cats": 0, "dogs": 1}``) chooses the classes
    and their numbers; ``decode=True`` gives RGB images (uint8, height x width x 3) through Pillow.
    Shuffled by default.
    """

    op_name = "ImageFolderDataset"

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 extensions=None, class_indexing=None, decode=False, num_shards=None, shard_id=None, cache=None,
                 decrypt=None):
        dataset_dir = check_folder(dataset_dir, self.op_name)
        files = list_images(dataset_dir, extensions, class_indexing, self.op_name)
        if not files:
            raise ValueError(f"{self.op_name}: no images in the class folders of {dataset_dir} "
                             f"(extensions={extensions!r})")
        self.dataset_dir, self.class_indexing, self.cache = dataset_dir, class_indexing, cache
        super().__init__(_ImageFiles(files, decode, self.op_name), ["image", "label"], num_samples=num_samples,
                         shuffle=shuffle, sampler=sampler, num_shards=num_shards, shard_id=shard_id)
