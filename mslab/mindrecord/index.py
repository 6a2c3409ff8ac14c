"""Where each row of a MindRecord file lies: read from its ``.db`` index, checked against the file.

MindSpore's reader takes every row's page and byte range from the SQLite index ``<file>.db`` that
``FileWriter.commit`` writes beside the file (table ``INDEXES``: ``ROW_ID, PAGE_ID_RAW,
PAGE_OFFSET_RAW, PAGE_OFFSET_RAW_END, ROW_GROUP_ID, PAGE_ID_BLOB, PAGE_OFFSET_BLOB,
PAGE_OFFSET_BLOB_END``, then the index fields), not from the 8-byte length that starts each row in
the file. So does mslab: a damaged length field changes nothing (MindSpore 2.10 reads such a file
correctly, observed), and no length read off the file decides how much memory is taken. Each range
is checked against its page and the file's size before anything is read.
"""
import os
from urllib.request import pathname2url

__all__ = ["row_ranges"]

_COLUMNS = ("ROW_ID, PAGE_ID_RAW, PAGE_OFFSET_RAW, PAGE_OFFSET_RAW_END, "
            "PAGE_ID_BLOB, PAGE_OFFSET_BLOB, PAGE_OFFSET_BLOB_END")


def _index_rows(db, what):
    """The ``INDEXES`` rows of ``db`` in row order, as tuples of ints."""
    import sqlite3  # only when a file is opened: keeps `import mslab` from loading SQLite

    try:
        con = sqlite3.connect(f"file:{pathname2url(db)}?mode=ro", uri=True)
        try:
            rows = con.execute(f"SELECT {_COLUMNS} FROM INDEXES ORDER BY ROW_ID").fetchall()
        finally:
            con.close()
    except (sqlite3.Error, UnicodeDecodeError) as e:  # SQLite's message about a damaged file may not be UTF-8
        raise ValueError(f"{what}: the index {db} cannot be read ({e}); it is damaged or not a MindRecord "
                         ".db file") from None
    for k, row in enumerate(rows):
        if not all(type(v) is int for v in row) or row[0] != k:
            raise ValueError(f"{what}: the index {db} is damaged: its entry {k} is {row} (expected row id {k} "
                             "and whole numbers)")
    return rows


def row_ranges(path, header, file_size, what):
    """``[(raw start, raw end, blob start, blob end)]`` file offsets of each row's bytes (after its length field)."""
    db = path + ".db"
    if not os.path.isfile(db):
        # MindSpore 2.10's words (observed): it reads no MindRecord file without its index
        raise RuntimeError(f"{what}: The input: {db} is not exists. (a MindRecord file is read through the .db "
                           "index FileWriter.commit writes beside it)")
    used = {p["page_id"]: p["page_size"] for p in header["page"]}
    out = []
    for row_id, raw_page, raw_start, raw_end, blob_page, blob_start, blob_end in _index_rows(db, what):
        spans = []
        for page, start, end in ((raw_page, raw_start, raw_end), (blob_page, blob_start, blob_end)):
            base = header["header_size"] + page * header["page_size"]
            if page not in used or not 0 <= start <= end - 8 <= used[page] - 8 or base + end > file_size:
                raise ValueError(f"{what}: {path}, row {row_id}: the index {db} places it at bytes {start}..{end} "
                                 f"of page {page}, which the file (its header lists "
                                 f"{used.get(page, 'no such page')} bytes used there; {file_size} bytes in all) "
                                 "does not hold; the file is cut short or damaged")
            spans += [base + start + 8, base + end]
        out.append(tuple(spans))
    return out
