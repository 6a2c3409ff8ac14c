"""``Cifar10ToMR(source, destination).transform()``: CIFAR-10 (python version) into two MindRecord files.

``source`` is the ``cifar-10-batches-py`` folder: pickled dicts ``data_batch_1`` ... and ``test_batch``,
each with ``b"data"`` (N x 3072 uint8, the red, green and blue 32 x 32 planes) and ``b"labels"``.
As MindSpore 2.10 (observed on CPU): the training batches are read in the order ``os.listdir`` gives,
every image is stored JPEG-encoded, and ``destination`` gets the training rows and
``destination + "_test"`` the test rows (each with its ``.db`` index), schema ``{"id": int64, "label":
int64, "data": bytes}``, ``id`` counting from 0 in each file. MindSpore encodes with OpenCV, mslab with
Pillow at OpenCV's default quality 95; on the test fixture the JPEG bytes came out identical (observed with
OpenCV 4.10 and Pillow 13). Like any JPEG, the stored image differs slightly from the batch's pixels.

The pickles are read with an unpickler that allows only numpy arrays (as MindSpore's does), so a
crafted file cannot run code.
"""
import io
import os
import pickle

import numpy as np

from mslab.mindrecord.writer import FileWriter

__all__ = ["Cifar10ToMR"]

_SCHEMA = {"id": {"type": "int64"}, "label": {"type": "int64"}, "data": {"type": "bytes"}}
# the globals a pickled numpy array refers to (numpy 1 and numpy 2 module names)
_ALLOWED = {("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
            ("numpy", "ndarray"), ("numpy", "dtype")}


class ParamValueError(ValueError):
    """A bad argument (MindSpore's ``mindrecord`` ParamValueError)."""

    def __init__(self, detail):
        super().__init__(f"[ParamValueError]: Invalid parameter value. {detail}")


class PathNotExistsError(FileNotFoundError):
    """A file the conversion needs is missing (MindSpore's ``mindrecord`` PathNotExistsError)."""

    def __init__(self, path):
        super().__init__(f"[PathNotExistsError]: Invalid path. {path}")


class _NumpyOnlyUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if (module, name) not in _ALLOWED:
            raise pickle.UnpicklingError(f"global '{module}.{name}' is forbidden")
        return super().find_class(module, name)


def _check_filename(path):
    if not isinstance(path, str):
        raise ParamValueError(f"File path: {path} is not string.")


def _read_batch(path):
    """(images N x 32 x 32 x 3 uint8, labels N) of one pickled batch."""
    try:
        with open(path, "rb") as f:
            batch = _NumpyOnlyUnpickler(f).load()
        images = np.asarray(batch[b"data"], np.uint8).reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
        labels = np.asarray(batch[b"labels"], np.int64).reshape(-1)
    except (pickle.UnpicklingError, KeyError, ValueError, TypeError, EOFError) as err:
        raise ValueError(f"Cifar10ToMR: {path} is not a CIFAR-10 python batch ({err})") from None
    if len(images) != len(labels):
        raise ValueError(f"Cifar10ToMR: {path} holds {len(images)} images but {len(labels)} labels")
    return images, labels


class Cifar10ToMR:
    """Convert the CIFAR-10 python batches in ``source`` to MindRecord ``destination`` and ``destination_test``."""

    def __init__(self, source, destination):
        _check_filename(source)
        files = os.listdir(source)
        if not any(f.startswith("data_batch_") for f in files):
            raise PathNotExistsError("data_batch_*")
        if not any(f.startswith("test_batch") for f in files):
            raise PathNotExistsError("test_batch")
        _check_filename(destination)
        self.source, self.destination = source, destination

    def transform(self, fields=None):
        """Write both files; ``fields`` (a list, e.g. ``["label"]``) are indexed in the ``.db``. Returns None."""
        if fields and not isinstance(fields, list):
            raise ValueError("The parameter fields should be None or list")
        train, test = [], None
        for name in os.listdir(self.source):  # listdir's order, as MindSpore
            if name.startswith("data_batch_"):
                train.append(_read_batch(os.path.join(self.source, name)))
            elif name.startswith("test_batch"):
                test = _read_batch(os.path.join(self.source, name))
        images = np.concatenate([b[0] for b in train])
        labels = np.concatenate([b[1] for b in train])
        self._write(self.destination, images, labels, fields, "img_train")
        self._write(self.destination + "_test", test[0], test[1], fields, "img_test")

    @staticmethod
    def _write(file_name, images, labels, fields, desc):
        from PIL import Image  # Pillow loads only when a conversion runs

        rows = []
        for i, (image, label) in enumerate(zip(images, labels)):
            buffer = io.BytesIO()
            Image.fromarray(image).save(buffer, format="JPEG", quality=95)
            rows.append({"id": i, "label": int(label), "data": buffer.getvalue()})
        writer = FileWriter(file_name, 1)
        writer.add_schema(_SCHEMA, desc)
        if fields:
            writer.add_index(fields)
        writer.write_raw_data(rows)
        writer.commit()
