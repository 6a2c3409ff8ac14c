"""Read MindRecord files row by row: ``MindRecordRows`` (random access) and ``FileReader`` (MindSpore's API).

Opening a file reads its header and the length of each row (8 bytes per row, no row data), so
reading a file of 50,000 images keeps one image in memory at a time.
"""
import os
import struct

from mslab.mindrecord import fileformat as ff
from mslab.mindrecord.msgpack import unpack


class MindRecordRows:
    """The rows of one or more MindRecord files: ``len()``, and ``[i]`` -> {field: numpy value}."""

    def __init__(self, paths, columns=None, what="MindDataset"):
        self.paths, self.what, self.rows, self.schema = [os.fspath(p) for p in paths], what, [], None
        for path in self.paths:
            if not os.path.isfile(path):
                raise ValueError(f"{what}: {path} does not exist or is not a file")
            with open(path, "rb") as fh:
                header = ff.read_header(fh, path)
                schema = header["schema"][0]["schema"]
                if self.schema is not None and schema != self.schema:
                    raise ValueError(f"{what}: {path} has another schema than {self.paths[0]}")
                self.schema, self.blob_fields = schema, header["schema"][0]["blob_fields"]
                self.rows.extend(self._locate(fh, path, header))
        self.columns = sorted(self.schema) if columns is None else list(columns)
        unknown = [c for c in self.columns if c not in self.schema]
        if unknown:
            raise ValueError(f"{what}: columns_list names {unknown}, not in the schema {sorted(self.schema)}")

    @staticmethod
    def _locate(fh, path, header):
        """(path, raw offset, blob offset) of each row: the i-th raw row goes with the i-th blob row."""
        offsets = {"RAW_DATA": [], "BLOB_DATA": []}
        for page in sorted(header["page"], key=lambda p: p["page_id"]):
            base = header["header_size"] + page["page_id"] * header["page_size"]
            pos = 0
            while pos < page["page_size"]:
                fh.seek(base + pos)
                (n,) = struct.unpack("<Q", fh.read(8))
                offsets[page["page_type"]].append(base + pos)
                pos += 8 + n
        raw, blob = offsets["RAW_DATA"], offsets["BLOB_DATA"]
        if blob and len(blob) != len(raw):
            raise ValueError(f"MindRecord: {path} has {len(raw)} raw rows but {len(blob)} blob rows")
        return [(path, r, blob[i] if blob else None) for i, r in enumerate(raw)]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        path, raw_at, blob_at = self.rows[i]
        out = {}
        with open(path, "rb") as fh:
            fh.seek(raw_at)
            (n,) = struct.unpack("<Q", fh.read(8))
            scalars, _ = unpack(fh.read(n))
            blobs = {}
            if blob_at is not None and self.blob_fields:
                fh.seek(blob_at)
                (n,) = struct.unpack("<Q", fh.read(8))
                data, pos = fh.read(n), 0
                if len(self.blob_fields) == 1:  # a lone blob field is the whole row, with no length of its own
                    blobs[self.blob_fields[0]] = data
                for f in self.blob_fields if len(self.blob_fields) > 1 else ():
                    (size,) = struct.unpack(">Q", data[pos:pos + 8])
                    blobs[f] = data[pos + 8:pos + 8 + size]
                    pos += 8 + size
        for c in self.columns:
            field = self.schema[c]
            out[c] = ff.decode_blob(field, blobs[c]) if c in blobs else ff.decode_scalar(field, scalars[c])
        return out


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
