"""Random access to fixed-size records spread over several files, one record read at a time.

A reader keeps only the file names and record counts in memory; ``record(i)`` seeks to record i and
reads its bytes, so iterating over 50,000 images holds one image at a time (memory stays flat).
"""
import bisect
import os


class RecordFiles:
    """The fixed-size records of ``paths``, in file order: ``len()`` of them, ``record(i)`` -> bytes."""

    def __init__(self, paths, record_size, what):
        self.paths, self.record_size, self.what = list(paths), record_size, what
        self.starts = [0]
        for path in self.paths:
            size = os.path.getsize(path)
            if size % record_size:
                raise ValueError(f"{what}: {path} has {size} bytes, not a whole number of {record_size}-byte "
                                 f"records; is it the binary version of the data set?")
            self.starts.append(self.starts[-1] + size // record_size)

    def __len__(self):
        return self.starts[-1]

    def record(self, i):
        if not 0 <= i < len(self):
            raise IndexError(f"{self.what}: record {i} of {len(self)}")
        f = bisect.bisect_right(self.starts, i) - 1
        at = (i - self.starts[f]) * self.record_size
        try:
            with open(self.paths[f], "rb") as fh:
                fh.seek(at)
                data = fh.read(self.record_size)
        except OSError as e:
            raise RuntimeError(f"{self.what}: Failed to open file: {self.paths[f]} ({e.strerror or e})") from None
        if len(data) != self.record_size:
            raise ValueError(f"{self.what}: {self.paths[f]} ends inside record {i - self.starts[f]} (at byte {at}); "
                             "it was cut short after the data set was opened")
        return data


class ItemRows:
    """Random access to ``read(item)`` for each of ``items`` (file names, records ...): a row is read when asked."""

    def __init__(self, items, read):
        self.items, self.read = list(items), read

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.read(self.items[i])
