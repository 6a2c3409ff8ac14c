"""The part of MessagePack that MindRecord uses for a row's scalar fields: a map of names to numbers and strings.

MindSpore packs each row's non-array fields with nlohmann::json's ``to_msgpack``: keys in sorted
order; ints in the smallest form (fixint, uint8..64, int8..64); a float as float32 (0xca) when that
holds it exactly, else float64 (0xcb); strings as fixstr/str8/str16/str32.
"""
import struct


def pack_value(v):
    if isinstance(v, bool):
        return b"\xc3" if v else b"\xc2"
    if isinstance(v, int):
        if 0 <= v < 128:
            return bytes([v])
        if -32 <= v < 0:
            return struct.pack("b", v)
        if v >= 0:
            for code, fmt, limit in ((0xCC, ">B", 1 << 8), (0xCD, ">H", 1 << 16), (0xCE, ">I", 1 << 32),
                                     (0xCF, ">Q", 1 << 64)):
                if v < limit:
                    return bytes([code]) + struct.pack(fmt, v)
        for code, fmt, limit in ((0xD0, ">b", 1 << 7), (0xD1, ">h", 1 << 15), (0xD2, ">i", 1 << 31),
                                 (0xD3, ">q", 1 << 63)):
            if -limit <= v:
                return bytes([code]) + struct.pack(fmt, v)
        raise OverflowError(f"MindRecord: integer {v} does not fit in 64 bits")
    if isinstance(v, float):
        single = struct.pack(">f", v) if abs(v) < 3.4e38 or v != v else None
        if single is not None and struct.unpack(">f", single)[0] == v:
            return b"\xca" + single
        return b"\xcb" + struct.pack(">d", v)
    if isinstance(v, str):
        data = v.encode("utf-8")
        n = len(data)
        if n < 32:
            return bytes([0xA0 | n]) + data
        for code, fmt, limit in ((0xD9, ">B", 1 << 8), (0xDA, ">H", 1 << 16), (0xDB, ">I", 1 << 32)):
            if n < limit:
                return bytes([code]) + struct.pack(fmt, n) + data
    raise TypeError(f"MindRecord: cannot store {type(v).__name__} {v!r} in a row's scalar fields")


def pack_map(d):
    """A dict of str -> int/float/str as a MessagePack map, keys sorted."""
    n = len(d)
    head = bytes([0x80 | n]) if n < 16 else b"\xde" + struct.pack(">H", n)
    return head + b"".join(pack_value(k) + pack_value(d[k]) for k in sorted(d))


_FIXED = {0xCA: ">f", 0xCB: ">d", 0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q", 0xD0: ">b", 0xD1: ">h",
          0xD2: ">i", 0xD3: ">q"}


def unpack(data, pos=0):
    """(value, next position) of the MessagePack value at ``pos``: maps, strings, numbers, bools, nil."""
    c = data[pos]
    pos += 1
    if c < 0x80:
        return c, pos
    if c >= 0xE0:
        return c - 0x100, pos
    if 0x80 <= c <= 0x8F or c in (0xDE, 0xDF):
        if c <= 0x8F:
            n = c & 0x0F
        else:
            size = 2 if c == 0xDE else 4
            n, pos = int.from_bytes(data[pos:pos + size], "big"), pos + size
        out = {}
        for _ in range(n):
            k, pos = unpack(data, pos)
            out[k], pos = unpack(data, pos)
        return out, pos
    if 0xA0 <= c <= 0xBF or c in (0xD9, 0xDA, 0xDB):
        if c <= 0xBF:
            n = c & 0x1F
        else:
            size = {0xD9: 1, 0xDA: 2, 0xDB: 4}[c]
            n, pos = int.from_bytes(data[pos:pos + size], "big"), pos + size
        return bytes(data[pos:pos + n]).decode("utf-8"), pos + n
    if c in _FIXED:
        fmt = _FIXED[c]
        size = struct.calcsize(fmt)
        return struct.unpack(fmt, data[pos:pos + size])[0], pos + size
    if c in (0xC0, 0xC2, 0xC3):
        return {0xC0: None, 0xC2: False, 0xC3: True}[c], pos
    raise ValueError(f"MindRecord: unexpected MessagePack byte 0x{c:02x} in a row")
