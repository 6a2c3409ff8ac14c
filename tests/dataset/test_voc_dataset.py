"""VOCDataset on a small generated VOC2012 folder; the expectations are what MindSpore 2.10 read from the
same folder (observed on MindSpore 2.10 CPU)."""
import os

import numpy as np
import pytest
from PIL import Image

import mslab.dataset as ds


def rows(dataset):
    return list(dataset.create_tuple_iterator(output_numpy=True, num_epochs=1))


def _object(name, box, difficult=0, truncated=0):
    return (f"<object><name>{name}</name><pose>Left</pose><truncated>{truncated}</truncated>"
            f"<difficult>{difficult}</difficult><bndbox><xmin>{box[0]}</xmin><ymin>{box[1]}</ymin>"
            f"<xmax>{box[2]}</xmax><ymax>{box[3]}</ymax></bndbox></object>")


@pytest.fixture
def voc(tmp_path):
    root = tmp_path / "VOC2012"
    for d in ["JPEGImages", "Annotations", "ImageSets/Main", "ImageSets/Segmentation", "SegmentationClass"]:
        os.makedirs(root / d)
    annotations = {"2007_000001": [_object("dog", (1, 2, 5, 7)), _object("person", (1, 1, 3, 3), 1, 1)],
                   "2007_000002": [_object("cat", (2.5, 1, 4, 6))]}
    for i, (name, objects) in enumerate(annotations.items()):
        Image.fromarray(np.full((8, 6, 3), 10 * (i + 1), np.uint8)).save(root / "JPEGImages" / f"{name}.jpg")
        Image.fromarray(np.full((8, 6), i + 1, np.uint8)).save(root / "SegmentationClass" / f"{name}.png")
        (root / "Annotations" / f"{name}.xml").write_text(
            f"<annotation><filename>{name}.jpg</filename><size><width>6</width><height>8</height><depth>3</depth>"
            f"</size>{''.join(objects)}</annotation>")
    (root / "ImageSets/Main/train.txt").write_text("2007_000001\n2007_000002\n")
    (root / "ImageSets/Segmentation/train.txt").write_text("2007_000002\n2007_000001\n")
    return str(root)


def test_detection_rows(voc):
    data = ds.VOCDataset(voc, task="Detection", usage="train", shuffle=False)
    assert data.get_col_names() == ["image", "bbox", "label", "difficult", "truncate"] and data.get_dataset_size() == 2
    got = rows(data)
    assert [(a.dtype, a.shape[1:]) for a in got[0][1:]] == [(np.float32, (4,))] + [(np.uint32, (1,))] * 3
    assert got[0][0].dtype == np.uint8 and got[0][0].ndim == 1  # the JPEG file's bytes
    # observed on MindSpore 2.10 CPU: bbox is xmin, ymin, width, height; classes in sorted order of the names
    assert [a.tolist() for a in got[0][1:]] == [[[1.0, 2.0, 4.0, 5.0], [1.0, 1.0, 2.0, 2.0]], [[1], [2]], [[0], [1]],
                                                [[0], [1]]]
    assert [a.tolist() for a in got[1][1:]] == [[[2.5, 1.0, 1.5, 5.0]], [[0]], [[0]], [[0]]]
    assert data.get_class_indexing() == {"cat": 0, "dog": 1, "person": 2}
    mapped = ds.VOCDataset(voc, task="Detection", usage="train", shuffle=False,
                           class_indexing={"dog": 5, "cat": 2, "person": 0})
    assert [r[2].tolist() for r in rows(mapped)] == [[[5], [0]], [[2]]]
    only_dogs = ds.VOCDataset(voc, task="Detection", usage="train", shuffle=False, class_indexing={"dog": 5})
    assert [r[2].tolist() for r in rows(only_dogs)] == [[[5]]]  # observed: the cat image is skipped
    decoded = ds.VOCDataset(voc, task="Detection", usage="train", shuffle=False, decode=True)
    assert [(r[0].shape, int(r[0][0, 0, 0])) for r in rows(decoded)] == [((8, 6, 3), 10), ((8, 6, 3), 20)]


def test_segmentation_rows(voc):
    data = ds.VOCDataset(voc, task="Segmentation", usage="train", shuffle=False, decode=True)
    assert data.get_col_names() == ["image", "target"]
    # observed: the split file's order; the mask decodes to RGB
    assert [[(a.shape, int(a.ravel()[0])) for a in r] for r in rows(data)] == [
        [((8, 6, 3), 20), ((8, 6, 3), 2)], [((8, 6, 3), 10), ((8, 6, 3), 1)]]
    raw = rows(ds.VOCDataset(voc, usage="train", shuffle=False))[0]
    assert raw[1].dtype == np.uint8 and raw[1].ndim == 1


def test_errors_as_mindspore(voc, tmp_path):
    with pytest.raises(ValueError, match="Invalid task : Classify."):
        ds.VOCDataset(voc, task="Classify")
    with pytest.raises(ValueError, match=r"ImageSets/Main/val.txt does not exist or permission denied!"):
        ds.VOCDataset(voc, task="Detection", usage="val")
    with pytest.raises(ValueError, match="class_indexing is not supported in Segmentation task."):
        ds.VOCDataset(voc, task="Segmentation", class_indexing={"a": 1})
    bad = os.path.join(voc, "Annotations", "2007_000002.xml")
    with open(bad) as f:
        text = f.read()
    with open(bad, "w") as f:
        f.write(text.replace("<xmin>2.5</xmin><ymin>1</ymin>", "<xmin>0</xmin><ymin>0</ymin>"))
    with pytest.raises(RuntimeError, match=r"Invalid bndbox, the coordinate of bndbox in .*2007_000002.xml should be "
                                           r"greater than 0, but got \{0, 0, 4, 6\}"):
        ds.VOCDataset(voc, task="Detection", usage="train").get_dataset_size()


def test_coco_detection(tmp_path):
    import json

    folder = tmp_path / "images"
    folder.mkdir()
    for i, name in enumerate(["b.jpg", "a.jpg", "c.jpg"]):
        Image.fromarray(np.full((4, 5, 3), 10 * (i + 1), np.uint8)).save(folder / name)
    annotations = {
        "images": [{"id": 7, "file_name": "b.jpg", "height": 4, "width": 5},
                   {"id": 3, "file_name": "a.jpg", "height": 4, "width": 5},
                   {"id": 9, "file_name": "c.jpg", "height": 4, "width": 5}],
        "categories": [{"id": 1, "name": "person", "supercategory": "p"},
                       {"id": 18, "name": "dog", "supercategory": "animal"}],
        "annotations": [{"id": 1, "image_id": 7, "category_id": 18, "bbox": [1, 1, 2, 2.5], "iscrowd": 0, "area": 5},
                        {"id": 2, "image_id": 7, "category_id": 1, "bbox": [0, 0, 1, 1], "iscrowd": 1, "area": 1},
                        {"id": 3, "image_id": 3, "category_id": 1, "bbox": [2, 2, 1, 1], "iscrowd": 0, "area": 1}]}
    path = tmp_path / "ann.json"
    path.write_text(json.dumps(annotations))
    data = ds.CocoDataset(str(folder), str(path), task="Detection", shuffle=False)
    # observed on MindSpore 2.10 CPU: the images list's order, the image without annotations skipped
    assert data.get_col_names() == ["image", "bbox", "category_id", "iscrowd"] and data.get_dataset_size() == 2
    got = rows(data)
    assert [(a.dtype, a.shape) for a in got[0][1:]] == [(np.float32, (2, 4)), (np.uint32, (2, 1)), (np.uint32, (2, 1))]
    assert [a.tolist() for a in got[0][1:]] == [[[1.0, 1.0, 2.0, 2.5], [0.0, 0.0, 1.0, 1.0]], [[18], [1]], [[0], [1]]]
    assert [a.tolist() for a in got[1][1:]] == [[[2.0, 2.0, 1.0, 1.0]], [[1]], [[0]]]
    assert data.get_class_indexing() == {"person": [1], "dog": [18]}
    decoded = ds.CocoDataset(str(folder), str(path), shuffle=False, decode=True)
    assert [(r[0].shape, int(r[0][0, 0, 0])) for r in rows(decoded)] == [((4, 5, 3), 10), ((4, 5, 3), 20)]
    with pytest.raises(ValueError, match="Invalid task type: Boxes."):
        ds.CocoDataset(str(folder), str(path), task="Boxes")
    with pytest.raises(ValueError, match="nope.json does not exist or permission denied!"):
        ds.CocoDataset(str(folder), str(tmp_path / "nope.json"))
