"""``VOCDataset``: PASCAL VOC (``VOCdevkit/VOC2012``) from a local folder, for detection or segmentation.

The folder holds ``JPEGImages/<id>.jpg``, ``Annotations/<id>.xml`` (objects: name, difficult, truncated,
bndbox xmin/ymin/xmax/ymax), ``SegmentationClass/<id>.png`` and the splits ``ImageSets/Main/<usage>.txt``
(detection) and ``ImageSets/Segmentation/<usage>.txt`` (segmentation), one id per line.

As MindSpore 2.10 gives them (observed on CPU): a detection row is ``image`` (the file's bytes, or
decoded), ``bbox`` (float32, (N, 4): xmin, ymin, width, height), ``label``, ``difficult`` and
``truncate`` (uint32, (N, 1)); classes are numbered in sorted order of the names in the split's
annotations unless ``class_indexing`` maps names to numbers, and then objects of other classes are
left out, and images left with none are skipped. A segmentation row is ``image`` and ``target`` (the
mask PNG's bytes; decoded, an RGB image).
"""
import os

import numpy as np

from mslab.dataset.readers.cifar import check_folder
from mslab.dataset.readers.records import ItemRows
from mslab.dataset.sources import GeneratorDataset
from mslab.dataset.vision.pil_transforms import decode_image


def _read(path, decode, what):
    with open(path, "rb") as f:
        data = f.read()
    return decode_image(data, f"{what}: {path}") if decode else np.frombuffer(data, np.uint8).copy()


def _objects(path, what):
    """[(name, [xmin, ymin, xmax, ymax], difficult, truncated), ...] of an annotation file."""
    import xml.etree.ElementTree as ElementTree  # here, not at the top: only VOC reads XML (import mslab stays lean)

    try:
        root = ElementTree.parse(path).getroot()
        found = []
        for obj in root.iter("object"):
            box = [float(obj.find("bndbox").find(k).text) for k in ("xmin", "ymin", "xmax", "ymax")]
            flags = [int(float(obj.findtext(k, "0"))) for k in ("difficult", "truncated")]
            found.append((obj.findtext("name").strip(), box, *flags))
    except (ElementTree.ParseError, AttributeError, TypeError, ValueError) as e:
        raise RuntimeError(f"{what}: cannot read the annotation {path}: {type(e).__name__}: {e}") from None
    for _, box, _, _ in found:
        if min(box) <= 0:  # MindSpore's check and message
            raise RuntimeError(f"Invalid bndbox, the coordinate of bndbox in {path} should be greater than 0, but "
                               f"got {{{', '.join(f'{v:g}' for v in box)}}}")
    return found


class _Detection:
    def __init__(self, root, ids, class_indexing, decode, what):
        self.root, self.ids, self.decode, self.what = root, ids, decode, what
        self.class_indexing, self._items = class_indexing, None

    def items(self):
        """(id, objects) of each image that keeps an object, read from the annotations on first use."""
        if self._items is None:
            items = [(i, _objects(os.path.join(self.root, "Annotations", f"{i}.xml"), self.what)) for i in self.ids]
            if self.class_indexing is None:
                names = sorted({o[0] for _, objs in items for o in objs})
                self.class_indexing = {n: k for k, n in enumerate(names)}
            else:
                items = [(i, [o for o in objs if o[0] in self.class_indexing]) for i, objs in items]
            self._items = [(i, objs) for i, objs in items if objs]
        return self._items

    def __len__(self):
        return len(self.items())

    def __getitem__(self, k):
        i, objs = self.items()[k]
        image = _read(os.path.join(self.root, "JPEGImages", f"{i}.jpg"), self.decode, self.what)
        bbox = np.array([[x0, y0, x1 - x0, y1 - y0] for _, (x0, y0, x1, y1), _, _ in objs], np.float32)
        column = lambda values: np.array(values, np.uint32).reshape(-1, 1)  # noqa: E731
        return (image, bbox, column([self.class_indexing[o[0]] for o in objs]), column([o[2] for o in objs]),
                column([o[3] for o in objs]))


class VOCDataset(GeneratorDataset):
    """PASCAL VOC from ``dataset_dir`` (the VOC2012 folder): ``task`` "Detection" or "Segmentation" (the default).

    ``usage`` names the split file ("train", "val", "trainval", ...). ``decode=True`` gives RGB images.
    Shuffled by default.
    """

    op_name = "VOCDataset"

    def __init__(self, dataset_dir, task="Segmentation", usage="train", class_indexing=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None, extra_metadata=False, decrypt=None):
        if task not in ("Detection", "Segmentation"):
            raise ValueError(f"Invalid task : {task}.")  # MindSpore's messages
        if task == "Segmentation" and class_indexing is not None:
            raise ValueError("class_indexing is not supported in Segmentation task.")
        if extra_metadata:
            raise NotImplementedError("VOCDataset: extra_metadata=True (the _meta-filename column) is not supported "
                                      "by mslab")
        root = check_folder(dataset_dir, self.op_name)
        split = os.path.join(root, "ImageSets", "Main" if task == "Detection" else "Segmentation", f"{usage}.txt")
        if not os.path.isfile(split):
            raise ValueError(f"The file {split} does not exist or permission denied!")
        with open(split, encoding="utf8") as f:
            ids = [line.strip() for line in f if line.strip()]
        if task == "Detection":
            source = _Detection(root, ids, None if class_indexing is None else dict(class_indexing), decode,
                                self.op_name)
            columns = ["image", "bbox", "label", "difficult", "truncate"]
        else:
            def read(i):
                return (_read(os.path.join(root, "JPEGImages", f"{i}.jpg"), decode, self.op_name),
                        _read(os.path.join(root, "SegmentationClass", f"{i}.png"), decode, self.op_name))

            source, columns = ItemRows(ids, read), ["image", "target"]
        self.dataset_dir, self.task, self.usage, self.cache = root, task, usage, cache
        super().__init__(source, columns, num_samples=num_samples, shuffle=shuffle, sampler=sampler,
                         num_shards=num_shards, shard_id=shard_id)

    def get_class_indexing(self):
        """``{class name: number}`` of a detection data set (read from its annotations)."""
        if self.task != "Detection":
            raise RuntimeError("VOCDataset: get_class_indexing is only for task='Detection'")
        self.source.items()
        return dict(self.source.class_indexing)
