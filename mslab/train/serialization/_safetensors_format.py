"""MindSpore's ``format="safetensors"``: the ``safetensors`` package, header metadata ``{"format": "ms"}``.

A safetensors file is an 8-byte little-endian header length, a JSON header (names, dtypes, shapes,
byte offsets) and the raw numbers. The ``safetensors`` library checks the header against the file
(length, offsets inside the data, ``prod(shape) * itemsize`` bytes per tensor) before it hands out
any array, and a file holds only numbers, so reading one never runs code. MindSpore saves the names
sorted and reads them back sorted; so does mslab.
"""
import binascii
import io
import json
import os
import re
import warnings

from safetensors import SafetensorError, safe_open
from safetensors.numpy import load as load_bytes
from safetensors.numpy import save_file

from mslab.core.errors import CheckpointError

__all__ = ["write_safetensors", "read_safetensors"]

METADATA = {"format": "ms"}
# MindSpore 2.10's words (observed): it warns and loads without a crc_num, raises on a wrong one
NO_CRC = "For 'load_checkpoint', the safetensors file do not contain the crc code, please check the file."
CRC_FAILED = "For 'load_checkpoint', the crc check has failed. Please check whether the ckpt file is damaged."


def _crc(tensors):
    """MindSpore's ``crc_num``: CRC-32 over each name and its bytes, in sorted name order."""
    crc = 0
    for name in sorted(tensors):
        crc = binascii.crc32(tensors[name].tobytes(), binascii.crc32(name.encode("utf-8"), crc))
    return crc


def write_safetensors(path, entries, crc_check=False):
    """Write ``[(name, array)]`` to ``path``; a str value cannot be stored, as in MindSpore."""
    for name, value in entries:
        if isinstance(value, str):
            raise TypeError(f"For 'save_checkpoint', {name!r} is a str, which format='safetensors' cannot hold "
                            "(only tensors); use format='ckpt' to save text")
    tensors = {name: value for name, value in sorted(entries, key=lambda e: e[0])}
    metadata = dict(METADATA, crc_num=str(_crc(tensors))) if crc_check else METADATA
    try:  # MindSpore writes no metadata when there is nothing to save
        save_file(tensors, path, metadata=metadata if tensors else None)
    except SafetensorError as e:  # a full disk comes as "I/O error: ... (os error 28)": an OSError, as for .ckpt
        code = re.search(r"os error (\d+)", str(e))
        if code is None:
            raise
        raise OSError(int(code.group(1)), os.strerror(int(code.group(1)))) from e


def _check_crc(path, tensors, stored):
    """Compare the header's ``crc_num`` with the numbers read; warn when there is none to compare with."""
    if stored is None:
        warnings.warn(f"{NO_CRC} (checkpoint file {path!r}: nothing was checked)", stacklevel=5)
    elif not stored.isdigit() or len(stored) > 10:  # a CRC-32 is at most 10 decimal digits
        raise CheckpointError(f"checkpoint file {path!r}: the header's crc_num {stored[:20]!r} is not a CRC-32 "
                              "number; the file is damaged")
    elif int(stored) != _crc(tensors):
        raise CheckpointError(f"{CRC_FAILED} (checkpoint file {path!r}: the CRC-32 check failed)")


def read_safetensors(path, source, crc_check=False):
    """``[(name, array)]`` (sorted by name) from a safetensors file path or a BytesIO."""
    try:
        if isinstance(source, io.BytesIO):
            data = source.getvalue()
            tensors = load_bytes(data)
            # the library has checked the header; its metadata is the JSON object's "__metadata__"
            metadata = json.loads(data[8:8 + int.from_bytes(data[:8], "little")]).get("__metadata__")
        else:
            with safe_open(source, framework="np") as f:
                tensors, metadata = {name: f.get_tensor(name) for name in f.keys()}, f.metadata()
    except (SafetensorError, OSError, ValueError, TypeError) as e:
        raise CheckpointError(f"checkpoint file {path!r} is not a readable safetensors file (truncated, damaged "
                              f"or a bad header): {e}") from None
    if crc_check:
        _check_crc(path, tensors, (metadata or {}).get("crc_num"))
    return [(name, tensors[name]) for name in sorted(tensors)]
