"""``mindspore.load(file_name)``: a MindIR graph read back (``mslab.train.mindir``), to run with ``nn.GraphCell``.

MindSpore 2.10's argument errors are kept (observed on CPU): a non-string ``file_name`` and a name not ending in
``.mindir`` are ValueErrors, a missing file is a ValueError; a file its reader cannot parse is a RuntimeError
"Load MindIR failed.". The ``.mindir`` file mslab's own ``export`` writes for a training network is a text print
of the graph, for reading: loading one is that RuntimeError too, saying so.
"""
from mslab.train.mindir import load as _load_graph

__all__ = ["load"]

_TEXT_EXPORT = b"# mslab graph export"


def load(file_name, **kwargs):
    """The graph in a MindIR file MindSpore exported (``FuncGraph``); ``dec_key``/``dec_mode`` (encrypted files) and
    ``obf_func`` are not supported."""
    for key in ("dec_key", "obf_func"):
        if kwargs.get(key) is not None:
            raise NotImplementedError(f"load({key}=...): mslab does not read encrypted or obfuscated MindIR files")
    if isinstance(file_name, str) and file_name.endswith(".mindir"):
        try:
            with open(file_name, "rb") as f:
                head = f.read(len(_TEXT_EXPORT))
        except OSError:
            head = b""
        if head == _TEXT_EXPORT:
            raise RuntimeError(f"Load MindIR failed. {file_name} is the graph text mslab's export writes, for "
                               "reading, not a MindIR file: rebuild the network in Python and load its weights with "
                               "load_checkpoint/load_param_into_net.")
    return _load_graph(file_name)
