"""The MindRecord file layout (version 3.0), as MindSpore 2.10's ``FileWriter`` writes it (observed).

A file is a header, then fixed-size pages:

- bytes 0-7: the header's length n (little-endian uint64); bytes 8..8+n: the header, JSON: the
  schema, ``blob_fields`` (the array and bytes fields, sorted), ``index_fields``, ``page_size``
  (32 MiB), ``header_size`` (16 MiB) and one entry per page (its type and used size);
- page k starts at ``header_size + k * page_size``. A RAW_DATA page holds each row's scalar fields
  (int32/int64/float32/float64/string) as a MessagePack map; a BLOB_DATA page holds each row's
  array and bytes fields, in ``blob_fields`` order. Every row in a page starts with its length
  (little-endian uint64); inside a blob row each field starts with its length (big-endian uint64),
  unless the schema has only one blob field (then the row is that field's bytes).
- pages are filled up to ``page_size``; blob page k is row group k, and the RAW_DATA page lists in
  ``row_group_ids`` the offset of each group's first row.
- int32/int64 arrays are stored compressed: the count (big-endian uint32), then 2 bits per element
  (MSB first, padded to whole bytes) saying how many bytes it takes (0: 1, 1: 2, 2: 4, 3: 8), then
  the elements, little-endian, each in its size. Float arrays are their little-endian bytes.

Beside the file, ``<file>.db`` (SQLite) indexes each row's page and offsets; MindSpore needs it.
"""
import json
import struct

import numpy as np

HEADER_SIZE = 1 << 24
PAGE_SIZE = 1 << 25
VERSION = "3.0"
SCALAR_TYPES = {"int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64}
TYPES = {*SCALAR_TYPES, "string", "bytes"}
_WIDTHS = (np.int8, np.int16, np.int32, np.int64)


def is_blob(field):
    """Arrays (a ``shape`` in the schema) and bytes go to BLOB_DATA pages; the rest to RAW_DATA."""
    return field["type"] == "bytes" or "shape" in field


def compress_ints(values):
    """int32/int64 array -> MindRecord's compressed bytes (each element in 1, 2, 4 or 8 bytes)."""
    flat = np.asarray(values, np.int64).reshape(-1)
    codes = np.full(flat.shape, 3, np.uint8)
    for code, t in reversed(list(enumerate(_WIDTHS[:3]))):
        info = np.iinfo(t)
        codes[(flat >= info.min) & (flat <= info.max) & (codes > code)] = code
    bits = np.unpackbits(codes[:, None], axis=1)[:, 6:].reshape(-1)  # two bits per element, MSB first
    parts = [struct.pack(">I", flat.size), np.packbits(bits).tobytes()]
    parts += [v.to_bytes(1 << c, "little", signed=True) for v, c in zip(flat.tolist(), codes.tolist())]
    return b"".join(parts)


def decompress_ints(data):
    """The int64 elements of MindRecord's compressed integer bytes."""
    n = struct.unpack(">I", data[:4])[0]
    nbytes = (2 * n + 7) // 8
    bits = np.unpackbits(np.frombuffer(data, np.uint8, nbytes, 4))[: 2 * n].reshape(n, 2)
    codes = bits[:, 0] * 2 + bits[:, 1]
    out, pos = np.empty(n, np.int64), 4 + nbytes
    for i, c in enumerate(codes.tolist()):
        size = 1 << c
        out[i] = int.from_bytes(data[pos:pos + size], "little", signed=True)
        pos += size
    return out


def encode_blob(field, value):
    if field["type"] == "bytes":
        return bytes(value)
    arr = np.asarray(value, SCALAR_TYPES[field["type"]])
    if field["type"] in ("int32", "int64"):
        return compress_ints(arr)
    return arr.astype(arr.dtype.newbyteorder("<")).tobytes()


def decode_blob(field, data):
    """A blob field's stored bytes as MindSpore's MindDataset gives it (bytes: a length-1 ``S`` array)."""
    if field["type"] == "bytes":
        return np.array([bytes(data)], dtype=f"S{max(len(data), 1)}")
    if field["type"] in ("int32", "int64"):
        arr = decompress_ints(data).astype(SCALAR_TYPES[field["type"]])
    else:
        arr = np.frombuffer(data, np.dtype(SCALAR_TYPES[field["type"]]).newbyteorder("<")).astype(
            SCALAR_TYPES[field["type"]])
    shape = field.get("shape", [-1])
    return arr.reshape(shape) if shape != [-1] else arr


def decode_scalar(field, value):
    if field["type"] == "string":
        return np.array(value)
    return np.array(value, SCALAR_TYPES[field["type"]])


def read_header(fh, path):
    """The header dict of an open MindRecord file (its first bytes checked)."""
    fh.seek(0)
    head = fh.read(8)
    n = struct.unpack("<Q", head)[0] if len(head) == 8 else 0
    if not 0 < n < HEADER_SIZE:
        raise ValueError(f"MindDataset: {path} is not a MindRecord file (its first 8 bytes {head!r} are not a "
                         f"header length)")
    try:
        header = json.loads(fh.read(n))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"MindDataset: {path} is not a MindRecord file (its header is not JSON: {e})") from e
    if "page" not in header or "schema" not in header:
        raise ValueError(f"MindDataset: {path} is not a MindRecord file (no schema or pages in its header)")
    return header
