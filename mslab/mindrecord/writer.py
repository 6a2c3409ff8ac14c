"""``mindspore.mindrecord.FileWriter``: write rows to a MindRecord file (and its ``.db`` index).

    >>> writer = FileWriter("digits.mindrecord", overwrite=True)
    >>> writer.add_schema({"image": {"type": "bytes"}, "label": {"type": "int32"}}, "digits")
    >>> writer.write_raw_data([{"image": png_bytes, "label": 3}, ...])
    >>> writer.commit()

Rows are kept in memory until ``commit`` writes the file in MindSpore 2.10's layout (see
:mod:`mslab.mindrecord.fileformat`), so MindSpore's ``MindDataset`` reads what mslab writes and
the other way round. Nothing is written if a row is wrong; the file appears whole or not at all.
"""
import json
import os
import struct

import numpy as np

from mslab.mindrecord import fileformat as ff
from mslab.mindrecord.msgpack import pack_map

SQL_TYPES = {"string": "TEXT", "int32": "INTEGER", "int64": "INTEGER", "float32": "REAL", "float64": "REAL"}


class FileWriter:
    """Write a MindRecord file ``file_name`` (one shard) with ``add_schema``, ``write_raw_data``, ``commit``."""

    def __init__(self, file_name, shard_num=1, overwrite=False):
        if shard_num != 1:
            raise NotImplementedError(f"FileWriter: mslab writes one shard (shard_num=1), got shard_num={shard_num}")
        self.file_name, self.overwrite = os.fspath(file_name), overwrite
        self.schema, self.desc, self.index, self.rows = None, None, None, []
        self.header_size, self.page_size = ff.HEADER_SIZE, ff.PAGE_SIZE

    def set_header_size(self, header_size):
        self.header_size = int(header_size)

    def set_page_size(self, page_size):
        self.page_size = int(page_size)

    def add_schema(self, content, desc=None):
        """The fields: ``{"name": {"type": "int32"|"int64"|"float32"|"float64"|"string"|"bytes", "shape": [...]}}``."""
        if not isinstance(content, dict) or not content:
            raise ValueError(f"FileWriter.add_schema: content must be a non-empty dict of fields, got {content!r}")
        for name, field in content.items():
            if not isinstance(field, dict) or field.get("type") not in ff.TYPES:
                raise ValueError(f"FileWriter.add_schema: field {name!r} needs a type among {sorted(ff.TYPES)}, "
                                 f"got {field!r}")
            if "shape" in field and field["type"] in ("string", "bytes"):
                raise ValueError(f"FileWriter.add_schema: field {name!r} of type {field['type']} cannot have a shape")
        self.schema, self.desc = {k: dict(sorted(content[k].items())) for k in sorted(content)}, desc
        return 0

    def add_index(self, index_fields):
        """Scalar fields MindSpore's index (``.db``) lists; by default every scalar field."""
        self._need_schema("add_index")
        bad = [f for f in index_fields if f not in self.schema or ff.is_blob(self.schema[f])]
        if bad:
            raise ValueError(f"FileWriter.add_index: {bad} are not scalar fields of the schema")
        self.index = list(index_fields)

    def write_raw_data(self, raw_data, parallel_writer=False):
        """Add rows: a list of dicts, one value per schema field (checked now, written at ``commit``)."""
        self._need_schema("write_raw_data")
        checked = [self._check_row(row, len(self.rows) + k) for k, row in enumerate(raw_data)]
        self.rows.extend(checked)

    def _need_schema(self, what):
        if self.schema is None:
            raise RuntimeError(f"FileWriter.{what}: call add_schema first")

    def _check_row(self, row, k):
        missing = [f for f in self.schema if f not in row]
        if missing:
            raise ValueError(f"FileWriter.write_raw_data: row {k} has no {missing} "
                             f"(schema fields: {list(self.schema)})")
        out = {}
        for name, field in self.schema.items():
            v = row[name]
            try:
                if field["type"] == "bytes":
                    ok = isinstance(v, (bytes, bytearray, np.ndarray))
                    out[name] = bytes(v) if ok else None
                elif field["type"] == "string":
                    out[name] = v if isinstance(v, str) else None
                elif "shape" in field:
                    arr = np.asarray(v)
                    shape = field["shape"]
                    fits = shape == [-1] or arr.size == int(np.prod(shape)) or (  # -1: an axis of any length
                        arr.ndim == len(shape) and all(s in (-1, a) for a, s in zip(arr.shape, shape)))
                    out[name] = arr if arr.dtype.kind in "biuf" and fits else None
                else:
                    out[name] = float(v) if field["type"].startswith("float") else int(v)
            except (TypeError, ValueError):
                out[name] = None
            if out[name] is None:
                raise ValueError(f"FileWriter.write_raw_data: row {k}, field {name!r}: {type(v).__name__} "
                                 f"{v!r:.60} does not fit the schema {field}")
        return out

    def commit(self):
        """Write the file and its ``.db`` index (to temporary names first, then renamed into place)."""
        self._need_schema("commit")
        db = self.file_name + ".db"
        if not self.overwrite and (os.path.exists(self.file_name) or os.path.exists(db)):
            raise RuntimeError(f"FileWriter: {self.file_name} (or its .db) exists; pass overwrite=True to replace it")
        tmp = self.file_name + ".writing"
        try:
            entries = self._write_file(tmp)
            self._write_db(db + ".writing", entries)
            os.replace(tmp, self.file_name)
            os.replace(db + ".writing", db)
        finally:
            for leftover in (tmp, db + ".writing"):
                if os.path.exists(leftover):
                    os.remove(leftover)

    def _pages(self, bodies, first_id):
        """Rows (length-prefixed) packed into pages of ``page_size``: (page dict, bytes, [(page, start, end)])."""
        pages, where, current, used = [], [], [], 0
        for body in bodies:
            item = struct.pack("<Q", len(body)) + body
            if current and used + len(item) > self.page_size:
                pages.append(current)
                current, used = [], 0
            where.append((first_id + len(pages), used, used + len(item)))
            current.append(item)
            used += len(item)
        pages.append(current)
        return pages, where

    def _write_file(self, path):
        blob_fields = [f for f in self.schema if ff.is_blob(self.schema[f])]
        raw_fields = [f for f in self.schema if f not in blob_fields]
        saved, blobs = 0, []
        for row in self.rows:
            parts = []
            for f in blob_fields:
                data = ff.encode_blob(self.schema[f], row[f])
                if self.schema[f]["type"] in ("int32", "int64"):
                    saved += row[f].size * np.dtype(ff.SCALAR_TYPES[self.schema[f]["type"]]).itemsize - len(data)
                parts.append(data if len(blob_fields) == 1 else struct.pack(">Q", len(data)) + data)
            blobs.append(b"".join(parts))  # a lone blob field has no length of its own (observed)
        raws = [pack_map({f: row[f] for f in raw_fields}) for row in self.rows]
        blob_pages, blob_where = self._pages(blobs, 0)
        raw_pages, raw_where = self._pages(raws, len(blob_pages))
        # blob page k is row group k; the raw page holding its first row lists where that group's rows start
        groups = {k: [] for k in range(len(raw_pages))}
        page_entries, start = [], 0
        for k, items in enumerate(blob_pages):
            page_entries.append(self._page_entry(k, items, "BLOB_DATA", k, start, start + len(items), [(0, 0)]))
            if items:
                raw_page, raw_start, _ = raw_where[start]
                groups[raw_page - len(blob_pages)].append((k, raw_start))
            start += len(items)
        for k, items in enumerate(raw_pages):
            entry = self._page_entry(len(blob_pages) + k, items, "RAW_DATA", k, 0, 0, groups[k] or [(0, 0)])
            page_entries.append(entry)
        index = self.index if self.index is not None else raw_fields
        header = {"header_size": self.header_size, "index_fields": [{"index_field": f, "schema_id": 0} for f in index],
                  "page": page_entries, "page_size": self.page_size, "compression_size": int(saved),
                  "schema": [{"blob_fields": blob_fields, "desc": self.desc or "", "schema": self.schema}],
                  "shard_addresses": [os.path.basename(self.file_name)], "shard_id": 0, "statistics": None,
                  "version": ff.VERSION}
        text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        if 8 + len(text) > self.header_size:
            raise ValueError(f"FileWriter: the header ({len(text)} bytes) does not fit header_size={self.header_size}")
        with open(path, "wb") as fh:
            fh.write(struct.pack("<Q", len(text)) + text)
            for k, items in enumerate(blob_pages + raw_pages):
                fh.seek(self.header_size + k * self.page_size)  # unused space stays a hole (sparse file)
                fh.write(b"".join(items))
        return [(i, raw_where[i], blob_where[i]) for i in range(len(self.rows))]

    @staticmethod
    def _page_entry(page_id, items, kind, type_id, start, end, groups):
        return {"end_row_id": end, "page_id": page_id, "page_size": sum(len(i) for i in items), "page_type": kind,
                "page_type_id": type_id, "row_group_ids": [{"id": g, "offset": o} for g, o in groups], "shard_id": 0,
                "start_row_id": start}

    def _write_db(self, path, entries):
        import sqlite3  # only when a file is written: keeps `import mslab` from loading SQLite

        index = self.index if self.index is not None else [f for f in self.schema if not ff.is_blob(self.schema[f])]
        cols = "".join(f",INC_{k} INT, {f}_0 {SQL_TYPES[self.schema[f]['type']]}" for k, f in enumerate(index))
        keys = ",".join(["ROW_ID"] + [f"INC_{k}" for k in range(len(index))])
        con = sqlite3.connect(path)
        try:
            con.execute("CREATE TABLE INDEXES(  ROW_ID               INT  NOT NULL, PAGE_ID_RAW          INT  NOT "
                        "NULL, PAGE_OFFSET_RAW      INT  NOT NULL, PAGE_OFFSET_RAW_END  INT  NOT NULL, ROW_GROUP_ID  "
                        "       INT  NOT NULL, PAGE_ID_BLOB         INT  NOT NULL, PAGE_OFFSET_BLOB     INT  NOT NULL,"
                        f" PAGE_OFFSET_BLOB_END INT  NOT NULL{cols}, PRIMARY KEY({keys}))")
            con.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL)")
            con.execute("INSERT INTO SHARD_NAME VALUES (?)", (os.path.basename(self.file_name),))
            marks = ",".join("?" * (8 + 2 * len(index)))
            for i, (raw_page, raw_start, raw_end), (blob_page, blob_start, blob_end) in entries:
                values = [v for f in index for v in (0, self.rows[i][f])]
                con.execute(f"INSERT INTO INDEXES VALUES ({marks})",
                            [i, raw_page, raw_start, raw_end, blob_page, blob_page, blob_start, blob_end, *values])
            con.commit()
        finally:
            con.close()
