"""``CocoDataset``: COCO detection annotations (one JSON file) over a folder of images.

As MindSpore 2.10 reads them (observed on CPU): one row per image of the file's ``images`` list that has
annotations, in that list's order (images without any are skipped); ``image`` is the file's bytes (or
decoded RGB), ``bbox`` float32 (N, 4) as written (x, y, width, height), ``category_id`` and ``iscrowd``
uint32 (N, 1). ``get_class_indexing()`` gives ``{category name: [category id]}``. The Stuff, Keypoint,
Panoptic and Captioning tasks are not implemented by mslab.
"""
import json
import os

import numpy as np

from mslab.dataset.readers.cifar import check_folder
from mslab.dataset.readers.records import ItemRows
from mslab.dataset.readers.voc import _read
from mslab.dataset.sources import GeneratorDataset

_TASKS = ("Detection", "Stuff", "Keypoint", "Panoptic", "Captioning")


class CocoDataset(GeneratorDataset):
    """COCO images in ``dataset_dir`` with the annotations of ``annotation_file`` (task "Detection")."""

    op_name = "CocoDataset"

    def __init__(self, dataset_dir, annotation_file, task="Detection", num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None, cache=None,
                 extra_metadata=False, decrypt=None):
        if task not in _TASKS:
            raise ValueError(f"Invalid task type: {task}.")  # MindSpore's messages
        if task != "Detection" or extra_metadata:
            raise NotImplementedError(f"{self.op_name}: mslab reads task='Detection' without extra_metadata, got "
                                      f"task={task!r}, extra_metadata={extra_metadata}")
        folder = check_folder(dataset_dir, self.op_name)
        if not os.path.isfile(annotation_file):
            raise ValueError(f"The file {annotation_file} does not exist or permission denied!")
        try:
            with open(annotation_file, encoding="utf8") as f:
                coco = json.load(f)
            by_image = {}
            for a in coco["annotations"]:
                by_image.setdefault(a["image_id"], []).append(a)
            images = [(im["file_name"], by_image[im["id"]]) for im in coco["images"] if im["id"] in by_image]
            self._categories = {c["name"]: [c["id"]] for c in coco.get("categories", [])}
        except (ValueError, KeyError, TypeError) as e:
            raise RuntimeError(f"{self.op_name}: {annotation_file} is not a COCO annotation file (images, "
                               f"annotations, categories): {type(e).__name__}: {e}") from None
        self.dataset_dir, self.annotation_file, self.task, self.cache = folder, annotation_file, task, cache

        def read(image):
            name, objects = image
            column = lambda key: np.array([[int(o.get(key, 0))] for o in objects], np.uint32)  # noqa: E731
            return (_read(os.path.join(folder, name), decode, self.op_name),
                    np.array([o["bbox"] for o in objects], np.float32).reshape(-1, 4), column("category_id"),
                    column("iscrowd"))

        super().__init__(ItemRows(images, read), ["image", "bbox", "category_id", "iscrowd"],
                         num_samples=num_samples, shuffle=shuffle, sampler=sampler, num_shards=num_shards,
                         shard_id=shard_id)

    def get_class_indexing(self):
        """``{category name: [category id]}`` from the annotation file's categories."""
        return {k: list(v) for k, v in self._categories.items()}
