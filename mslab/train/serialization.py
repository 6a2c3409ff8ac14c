"""Checkpoints: save and load parameters (``mindspore.save_checkpoint``, ``load_checkpoint``, ``load_param_into_net``).

mslab's ``.ckpt`` format is its own and never runs code when read (no pickle): an uncompressed zip
holding ``mslab_checkpoint.json`` (format version, parameter names in order, shapes, dtypes) and
one ``.npy`` array per parameter, read back with ``allow_pickle=False``. MindSpore's own ``.ckpt``
files (protobuf) are not readable here.

Saving is atomic: the file is written under a temporary name in the same directory and moved into
place with ``os.replace``, so a failure half-way leaves any earlier checkpoint intact.
Loading into a network checks every shape and dtype first and changes nothing if one is wrong.
"""
import io
import json
import os
import tempfile
import zipfile

import numpy as np

from mslab.core import dtype as mstype
from mslab.core import missing_names as _missing_names
from mslab.core.tensor import Parameter, Tensor
from mslab.nn.cell import Cell

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net"]

HEADER = "mslab_checkpoint.json"
FORMAT = "mslab-ckpt"
VERSION = 1


def _as_array(name, data):
    if isinstance(data, Tensor):
        return np.asarray(data.asnumpy())
    if isinstance(data, np.ndarray):
        arr = data
    elif isinstance(data, (bool, int, float, np.number, np.bool_)):
        arr = np.asarray(data, np.float32 if isinstance(data, float) else None)
    else:
        raise TypeError(f"save_checkpoint: the value of {name!r} is a {type(data).__name__}; "
                        "give Tensors, Parameters, numpy arrays or numbers")
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"save_checkpoint: {name!r} has dtype {arr.dtype}, which a checkpoint cannot hold")
    return arr


def _entries(save_obj, choice_func):
    """``[(name, array, requires_grad)]`` from a Cell, a list of dicts/Parameters, or a dict."""
    out = []
    if isinstance(save_obj, Cell):
        for _, p in save_obj.parameters_and_names():
            out.append((p.name, p.asnumpy(), p.requires_grad))
    elif isinstance(save_obj, dict):
        for name, value in save_obj.items():
            out.append((str(name), _as_array(name, value), getattr(value, "requires_grad", True)))
    elif isinstance(save_obj, (list, tuple)):
        for i, item in enumerate(save_obj):
            if isinstance(item, Parameter):
                out.append((item.name, item.asnumpy(), item.requires_grad))
            elif isinstance(item, dict) and "name" in item and "data" in item:
                out.append((str(item["name"]), _as_array(item["name"], item["data"]),
                            getattr(item["data"], "requires_grad", True)))
            else:
                raise TypeError(f"save_checkpoint: list item {i} must be a Parameter or a dict "
                                f"{{'name': ..., 'data': ...}}, got {type(item).__name__}")
    else:
        raise TypeError(f"save_checkpoint: save_obj must be a Cell, a list of {{'name', 'data'}} dicts or "
                        f"Parameters, or a dict; got {type(save_obj).__name__}")
    if choice_func is not None:
        out = [e for e in out if choice_func(e[0])]
    return out


def _ckpt_path(path):
    path = os.fspath(path)
    return path if path.endswith(".ckpt") else path + ".ckpt"


def _write(f, entries):
    header = {"format": FORMAT, "version": VERSION, "params": []}
    with zipfile.ZipFile(f, "w", compression=zipfile.ZIP_STORED) as z:
        for i, (name, arr, requires_grad) in enumerate(entries):
            member = f"{i:06d}.npy"
            buf = io.BytesIO()
            np.lib.format.write_array(buf, arr, allow_pickle=False)
            z.writestr(member, buf.getvalue())
            header["params"].append({"name": name, "file": member, "shape": list(arr.shape),
                                     "dtype": arr.dtype.str, "requires_grad": bool(requires_grad)})
        z.writestr(HEADER, json.dumps(header, indent=1))


def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False, append_dict=None,
                    enc_key=None, enc_mode="AES-GCM", choice_func=None, **kwargs):
    """Save parameters to ``ckpt_file_name`` (``.ckpt`` is appended if missing).

    ``save_obj``: a Cell (all its parameters, by name; a TrainOneStepCell includes the optimizer's
    state), a list of ``{'name': str, 'data': Tensor}`` dicts or of Parameters, or a ``{name: Tensor}``
    dict. ``append_dict`` adds extra numbers/Tensors (``{'epoch_num': 3}``); ``choice_func(name)``
    keeps only the names it returns True for.
    """
    if enc_key is not None:
        raise NotImplementedError("save_checkpoint: encryption (enc_key) is not supported by mslab")
    entries = _entries(save_obj, choice_func)
    for name, value in (append_dict or {}).items():
        entries.append((str(name), _as_array(name, value), False))
    seen = set()
    for name, _, _ in entries:
        if name in seen:
            raise ValueError(f"save_checkpoint: two parameters are named {name!r}; names must be unique")
        seen.add(name)
    path = _ckpt_path(ckpt_file_name)
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            _write(f, entries)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _read(path):
    """``[(name, array, requires_grad)]`` from an mslab checkpoint; never unpickles anything."""
    if not os.path.isfile(path):
        raise ValueError(f"load_checkpoint: the checkpoint file {path!r} does not exist")
    try:
        z = zipfile.ZipFile(path, "r")
    except zipfile.BadZipFile:
        raise ValueError(f"load_checkpoint: {path!r} is not an mslab checkpoint (mslab reads only the files "
                         "save_checkpoint writes; MindSpore's protobuf .ckpt and pickles are not read)") from None
    with z:
        try:
            header = json.loads(z.read(HEADER).decode("utf-8"))
        except (KeyError, ValueError, UnicodeDecodeError):
            raise ValueError(f"load_checkpoint: {path!r} has no valid {HEADER}; it is not an mslab checkpoint") \
                from None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise ValueError(f"load_checkpoint: {path!r} is not an mslab checkpoint")
        if header.get("version") != VERSION:
            raise ValueError(f"load_checkpoint: {path!r} has format version {header.get('version')}, "
                             f"this mslab reads version {VERSION}")
        out = []
        for item in header["params"]:
            name = item["name"]
            try:
                with z.open(item["file"]) as f:
                    arr = np.lib.format.read_array(io.BytesIO(f.read()), allow_pickle=False)
            except (KeyError, ValueError) as e:
                raise ValueError(f"load_checkpoint: parameter {name!r} in {path!r} cannot be read safely: {e}") \
                    from None
            if list(arr.shape) != list(item["shape"]) or arr.dtype.str != item["dtype"]:
                raise ValueError(f"load_checkpoint: parameter {name!r} in {path!r} is damaged: header says "
                                 f"{tuple(item['shape'])} {item['dtype']}, data is {arr.shape} {arr.dtype.str}")
            out.append((name, arr, bool(item.get("requires_grad", True))))
    return out


def load_checkpoint(ckpt_file_name, net=None, strict_load=False, filter_prefix=None, dec_key=None,
                    dec_mode="AES-GCM", specify_prefix=None, choice_func=None, **kwargs):
    """Read a checkpoint into ``{name: Parameter}`` (in saved order); with ``net``, also load it in.

    ``filter_prefix``: skip names starting with it (a str or a list); ``specify_prefix``: keep only
    names starting with it; ``choice_func(name)``: keep the names it returns True for.
    """
    if dec_key is not None:
        raise NotImplementedError("load_checkpoint: decryption (dec_key) is not supported by mslab")
    path = os.fspath(ckpt_file_name)
    entries = _read(path)

    def prefixes(p):
        return () if p is None else (p,) if isinstance(p, str) else tuple(p)

    skip, keep = prefixes(filter_prefix), prefixes(specify_prefix)
    result = {}
    for name, arr, requires_grad in entries:
        if skip and name.startswith(skip):
            continue
        if keep and not name.startswith(keep):
            continue
        if choice_func is not None and not choice_func(name):
            continue
        result[name] = Parameter(Tensor(arr), name=name, requires_grad=requires_grad)
    if net is not None:
        load_param_into_net(net, result, strict_load=strict_load)
    return result


def _dtype_name(np_dtype):
    return str(mstype.from_numpy(np_dtype))


def load_param_into_net(net, parameter_dict, strict_load=False):
    """Copy values from ``parameter_dict`` (name -> Parameter/Tensor) into ``net``'s parameters of the same name.

    Returns ``(params_not_loaded, ckpt_not_loaded)``: the net's parameter names missing from the dict,
    and the dict's names the net does not have. Every shape (and dtype) is checked before anything is
    written: a mismatch raises ValueError naming the parameter and leaves the net unchanged. Without
    ``strict_load`` a float value is converted to a float parameter's dtype (float16 <-> float32).
    """
    if not isinstance(net, Cell):
        raise TypeError(f"load_param_into_net: net must be a Cell, got {type(net).__name__}")
    if not isinstance(parameter_dict, dict):
        raise TypeError(f"load_param_into_net: parameter_dict must be a dict, got {type(parameter_dict).__name__}")
    updates, not_loaded, used, errors = [], [], set(), []
    for _, p in net.parameters_and_names():
        if p.name not in parameter_dict:
            not_loaded.append(p.name)
            continue
        value = parameter_dict[p.name]
        used.add(p.name)
        arr = value.asnumpy() if isinstance(value, Tensor) else np.asarray(value)
        if tuple(arr.shape) != tuple(p.shape):
            errors.append(f"parameter {p.name!r}: the net's shape is {tuple(p.shape)} but the checkpoint's "
                          f"is {tuple(arr.shape)}")
            continue
        if arr.dtype != p._np_dtype:
            if strict_load or not (arr.dtype.kind == "f" and p._np_dtype.kind == "f"):
                errors.append(f"parameter {p.name!r} (shape {tuple(p.shape)}): the net's dtype is "
                              f"{_dtype_name(p._np_dtype)} but the checkpoint's is {_dtype_name(arr.dtype)}")
                continue
            arr = arr.astype(p._np_dtype)
        updates.append((p, arr))
    if errors:
        raise ValueError("load_param_into_net: nothing was loaded, because " + "; ".join(errors))
    for p, arr in updates:
        p.set_data(Tensor(arr))
    ckpt_not_loaded = [name for name in parameter_dict if name not in used]
    return not_loaded, ckpt_not_loaded
