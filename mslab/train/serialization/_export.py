"""What ``mindspore.export(net, *inputs, file_name, file_format)`` writes in mslab, and where.

MindSpore 2.10 on CPU (observed): ``file_format="MINDIR"`` writes ``<file_name>.mindir`` and ``"ONNX"``
writes ``<file_name>.onnx``, both protobuf files holding the compiled graph and its weights, made
read-only (mode 0o400); ``"AIR"`` raises ValueError "Only support export file in 'AIR' format with
Ascend backend."; any other format raises ValueError. ONNX also logs that it will move to
``mindspore.onnx.export``.

mslab writes MINDIR as MindSpore does (``mslab.train.mindir.writing``) for an inference network: a MindIR file
MindSpore's ``load`` and ``nn.GraphCell`` run. A training network (a TrainOneStepCell: gradients, optimizer updates;
what ``OnRequestExit`` exports) it cannot write as MindIR, nor anything as ONNX: there it writes, under the same
name, its own compiled graph as text (what ``print(mslab.trace(net, *inputs))`` shows, after a header saying so) and
warns: MindSpore and ONNX runtimes cannot load that file (mslab's ``load`` says so); a learner can read it.
"""
import warnings

from mslab.core import log
from mslab.runtime.compiled import trace
from mslab.train.mindir.writing import is_training, model_of

__all__ = ["export_path", "export_bytes", "export_text"]

_FORMATS = ["AIR", "ONNX", "MINDIR"]
_SUFFIX = {"MINDIR": ".mindir", "ONNX": ".onnx"}


def export_path(file_name, file_format):
    """The file MindSpore would write for ``file_name`` in ``file_format``, with MindSpore's errors."""
    if file_format not in _FORMATS:
        raise ValueError(f"For 'export', 'file_format' must be one of {_FORMATS}, but got {file_format}.")
    if file_format == "AIR":
        raise ValueError("Only support export file in 'AIR' format with Ascend backend.")
    if not isinstance(file_name, str):
        raise TypeError(f"For 'export', the argument 'file_name' must be str, but got {type(file_name)}.")
    suffix = _SUFFIX[file_format]
    return file_name if file_name.endswith(suffix) else file_name + suffix


def export_bytes(net, inputs, file_format, path):
    """What ``export`` writes to ``path``: a MindIR file's bytes for an inference network, else mslab's graph text.
    An op the MindIR writer lacks is its MindIRWriteError, raised before anything is written."""
    graph = trace(net, *inputs)
    if file_format == "MINDIR" and not is_training(graph):
        return model_of(graph, net).SerializeToString()
    return export_text(graph, file_format, path).encode("utf-8")


def export_text(graph, file_format, path):
    """mslab's compiled ``graph`` as text, with a header saying what the file is."""
    if file_format == "ONNX":  # MindSpore 2.10's log line (observed)
        log.warning("mindspore.export(file_format='ONNX') will be deleted, please use mindspore.onnx.export()")
    why = "" if file_format == "ONNX" else (f" ({graph.name} computes gradients or updates weights: mslab writes "
                                            "MindIR for inference networks only)")
    warnings.warn(f"export: mslab wrote its own graph text to {path}, not MindSpore's {file_format} protobuf{why}; "
                  "MindSpore and other runtimes cannot load it", stacklevel=4)
    return (f"# mslab graph export, format requested: {file_format}. This is mslab's IR as text (print(mslab.trace("
            f"net, *inputs))), not MindSpore's {file_format} protobuf: MindSpore, MindSpore Lite and ONNX runtimes "
            f"cannot load it.\n{graph}\n")
