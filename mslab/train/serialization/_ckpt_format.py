"""MindSpore's ``.ckpt`` format: protobuf ``Checkpoint`` messages (``checkpoint.proto``) written back to back.

Writing follows MindSpore's ``_exec_save``: one serialized ``Checkpoint`` holding one ``Value`` per
parameter; a parameter over 512 MiB is split along its first axis into several Values with the same
tag (``np.array_split``), which the reader joins again. ``crc_check=True`` appends ``b"crc_num"`` and
the CRC-32 of everything before it as 10 big-endian bytes; reading with ``crc_check=True`` a file
without them (saved without the check, or cut short) warns in MindSpore's words, as MindSpore does.

Reading parses the bytes with protobuf (which refuses a length running past the end of the file and a
missing required field) and then checks every tensor before any array is made: a known
``tensor_type``, non-negative ``dims``, and exactly ``prod(dims) * itemsize`` bytes of content.
Nothing in a file is executed; the largest allocation is the file's own size.
"""
import binascii
import math
import warnings

import numpy as np

from mslab.core.errors import CheckpointError
from mslab.train.serialization import _schema

__all__ = ["write_ckpt", "read_ckpt", "check_name"]

# MindSpore's tensor_type strings (``str(mindspore.float32)`` is "Float32"); "str" is UTF-32 text.
NP_OF_TYPE = {"Bool": np.bool_, "Int8": np.int8, "Int16": np.int16, "Int32": np.int32, "Int64": np.int64,
              "UInt8": np.uint8, "UInt16": np.uint16, "UInt32": np.uint32, "UInt64": np.uint64,
              "Float16": np.float16, "Float32": np.float32, "Float64": np.float64}
TYPE_OF_NP = {np.dtype(v): k for k, v in NP_OF_TYPE.items()}
SLICE_BYTES = 512 * 1024 * 1024  # MindSpore's SLICE_SIZE (512 * 1024 KB)
CRC_MARK = b"crc_num"
MAX_NAME_LENGTH = 1024  # MindSpore's Parameter refuses longer names, so such a checkpoint does not load there
# MindSpore 2.10 logs this warning (and loads) when crc_check=True meets a file without a CRC (observed)
NO_CRC = "For 'load_checkpoint', the ckpt file do not contain the crc code, please check the file."


def check_name(name, path):
    """Refuse a parameter name longer than 1,024 characters with MindSpore's message (its Parameter's)."""
    if len(name) > MAX_NAME_LENGTH:
        raise ValueError(f"The length of the '{name}' name should be less than {MAX_NAME_LENGTH}. "
                         f"(checkpoint file {path!r})")


def _messages(name, value):
    """One serialized Checkpoint per slice of ``value`` (an array or a str)."""
    if isinstance(value, str):
        # MindSpore: dims [0], type "str", the text as numpy's UTF-32 ('<U') bytes
        slices, dims, kind = [np.array(value, dtype="<U")], [0], "str"
    else:
        count = math.ceil(value.nbytes / SLICE_BYTES) if value.nbytes > SLICE_BYTES else 1
        slices = np.array_split(value, count) if count > 1 else [value]
        dims, kind = list(value.shape), TYPE_OF_NP[value.dtype]
    for part in slices:
        message = _schema.Checkpoint()
        item = message.value.add()
        item.tag = name
        item.tensor.dims.extend(dims)
        item.tensor.tensor_type = kind
        item.tensor.tensor_content = part.astype(part.dtype.newbyteorder("<"), copy=False).tobytes()
        yield message.SerializeToString()


def write_ckpt(f, entries, crc_check=False):
    """Write ``[(name, array or str)]`` to the open binary file ``f`` as MindSpore does."""
    crc = 0
    for name, value in entries:
        for chunk in _messages(name, value):
            crc = binascii.crc32(chunk, crc)
            f.write(chunk)
    if crc_check:
        f.write(CRC_MARK + crc.to_bytes(10, byteorder="big"))


def _tensor(path, name, kind, dims, content):
    """The array (or str) one tag's Values describe, after checking that the sizes agree."""
    where = f"checkpoint file {path!r}, parameter {name!r}"
    if kind == "str":
        if len(content) % 4:
            raise CheckpointError(f"{where}: a str must be UTF-32 (a multiple of 4 bytes), got {len(content)} bytes")
        try:  # numpy's "<U" reading of the bytes, with a clear error for a code point no text can hold
            return content.decode("utf-32-le").rstrip("\x00")
        except UnicodeDecodeError as e:
            raise CheckpointError(f"{where}: the str is not valid UTF-32 ({e.reason} at byte {e.start})") from None
    if kind not in NP_OF_TYPE:
        raise CheckpointError(f"{where}: unknown tensor_type {kind!r}; mslab reads {', '.join(NP_OF_TYPE)} and str")
    if any(d < 0 for d in dims):
        raise CheckpointError(f"{where}: negative dims {list(dims)}")
    dtype = np.dtype(NP_OF_TYPE[kind]).newbyteorder("<")
    if list(dims) == [0] and len(content) == dtype.itemsize:
        dims = []  # MindSpore reads dims [0] with one element as a scalar
    expected = math.prod(dims) * dtype.itemsize
    if expected != len(content):
        raise CheckpointError(f"{where}: dims {list(dims)} of {kind} need {expected} bytes, "
                              f"the file holds {len(content)}")
    try:
        return np.frombuffer(content, dtype=dtype).astype(dtype.newbyteorder("="), copy=True).reshape(dims)
    except ValueError as e:  # dims with a 0 that no array can have ([0, 2**40, 2**40]: numpy's "too big")
        raise CheckpointError(f"{where}: dims {list(dims)} of {kind} describe no possible array ({e}); the file "
                              "is damaged") from None


def read_ckpt(path, data, crc_check=False):
    """``[(name, array or str)]`` from the bytes ``data`` of MindSpore checkpoint ``path``."""
    if data[-17:-10] == CRC_MARK:
        data, stored = data[:-17], int.from_bytes(data[-10:], byteorder="big")
        if crc_check and binascii.crc32(data) != stored:
            raise CheckpointError(f"checkpoint file {path!r}: the CRC-32 check failed; the file is damaged")
    elif crc_check:  # saved without crc_check, or cut short: the check asked for cannot be made
        warnings.warn(f"{NO_CRC} (checkpoint file {path!r}: nothing was checked; a file cut short loads only the "
                      "parameters before the cut)", stacklevel=4)
    checkpoint = _schema.Checkpoint  # protobuf loads here, on first use
    from google.protobuf.message import DecodeError

    try:
        message = checkpoint.FromString(data)
    except (DecodeError, RuntimeError, ValueError) as e:
        raise CheckpointError(f"checkpoint file {path!r} cannot be parsed as MindSpore's checkpoint protobuf "
                              f"(truncated, damaged, or not a .ckpt file): {e}") from None
    out, parts = [], []
    values = message.value
    for i, item in enumerate(values):
        if not isinstance(item.tag, str):  # protobuf hands back bytes for a name that is not UTF-8
            raise CheckpointError(f"checkpoint file {path!r}: parameter name {item.tag!r} is not UTF-8 text; the file "
                                  "is damaged")
        if not item.HasField("tensor"):
            raise CheckpointError(f"checkpoint file {path!r}: {item.tag!r} is a MapParameter, which mslab does "
                                  "not support")
        parts.append(item.tensor.tensor_content)
        last = i == len(values) - 1 or values[i + 1].tag != item.tag
        if last:  # a parameter's slices are consecutive Values with one tag
            tensor = item.tensor
            if len(item.tag) > MAX_NAME_LENGTH:
                raise CheckpointError(f"checkpoint file {path!r}: the length of the '{item.tag}' name should be "
                                      f"less than {MAX_NAME_LENGTH} (MindSpore refuses to load it)")
            out.append((item.tag, _tensor(path, item.tag, tensor.tensor_type, list(tensor.dims), b"".join(parts))))
            parts = []
    return out
