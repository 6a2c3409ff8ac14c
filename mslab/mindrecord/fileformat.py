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

Beside the file, ``<file>.db`` (SQLite) indexes each row's page and offsets; MindSpore and mslab read the
rows through it (see :mod:`mslab.mindrecord.index`).
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
    """The int64 elements of MindRecord's compressed integer bytes (every size checked against ``data``)."""
    if len(data) < 4:
        raise ValueError(f"compressed integers need a 4-byte count, the field holds {len(data)} bytes")
    n = struct.unpack(">I", data[:4])[0]
    nbytes = (2 * n + 7) // 8
    if 4 + nbytes + n > len(data):  # each element takes at least one byte: checked before allocating
        raise ValueError(f"{n} compressed integers need at least {4 + nbytes + n} bytes, the field holds {len(data)}")
    bits = np.unpackbits(np.frombuffer(data, np.uint8, nbytes, 4))[: 2 * n].reshape(n, 2)
    codes = bits[:, 0] * 2 + bits[:, 1]
    out, pos = np.empty(n, np.int64), 4 + nbytes
    for i, c in enumerate(codes.tolist()):
        size = 1 << c
        if pos + size > len(data):
            raise ValueError(f"compressed integer {i} of {n} runs past the field's {len(data)} bytes")
        out[i] = int.from_bytes(data[pos:pos + size], "little", signed=True)
        pos += size
    if pos != len(data):
        raise ValueError(f"{n} compressed integers take {pos} bytes, the field holds {len(data)}")
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
    """A scalar field's unpacked value as a 0-d array, after checking that it is of the field's kind."""
    kind = field["type"]
    if kind == "string":
        fits = isinstance(value, str)
    else:
        fits = not isinstance(value, bool) and isinstance(value, int if kind.startswith("int") else (int, float))
    if not fits:
        raise ValueError(f"its {kind} field holds {type(value).__name__} {value!r:.40}")
    if kind == "string":
        return np.array(value)
    return np.array(value, SCALAR_TYPES[kind])


def _is_count(v):
    return type(v) is int and v >= 0


def _header_problem(header):
    """What is wrong with a parsed header (a str), or None: every key the reader uses, with its kind."""
    if not isinstance(header, dict) or "page" not in header or "schema" not in header:
        return "no schema or pages in its header"
    if not (_is_count(header.get("header_size")) and _is_count(header.get("page_size")) and header["page_size"]):
        return f"header_size {header.get('header_size')!r} or page_size {header.get('page_size')!r} is not a size"
    pages = header["page"]
    if not isinstance(pages, list) or not all(isinstance(p, dict) and _is_count(p.get("page_id"))
                                              and _is_count(p.get("page_size")) for p in pages):
        return "its page list is damaged"
    schemas = header["schema"]
    if not (isinstance(schemas, list) and schemas and isinstance(schemas[0], dict)
            and isinstance(schemas[0].get("schema"), dict) and isinstance(schemas[0].get("blob_fields"), list)):
        return "its schema is damaged"
    fields, blobs = schemas[0]["schema"], schemas[0]["blob_fields"]
    for name, field in fields.items():
        shape = field.get("shape", []) if isinstance(field, dict) else None
        if not isinstance(field, dict) or field.get("type") not in TYPES or not isinstance(shape, list) \
                or not all(type(d) is int and (d > 0 or d == -1) for d in shape):
            return f"field {name!r} of its schema is {field!r}, not a MindRecord field"
    if not all(isinstance(b, str) and b in fields and is_blob(fields[b]) for b in blobs) or \
            sorted(blobs) != sorted(f for f in fields if is_blob(fields[f])):
        return f"its blob_fields {blobs!r} do not match the schema's array and bytes fields"
    return None


def read_header(fh, path, what="MindDataset"):
    """The header dict of an open MindRecord file, after checking every part the reader uses."""
    fh.seek(0)
    head = fh.read(8)
    n = struct.unpack("<Q", head)[0] if len(head) == 8 else 0
    if not 0 < n < HEADER_SIZE:
        raise ValueError(f"{what}: {path} is not a MindRecord file (its first 8 bytes {head!r} are not a "
                         f"header length)")
    try:
        header = json.loads(fh.read(n))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        raise ValueError(f"{what}: {path} is not a MindRecord file (its header is not JSON: {e})") from None
    problem = _header_problem(header)
    if problem is not None:
        raise ValueError(f"{what}: {path} is not a MindRecord file or is damaged ({problem})")
    return header
