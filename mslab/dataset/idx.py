"""The IDX file format that MNIST is distributed in: read and write.

An IDX file is a 4-byte magic number, then one big-endian uint32 per dimension, then the values
in C order. The magic is two zero bytes, a type code (0x08 = uint8) and the number of dimensions:
``train-images-idx3-ubyte`` holds a (N, 28, 28) uint8 array, ``train-labels-idx1-ubyte`` a (N,) one.
Files ending in ``.gz`` are read through gzip.

    >>> import numpy as np, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "x-idx3-ubyte")
    >>> write_idx(path, np.arange(12, dtype=np.uint8).reshape(2, 2, 3))
    >>> read_idx(path).shape
    (2, 2, 3)
"""
import gzip
import math
import struct
import zlib

import numpy as np

_TYPES = {0x08: np.dtype(np.uint8), 0x09: np.dtype(np.int8), 0x0B: np.dtype(">i2"), 0x0C: np.dtype(">i4"),
          0x0D: np.dtype(">f4"), 0x0E: np.dtype(">f8")}
_CODES = {dt.newbyteorder("="): code for code, dt in _TYPES.items()}


def read_idx(path):
    """The array stored in the IDX file at ``path`` (native byte order); a damaged file: a ValueError naming it."""
    opener = gzip.open if str(path).endswith(".gz") else open
    try:
        with opener(path, "rb") as f:
            data = f.read()
    except (EOFError, zlib.error, gzip.BadGzipFile) as e:  # a cut or damaged .gz
        raise ValueError(f"{path}: the gzip data is damaged or cut short ({e})") from None
    if len(data) < 4 or data[0] != 0 or data[1] != 0 or data[2] not in _TYPES:
        raise ValueError(f"{path}: not an IDX file (its first bytes are {data[:4]!r}; "
                         f"expected 00 00 <type code> <ndim>)")
    dtype, ndim = _TYPES[data[2]], data[3]
    header = 4 + 4 * ndim
    if len(data) < header:
        raise ValueError(f"{path}: the header declares {ndim} dimensions ({header} bytes), the file has {len(data)}")
    shape = struct.unpack(f">{ndim}I", data[4:header])
    count = math.prod(shape)  # exact (a Python int): a damaged shape cannot wrap around to a plausible size
    if len(data) - header != count * dtype.itemsize:
        raise ValueError(f"{path}: the header says shape {shape} ({count * dtype.itemsize} bytes of data) "
                         f"but the file has {len(data) - header} bytes after the header")
    arr = np.frombuffer(data, dtype, count, header).reshape(shape)
    return arr.astype(dtype.newbyteorder("="))


def write_idx(path, array):
    """Write ``array`` (uint8, int8, int16, int32, float32 or float64) to ``path`` in IDX format."""
    array = np.asarray(array)
    code = _CODES.get(array.dtype)
    if code is None:
        raise TypeError(f"write_idx: IDX cannot store {array.dtype}")
    header = bytes([0, 0, code, array.ndim]) + struct.pack(f">{array.ndim}I", *array.shape)
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "wb") as f:
        f.write(header + np.ascontiguousarray(array, _TYPES[code]).tobytes())
