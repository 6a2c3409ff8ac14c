"""The order of MindSpore's column-name map, where a column order depends on it.

MindSpore's C++ pipeline keeps each node's columns in a ``std::unordered_map<std::string, int>``
(name -> position). Mostly the positions decide the order of the columns, but when ``batch``'s
``per_batch_map`` changes the number of columns, the columns it does not touch follow the outputs in
the order that map iterates. GCC's ``unordered_map`` iterates a singly linked list of its entries: an
entry whose bucket is empty goes to the front of the list, an entry whose bucket holds others goes just
before them; the bucket of a name is its ``std::hash`` (``_Hash_bytes``, MurmurHash2 with seed
0xc70f6907) modulo the bucket count, which starts at 13 (11 asked for, rounded to the next prime in
GCC's table) and grows to the next prime of at least twice as many when the entries outgrow it.
:class:`ColumnMap` replays that, so mslab puts the columns where MindSpore 2.10 does (checked against
MindSpore on 2 to 15 columns and after map, project, rename, zip, batch; observed).

    >>> ColumnMap(["a", "b", "c", "d"]).names()
    ['c', 'b', 'd', 'a']
"""
_MASK = (1 << 64) - 1
_MUL = 0xC6A4A7935BD1E995
_SMALL_BUCKETS = (2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13)  # GCC's table for fewer than 14 buckets
_PRIMES = (17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 103, 109, 113, 127, 137, 139,
           149, 157, 167, 179, 193, 199, 211, 227, 241, 257, 277, 293, 313, 337, 359, 383, 409, 439, 467, 503, 541,
           577, 619, 661, 709, 761, 823, 887, 953, 1031)


def _shift_mix(v):
    return v ^ (v >> 47)


def string_hash(name):
    """``std::hash<std::string>`` of GCC on 64-bit machines (``_Hash_bytes(data, len, 0xc70f6907)``)."""
    data = name.encode()
    h = (0xC70F6907 ^ (len(data) * _MUL)) & _MASK
    whole = len(data) & ~7
    for i in range(0, whole, 8):
        h = (h ^ (_shift_mix(int.from_bytes(data[i:i + 8], "little") * _MUL & _MASK) * _MUL & _MASK)) * _MUL & _MASK
    if len(data) & 7:
        h = (h ^ int.from_bytes(data[whole:], "little")) * _MUL & _MASK
    return _shift_mix(_shift_mix(h) * _MUL & _MASK)


def _next_bucket_count(n):
    if n < len(_SMALL_BUCKETS):
        return _SMALL_BUCKETS[n]
    return next((p for p in _PRIMES if p >= n), None) or n  # beyond the table: columns by the thousand


class ColumnMap:
    """The entries of one ``unordered_map`` of column names, in the order MindSpore iterates them."""

    def __init__(self, names=()):
        self.buckets, self.next_resize, self.order = 1, 0, []
        for name in names:
            self.insert(name)

    def copy(self):
        other = ColumnMap()
        other.buckets, other.next_resize, other.order = self.buckets, self.next_resize, list(self.order)
        return other

    def names(self):
        return list(self.order)

    def _place(self, order, name, buckets):
        bucket = string_hash(name) % buckets
        same = next((i for i, other in enumerate(order) if string_hash(other) % buckets == bucket), None)
        order.insert(0 if same is None else same, name)

    def insert(self, name):
        if name in self.order:
            return
        count = len(self.order) + 1
        if count > self.next_resize:  # GCC's _M_need_rehash: 11 buckets at least for the first entry
            wanted = max(count, 0 if self.next_resize else 11)
            if wanted >= self.buckets:
                self.buckets = self.next_resize = _next_bucket_count(max(wanted + 1, 2 * self.buckets))
                order = []
                for other in self.order:
                    self._place(order, other, self.buckets)
                self.order = order
            else:
                self.next_resize = self.buckets
        self._place(self.order, name, self.buckets)

    def erase(self, name):
        self.order.remove(name)
