"""``mindspore.load(file_name)``: read a MindIR graph back. mslab cannot: it has no MindIR reader.

MindSpore 2.10's argument errors are kept (observed on CPU): a non-string ``file_name`` and a name not
ending in ``.mindir`` are ValueErrors, a missing file is a ValueError; a file its reader cannot parse is a
RuntimeError "Load MindIR failed.". mslab raises that RuntimeError for every existing ``.mindir`` file,
saying why: the files MindSpore writes are protobuf graphs mslab does not parse, and the ``.mindir``
files mslab's own ``export`` writes are a text print of the graph for reading, not for loading.
"""
import os

__all__ = ["load"]


def load(file_name, **kwargs):
    """Always raises: MindSpore's argument errors, then RuntimeError "Load MindIR failed." with the reason."""
    del kwargs  # dec_key, dec_mode, obf_func: nothing to decrypt without a reader
    if not isinstance(file_name, str):
        raise ValueError(f"For 'load', the argument 'file_name' must be string, but got {type(file_name)}.")
    if not file_name.endswith(".mindir"):
        raise ValueError("For 'load', the argument 'file_name'(MindIR file) should end with '.mindir', "
                         "please input the correct 'file_name'.")
    if not os.path.exists(file_name):
        raise ValueError("For 'load', the argument 'file_name'(MindIR file) does not exist, "
                         "please check whether the 'file_name' is correct.")
    raise RuntimeError(f"Load MindIR failed. mslab cannot read MindIR files ({file_name!r}): it has no MindIR "
                       "reader, and the .mindir files mslab.export writes are a text print of the graph, "
                       "not loadable. Rebuild the network in Python and load its weights with "
                       "load_checkpoint/load_param_into_net.")
