"""MindRecord: mslab's FileWriter writes MindSpore 2.10's bytes, and MindDataset reads them.

MindSpore 2.10's FileWriter wrote the rows below to ``ms1.mindrecord``; its header, its two pages and
the rows of its ``.db`` index are recorded here (observed on MindSpore 2.10 CPU), and MindSpore's
MindDataset read both that file and the one mslab writes with the values checked below.
"""
import io
import json
import os
import sqlite3
import struct

import numpy as np
import pytest
from PIL import Image

import mslab.dataset as ds
import mslab.dataset.vision as V
from mslab.mindrecord import FileReader, FileWriter
from mslab.mindrecord.fileformat import compress_ints, decompress_ints

SCHEMA = {"file_name": {"type": "string"}, "label": {"type": "int32"}, "data": {"type": "bytes"},
          "score": {"type": "float64"}, "vec": {"type": "float32", "shape": [-1]},
          "mat": {"type": "int64", "shape": [2, 2]}}
ROWS = [{"file_name": f"f{i}.jpg", "label": i, "data": bytes([i, 1, 2, 3 + i]), "score": i * 0.5,
         "vec": np.arange(i + 1, dtype=np.float32), "mat": np.arange(4, dtype=np.int64).reshape(2, 2) * i}
        for i in range(3)]

# observed on MindSpore 2.10 CPU: FileWriter("ms1.mindrecord"), add_schema(SCHEMA, "d"),
# add_index(["file_name", "label"]), write_raw_data(ROWS), commit()
HEADER = (
    '{"header_size":16777216,"index_fields":[{"index_field":"file_name","schema_id":0},{"index_field":"label",'
    '"schema_id":0}],"page":[{"end_row_id":3,"page_id":0,"page_size":159,"page_type":"BLOB_DATA","page_type_id":0,'
    '"row_group_ids":[{"id":0,"offset":0}],"shard_id":0,"start_row_id":0},{"end_row_id":0,"page_id":1,'
    '"page_size":132,"page_type":"RAW_DATA","page_type_id":0,"row_group_ids":[{"id":0,"offset":0}],"shard_id":0,'
    '"start_row_id":0}],"page_size":33554432,"compression_size":69,"schema":[{"blob_fields":["data","mat","vec"],'
    '"desc":"d","schema":{"data":{"type":"bytes"},"file_name":{"type":"string"},"label":{"type":"int32"},'
    '"mat":{"shape":[2,2],"type":"int64"},"score":{"type":"float64"},"vec":{"shape":[-1],"type":"float32"}}}],'
    '"shard_addresses":["ms1.mindrecord"],"shard_id":0,"statistics":null,"version":"3.0"}')
BLOB_PAGE = (
    "290000000000000000000000000000040001020300000000000000090000000400000000000000000000000004000000002d00000000"
    "00000000000000000000040101020400000000000000090000000400000102030000000000000008000000000000803f310000000000"
    "00000000000000000004020102050000000000000009000000040000020406000000000000000c000000000000803f00000040")
RAW_PAGE = (
    "240000000000000083a966696c655f6e616d65a666302e6a7067a56c6162656c00a573636f7265ca00000000240000000000000083a9"
    "66696c655f6e616d65a666312e6a7067a56c6162656c01a573636f7265ca3f000000240000000000000083a966696c655f6e616d65a6"
    "66322e6a7067a56c6162656c02a573636f7265ca3f800000")
DB_ROWS = [(0, 1, 0, 44, 0, 0, 0, 49, 0, "f0.jpg", 0, 0), (1, 1, 44, 88, 0, 0, 49, 102, 0, "f1.jpg", 0, 1),
           (2, 1, 88, 132, 0, 0, 102, 159, 0, "f2.jpg", 0, 2)]
FILE_SIZE = 50331780  # 16 MiB header + one 32 MiB page + the last page's 132 bytes


def write(path, schema=SCHEMA, rows=ROWS, index=("file_name", "label"), **kw):
    writer = FileWriter(str(path), **kw)
    writer.add_schema(schema, "d")
    if index:
        writer.add_index(list(index))
    writer.write_raw_data(rows)
    writer.commit()
    return str(path)


def test_writes_the_bytes_mindspore_writes(tmp_path):
    path = write(tmp_path / "ms1.mindrecord")
    data = open(path, "rb").read()
    assert len(data) == FILE_SIZE
    n = struct.unpack("<Q", data[:8])[0]
    assert data[8:8 + n].decode() == HEADER
    assert data[1 << 24:(1 << 24) + 159].hex() == BLOB_PAGE
    assert data[(1 << 24) + (1 << 25):].hex() == RAW_PAGE
    con = sqlite3.connect(path + ".db")
    assert list(con.execute("SELECT * FROM INDEXES")) == DB_ROWS
    assert list(con.execute("SELECT * FROM SHARD_NAME")) == [("ms1.mindrecord",)]
    con.close()


def test_mind_dataset_gives_mindspores_columns(tmp_path):
    path = write(tmp_path / "ms1.mindrecord")
    dataset = ds.MindDataset(path, shuffle=False)
    assert dataset.get_col_names() == ["data", "file_name", "label", "mat", "score", "vec"]  # observed: sorted
    rows = list(dataset.create_dict_iterator(output_numpy=True, num_epochs=1))
    # observed on MindSpore 2.10 CPU for row 1:
    r = rows[1]
    assert r["data"].dtype == np.dtype("S4") and r["data"].shape == (1,) and r["data"][0] == b"\x01\x01\x02\x04"
    assert r["file_name"].dtype == np.dtype("<U6") and r["file_name"].shape == () and str(r["file_name"]) == "f1.jpg"
    assert r["label"].dtype == np.int32 and r["label"].shape == () and int(r["label"]) == 1
    assert r["mat"].dtype == np.int64 and r["mat"].tolist() == [[0, 1], [2, 3]]
    assert r["score"].dtype == np.float64 and float(r["score"]) == 0.5
    assert r["vec"].dtype == np.float32 and r["vec"].tolist() == [0.0, 1.0]
    projected = ds.MindDataset(path, columns_list=["data", "label"], shuffle=False)
    assert projected.get_col_names() == ["data", "label"]
    assert sorted(int(r[1]) for r in projected.create_tuple_iterator(output_numpy=True, num_epochs=1)) == [0, 1, 2]
    assert [int(row["label"]) for row in FileReader(path).get_next()] == [0, 1, 2]


def test_integer_compression_round_trips_and_matches_mindspore():
    # observed on MindSpore 2.10 CPU: [1, -1, 300, -300, 70000, -70000] (int32) is stored in these 20 bytes
    stored = "0000000605a001ff2c01d4fe7011010090eefeff"
    values = np.array([1, -1, 300, -300, 70000, -70000])
    assert compress_ints(values).hex() == stored
    assert decompress_ints(bytes.fromhex(stored)).tolist() == values.tolist()
    big = np.array([1, 2**40, -5, -(2**63), 2**63 - 1, 0, 127, -128, 128])
    assert decompress_ints(compress_ints(big)).tolist() == big.tolist()


def test_images_through_mindrecord_decode(tmp_path):
    img = (np.arange(4 * 5 * 3) * 11 % 256).astype(np.uint8).reshape(4, 5, 3)
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, format="PNG")
    path = write(tmp_path / "img.mindrecord", {"image": {"type": "bytes"}, "label": {"type": "int64"}},
                 [{"image": buf.getvalue(), "label": 7}], index=None)
    dataset = ds.MindDataset(path).map(V.Decode(), ["image"])
    (image, label), = list(dataset.create_tuple_iterator(output_numpy=True, num_epochs=1))
    np.testing.assert_array_equal(image, img)
    assert label.dtype == np.int64 and int(label) == 7


def test_bad_rows_and_files_are_named_and_nothing_is_half_written(tmp_path):
    writer = FileWriter(str(tmp_path / "x.mindrecord"))
    writer.add_schema({"a": {"type": "int32"}, "b": {"type": "bytes"}}, "d")
    with pytest.raises(ValueError, match=r"row 0 has no \['b'\]"):
        writer.write_raw_data([{"a": 1}])
    with pytest.raises(ValueError, match="row 0, field 'a'"):
        writer.write_raw_data([{"a": "x", "b": b"1"}])
    with pytest.raises(ValueError, match="needs a type"):
        FileWriter(str(tmp_path / "y.mindrecord")).add_schema({"a": {"type": "int16"}})
    assert os.listdir(tmp_path) == []
    path = write(tmp_path / "z.mindrecord")
    with pytest.raises(RuntimeError, match="exists; pass overwrite=True"):
        write(path)
    write(path, overwrite=True)
    (tmp_path / "junk.mindrecord").write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00not json at all!")
    with pytest.raises(ValueError, match="junk.mindrecord is not a MindRecord file"):
        ds.MindDataset(str(tmp_path / "junk.mindrecord"))
    with pytest.raises(ValueError, match="columns_list names"):
        ds.MindDataset(path, columns_list=["nope"])


def test_rows_spread_over_several_pages(tmp_path):
    rows = [{"x": np.full(300, i, np.float32), "i": i} for i in range(50)]
    writer = FileWriter(str(tmp_path / "p.mindrecord"))
    writer.set_page_size(4096)
    writer.add_schema({"x": {"type": "float32", "shape": [300]}, "i": {"type": "int32"}}, "d")
    writer.write_raw_data(rows)
    writer.commit()
    header = json.loads(open(tmp_path / "p.mindrecord", "rb").read(10_000)[8:].split(b"\0")[0])
    assert len(header["page"]) > 2
    got = list(ds.MindDataset(str(tmp_path / "p.mindrecord"), shuffle=False).create_tuple_iterator(
        output_numpy=True, num_epochs=1))
    assert [int(r[0]) for r in got] == list(range(50)) and all(r[1][0] == k for k, r in enumerate(got))


def test_page_layout_of_a_lone_blob_field_matches_mindspore(tmp_path):
    """Observed on MindSpore 2.10 CPU with set_page_size(1 << 15) and 20 rows of a 3000-float array: ten
    BLOB_DATA pages of two 12,008-byte rows (8-byte length + the array, no field length), then one RAW_DATA
    page listing where each page's rows start; index rows (0, 10, 0, 12, 0, 0, 0, 12008, 0, 0), ..."""
    writer = FileWriter(str(tmp_path / "m.mindrecord"))
    writer.set_page_size(1 << 15)
    writer.add_schema({"x": {"type": "float32", "shape": [3000]}, "i": {"type": "int32"}}, "d")
    writer.write_raw_data([{"x": np.full(3000, i, np.float32), "i": i} for i in range(20)])
    writer.commit()
    data = open(tmp_path / "m.mindrecord", "rb").read()
    header = json.loads(data[8:8 + struct.unpack("<Q", data[:8])[0]])
    assert len(data) == 17105136
    assert [p["page_size"] for p in header["page"]] == [24016] * 10 + [240]
    assert header["page"][10]["row_group_ids"] == [{"id": k, "offset": 24 * k} for k in range(10)]
    assert all(p["row_group_ids"] == [{"id": 0, "offset": 0}] for p in header["page"][:10])
    con = sqlite3.connect(str(tmp_path / "m.mindrecord.db"))
    assert list(con.execute("SELECT * FROM INDEXES"))[:3] == [(0, 10, 0, 12, 0, 0, 0, 12008, 0, 0),
                                                              (1, 10, 12, 24, 0, 0, 12008, 24016, 0, 1),
                                                              (2, 10, 24, 36, 1, 1, 0, 12008, 0, 2)]
    con.close()
