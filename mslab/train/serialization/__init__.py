"""Checkpoints in MindSpore's own formats (``mindspore.save_checkpoint``, ``load_checkpoint``, ``load_param_into_net``).

``format="ckpt"`` (the default) is MindSpore's protobuf checkpoint (``checkpoint.proto``, read and
written by the ``protobuf`` package); ``format="safetensors"`` is the ``safetensors`` package's file
with MindSpore's header metadata ``{"format": "ms"}``. Files mslab writes load in MindSpore and the
other way round. Neither format can hold code, and loading checks every declared size against the
file before an array is made; a file that cannot be read raises one ``CheckpointError`` (a
ValueError, as in MindSpore) naming the file and what is wrong.

Saving is atomic: the file is written under a temporary name in the same directory, flushed to disk
and moved into place with ``os.replace``, so a failure half-way leaves any earlier checkpoint intact;
the temporary file (``<file name>.unfinished-save.pid<N>.<random>.tmp``) of a process killed
while saving is removed by the next save into the same directory.
"""
import glob
import io
import os
import re
import tempfile

from mslab.core import missing_names as _missing_names
from mslab.core.errors import CheckpointError
from mslab.core.tensor import Parameter
from mslab.runtime.cell_call import compiled_graphs
from mslab.train.serialization._ckpt_format import check_name, read_ckpt, write_ckpt
from mslab.train.serialization._distributed import load_distributed_checkpoint
from mslab.train.serialization._entries import entries_of
from mslab.train.serialization._export import export_bytes, export_path
from mslab.train.serialization._into_net import load_param_into_net
from mslab.train.serialization._load_mindir import load
from mslab.train.serialization._safetensors_format import read_safetensors, write_safetensors

__getattr__ = _missing_names.hook(globals())  # names mslab lacks: a clear error

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net", "CheckpointError", "export", "load",
           "load_distributed_checkpoint"]

FORMATS = ("ckpt", "safetensors")
# the temporary name _write_atomically gives while a save runs: "<file name>.unfinished-save.pid<pid>.<random>.tmp",
# visible and self-explaining beside the file it becomes; older mslab wrote ".<file name>.<pid>.<random>.tmp"
UNFINISHED = "unfinished-save"
_TEMPORARY = re.compile(rf".+\.{UNFINISHED}\.pid(\d+)\.[^.]+\.tmp|\..+\.(?:ckpt|safetensors|meta)\.(\d+)\.[^.]+\.tmp")


def _check_format(owner, format):
    if format not in FORMATS:
        raise ValueError(f"For '{owner}', the format must be 'safetensors' or 'ckpt', but got {format!r}.")


def _remove_stale_temporaries(directory):
    """Delete the temporaries of saves whose process is gone (killed mid-save): ``*.unfinished-save.pid<N>.*.tmp``."""
    for tmp in glob.glob(os.path.join(glob.escape(directory), "*.tmp")) + \
            glob.glob(os.path.join(glob.escape(directory), ".*.tmp")):
        match = _TEMPORARY.fullmatch(os.path.basename(tmp))
        if match is None:
            continue
        try:
            os.kill(int(match.group(1) or match.group(2)), 0)
            continue  # that process is alive, perhaps saving right now
        except ProcessLookupError:
            pass
        except (OSError, OverflowError):
            continue
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _failed(error, path):
    """``error`` (disk full, no permission, ...) again, naming ``path`` and saying that nothing was replaced."""
    return OSError(error.errno, f"{error.strerror or error}; saving {path} was undone: no file was replaced (an "
                   f"earlier {os.path.basename(path)} is unchanged) and the partial copy was removed", path)


def _write_atomically(path, write):
    """Run ``write(tmp_path)``, flush it to disk, then move it onto ``path``; on failure remove it."""
    directory, base = os.path.split(os.path.abspath(path))
    try:
        os.makedirs(directory, exist_ok=True)
        _remove_stale_temporaries(directory)
        fd, tmp = tempfile.mkstemp(prefix=f"{base}.{UNFINISHED}.pid{os.getpid()}.", suffix=".tmp", dir=directory)
    except OSError as e:
        raise _failed(e, path) from e
    os.close(fd)
    try:
        write(tmp)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError) and e.errno is not None:
            raise _failed(e, path) from e
        raise
    try:  # make the rename itself durable
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False, append_dict=None,
                    enc_key=None, enc_mode="AES-GCM", choice_func=None, crc_check=False, format="ckpt", **kwargs):
    """Save parameters to ``ckpt_file_name`` (``.ckpt`` or ``.safetensors`` is appended if missing).

    ``save_obj``: a Cell (all its parameters, by name; a TrainOneStepCell includes the optimizer's
    state), a list of ``{'name': str, 'data': Tensor}`` dicts or of Parameters, or a ``{name: value}``
    dict (what ``load_checkpoint`` returns). ``append_dict`` adds numbers, Tensors or (``ckpt`` only)
    strs (``{'epoch_num': 3}``); ``choice_func(name)`` keeps only the names it returns True for.
    ``crc_check`` stores a CRC-32 that ``load_checkpoint(..., crc_check=True)`` verifies.
    Saving happens before this returns (``async_save`` is accepted and ignored).
    """
    _check_format("save_checkpoint", format)
    if enc_key is not None:
        raise NotImplementedError("save_checkpoint: encryption (enc_key) is not supported by mslab")
    if not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise TypeError(f"For 'save_checkpoint', 'ckpt_file_name' must be string, but got {type(ckpt_file_name)}.")
    path = os.path.realpath(os.fspath(ckpt_file_name))
    if os.path.isdir(path):
        raise IsADirectoryError(f"For 'save_checkpoint', the parameter `ckpt_file_name`: {path} is a directory, "
                                "it must be a file name.")
    if not path.endswith(format):
        path += f".{format}"
    entries = entries_of(save_obj, append_dict, choice_func)
    if format == "ckpt":  # MindSpore saves such names but cannot load them back
        for name, _ in entries:
            check_name(name, path)
    if format == "safetensors":
        _write_atomically(path, lambda tmp: write_safetensors(tmp, entries, crc_check))
    else:
        def write(tmp):
            with open(tmp, "wb") as f:
                write_ckpt(f, entries, crc_check)
        _write_atomically(path, write)


def _save_graph(network, file_name):
    """Write the graph GRAPH mode compiled for ``network`` into ``file_name`` (MindSpore's ``_save_graph``, which
    ``ModelCheckpoint`` calls once, at the first step, for ``<prefix>-graph.meta``).

    MindSpore writes its binary GraphProto there; mslab writes its own IR text, what ``print(ms.trace(...))``
    shows: a first line ``# mslab IR: ...`` naming the Cell, then the graph (one line per node, with the
    backward and optimizer nodes of a training step), so ``print(open(file_name).read())`` shows what ran.
    Without a compiled graph (PYNATIVE mode) nothing is written, as in MindSpore. An existing file is replaced.
    """
    graphs = compiled_graphs(network)
    if not graphs:
        return
    header = (f"# mslab IR: the graph GRAPH mode compiled for {type(network).__name__} (MindSpore writes a binary "
              f"GraphProto here)\n")
    text = header + "\n\n".join(str(g) for g in graphs) + "\n"

    def write(tmp):
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
    _write_atomically(os.path.realpath(file_name), write)  # mode 0o600 (mkstemp's), MindSpore's S_IRUSR | S_IWUSR


def _read_file(path, format):
    """The bytes of checkpoint ``path``, after checking that it is a regular, non-empty file."""
    if not os.path.exists(path):
        raise CheckpointError(f"For 'load_checkpoint', the checkpoint file: {path} does not exist, please check "
                              "whether the 'ckpt_file_name' is correct.")
    if not os.path.isfile(path):
        raise CheckpointError(f"For 'load_checkpoint', {path!r} is a directory or a device, not a checkpoint file")
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size == 0:
                raise CheckpointError(f"For 'load_checkpoint', the checkpoint file {path!r} is empty (0 bytes)")
            return f.read(size) if format == "ckpt" else None  # safetensors maps the file itself
    except OSError as e:
        raise CheckpointError(f"For 'load_checkpoint', the checkpoint file {path!r} cannot be read: "
                              f"{e.strerror or e}") from None


def _prefixes(prefix):
    return () if prefix is None else (prefix,) if isinstance(prefix, str) else tuple(prefix)


def _read(ckpt_file_name, format, crc_check):
    """``(path, [(name, array or str)])`` of a checkpoint file (or a BytesIO holding a safetensors file)."""
    _check_format("load_checkpoint", format)
    if isinstance(ckpt_file_name, io.BytesIO):
        if format == "ckpt":
            raise TypeError("ckpt don't support BytesIO as input type, please change to safetensors.")
        return "<BytesIO>", read_safetensors("<BytesIO>", ckpt_file_name, crc_check)
    if not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise TypeError(f"For 'load_checkpoint', the argument 'ckpt_file_name' must be string, "
                        f"but got {type(ckpt_file_name)}.")
    path = os.path.realpath(os.fspath(ckpt_file_name))
    if not path.endswith(format):
        other = [f for f in FORMATS if f != format][0]
        hint = f"; pass format={other!r} to read it" if path.endswith(other) else ""
        raise CheckpointError(f"For 'load_checkpoint', the checkpoint file format must same with 'format', but got "
                              f"file_name:'{path}', format:'{format}'{hint}")
    data = _read_file(path, format)
    entries = read_ckpt(path, data, crc_check) if format == "ckpt" else read_safetensors(path, path, crc_check)
    if not entries:
        raise CheckpointError(f"For 'load_checkpoint', the checkpoint file {path!r} holds no parameters; it is not "
                              f"a MindSpore {format} file")
    return path, entries


def load_checkpoint(ckpt_file_name, net=None, strict_load=False, filter_prefix=None, dec_key=None,
                    dec_mode="AES-GCM", specify_prefix=None, choice_func=None, crc_check=False,
                    remove_redundancy=False, format="ckpt"):
    """Read a checkpoint into ``{name: Parameter}`` (a str for saved text); with ``net``, also load it in.

    ``filter_prefix``: skip names starting with it (a str or a list); ``specify_prefix``: keep only
    names starting with it; ``choice_func(name)``: keep the names it returns True for (used only when
    neither prefix is given, as in MindSpore). A ``.ckpt`` keeps the saved order; a ``.safetensors``
    is read in name order, as MindSpore reads it. ``crc_check=True`` verifies the CRC-32 that
    ``save_checkpoint(..., crc_check=True)`` stored (a mismatch raises); a file holding none (saved
    without it, or cut short) loads with a warning, as in MindSpore.
    """
    if dec_key is not None:
        raise NotImplementedError("load_checkpoint: decryption (dec_key) is not supported by mslab")
    path, entries = _read(ckpt_file_name, format, crc_check)
    skip, keep = _prefixes(filter_prefix), _prefixes(specify_prefix)
    use_choice = not skip and not keep and choice_func is not None
    result = {}
    for name, value in entries:
        if (skip and name.startswith(skip)) or (keep and not name.startswith(keep)):
            continue
        if use_choice and not choice_func(name):
            continue
        result[name] = value if isinstance(value, str) else Parameter(value, name=name)
    if not result:
        raise ValueError(f"The loaded parameter dict is empty after filter or specify, please check whether "
                         f"'filter_prefix' or 'specify_prefix' are set correctly (checkpoint file {path!r}).")
    if net is not None:
        load_param_into_net(net, result, strict_load=strict_load)
    return result


def export(net, *inputs, file_name, file_format, **kwargs):
    """Write ``net``'s graph for ``inputs`` to ``file_name`` + ".mindir"/".onnx": a MindIR file (ONNX: mslab's IR
    as text; see ``_export``), atomically and read-only, as MindSpore's file."""
    path = export_path(file_name, file_format)
    data = export_bytes(net, inputs, file_format, path)

    def write(tmp):
        with open(tmp, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o400)  # MindSpore 2.10 makes its export read-only (observed)

    _write_atomically(path, write)
