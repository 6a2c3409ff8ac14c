"""A file's bytes as a uint8 array that remembers the file, so that a failure to decode them can name it.

MindSpore names the file when a transform fails on a row a file reader gave ("map operation: [Decode]
failed. The corresponding data file is: cats/7.png."). mslab's rows are plain numpy arrays; the bytes
of ``ImageFolderDataset`` are read into a ``bytearray`` that carries the path, and the array is a view
of it, so ``source_file(array)`` finds the path again while the array itself stays an ordinary,
writable ``np.ndarray`` (its type, printing and pickling unchanged).
"""
import numpy as np

__all__ = ["file_bytes", "source_file"]


class _FileData(bytearray):
    """A bytearray with the path it was read from."""

    __slots__ = ("path",)


def file_bytes(data, path):
    """``data`` (the bytes of ``path``) as a writable 1-D uint8 array that remembers ``path``."""
    buffer = _FileData(data)
    buffer.path = path
    return np.frombuffer(buffer, np.uint8)


def source_file(array):
    """The path the array's bytes were read from, or None when it was not read by ``file_bytes``."""
    view = getattr(array, "base", None)  # numpy keeps the buffer behind a memoryview
    return getattr(getattr(view, "obj", None), "path", None)
