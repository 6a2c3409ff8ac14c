"""Read MindRecord files row by row: ``MindRecordRows`` (random access) and ``FileReader`` (MindSpore's API).

Opening a file reads its header and its ``.db`` index (where each row lies, see
:mod:`mslab.mindrecord.index`), no row data, so reading a file of 50,000 images keeps one image in
memory at a time. A damaged file or index raises a ValueError naming the file (and the row) and what
is wrong, never a bare ``struct.error`` or ``KeyError``.
"""
import os
import struct

from mslab.mindrecord import fileformat as ff
from mslab.mindrecord.index import row_ranges
from mslab.mindrecord.msgpack import unpack

# what a damaged row's bytes make the decoders raise; each becomes one ValueError naming file and row
_DAMAGE = (ValueError, TypeError, KeyError, IndexError, struct.error, UnicodeDecodeError, OverflowError,
           RecursionError)


def _split_blob(fields, data):
    """``{field: bytes}`` of one blob row: each field is its length (big-endian uint64) then its bytes."""
    if len(fields) == 1:  # a lone blob field is the whole row, with no length of its own
        return {fields[0]: data}
    out, pos = {}, 0
    for f in fields:
        if pos + 8 > len(data):
            raise ValueError(f"blob field {f!r} starts past the row's {len(data)} bytes")
        (size,) = struct.unpack(">Q", data[pos:pos + 8])
        if pos + 8 + size > len(data):
            raise ValueError(f"blob field {f!r} declares {size} bytes, the row holds {len(data) - pos - 8} more")
        out[f] = data[pos + 8:pos + 8 + size]
        pos += 8 + size
    if pos != len(data):
        raise ValueError(f"the blob fields take {pos} of the row's {len(data)} bytes")
    return out


class MindRecordRows:
    """The rows of one or more MindRecord files: ``len()``, and ``[i]`` -> {field: numpy value}."""

    def __init__(self, paths, columns=None, what="MindDataset"):
        self.paths, self.what, self.rows, self.schema = [os.fspath(p) for p in paths], what, [], None
        for path in self.paths:
            if not os.path.isfile(path):
                raise ValueError(f"{what}: {path} does not exist or is not a file")
            with open(path, "rb") as fh:
                header = ff.read_header(fh, path, what)
                size = os.fstat(fh.fileno()).st_size
            schema = header["schema"][0]["schema"]
            if self.schema is not None and schema != self.schema:
                raise ValueError(f"{what}: {path} has another schema than {self.paths[0]}")
            self.schema, self.blob_fields = schema, header["schema"][0]["blob_fields"]
            self.rows.extend((path, k, *where) for k, where in enumerate(row_ranges(path, header, size, what)))
        self.columns = sorted(self.schema) if columns is None else list(columns)
        unknown = [c for c in self.columns if c not in self.schema]
        if unknown:
            raise ValueError(f"{what}: columns_list names {unknown}, not in the schema {sorted(self.schema)}")

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        path, k, raw_start, raw_end, blob_start, blob_end = self.rows[i]
        with open(path, "rb") as fh:  # the ranges were checked against the file's size when it was opened
            fh.seek(raw_start)
            raw = fh.read(raw_end - raw_start)
            fh.seek(blob_start)
            blob = fh.read(blob_end - blob_start) if self.blob_fields else b""
        try:
            if len(raw) != raw_end - raw_start or len(blob) != (blob_end - blob_start if self.blob_fields else 0):
                raise ValueError("the file is shorter than when it was opened")
            scalars, used = unpack(raw)
            if not isinstance(scalars, dict) or used != len(raw):
                raise ValueError("its scalar fields are not one MessagePack map filling the row")
            blobs = _split_blob(self.blob_fields, blob) if self.blob_fields else {}
            return {c: ff.decode_blob(self.schema[c], blobs[c]) if c in blobs
                    else ff.decode_scalar(self.schema[c], scalars[c]) for c in self.columns}
        except _DAMAGE as e:
            problem = f"no field {e}" if isinstance(e, KeyError) else str(e)
            raise ValueError(f"{self.what}: {path}, row {k}: the row cannot be read ({problem}); the file is "
                             "damaged") from None


class FileReader:
    """``mindspore.mindrecord.FileReader``: ``for row in FileReader(path).get_next(): ...`` gives dicts."""

    def __init__(self, file_name, num_consumer=4, columns=None, operator=None):
        paths = [file_name] if isinstance(file_name, (str, os.PathLike)) else list(file_name)
        self.rows = MindRecordRows(paths, columns, "FileReader")

    def get_next(self):
        for i in range(len(self.rows)):
            yield self.rows[i]

    def len(self):
        return len(self.rows)

    def schema(self):
        return dict(self.rows.schema)

    def close(self):
        """Nothing to release: each row opens and closes its file."""
