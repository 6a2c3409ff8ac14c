"""ms.load (MindIR): MindSpore's errors for bad paths, and a clear refusal to read MindIR files.
Observed on MindSpore 2.10 CPU (docs/mindspore_observed/fwthree.md)."""
import pytest

import mslab as ms


def test_load_mindir_raises_mindspores_errors(tmp_path):
    # observed on MindSpore 2.10 CPU, each in its own process
    with pytest.raises(ValueError, match=r"must be string, but got <class 'int'>"):
        ms.load(3)
    with pytest.raises(ValueError, match=r"should end with '.mindir'"):
        ms.load(str(tmp_path / "net.txt"))
    with pytest.raises(ValueError, match=r"\(MindIR file\) does not exist"):
        ms.load(str(tmp_path / "none.mindir"))
    bad = tmp_path / "bad.mindir"
    bad.write_bytes(b"not a mindir")
    with pytest.raises(RuntimeError, match="Load MindIR failed. mslab cannot read MindIR files"):
        ms.load(str(bad))
