"""ms.export writes under MindSpore's file names: a MindIR file (test_export_mindir.py), ONNX as mslab's graph text.

Every expectation was printed by MindSpore 2.10 on CPU (docs/mindspore_observed/infra.md).
"""
import os
import re

import numpy as np
import pytest

import mslab as ms
from mslab import nn

pytestmark = pytest.mark.usefixtures("restore_runtime_context")


def test_export_writes_under_mindspores_names(tmp_path):
    net = nn.Dense(2, 3)
    x = ms.Tensor(np.ones((1, 2), np.float32))
    base = str(tmp_path / "net")
    ms.export(net, x, file_name=base, file_format="MINDIR")
    ms.export(net, x, file_name=base, file_format="MINDIR")  # again: replaced, as MindSpore does
    ms.export(net, x, file_name=base + ".mindir", file_format="MINDIR")
    with pytest.warns(UserWarning, match="not MindSpore's ONNX protobuf"):
        ms.export(net, x, file_name=base, file_format="ONNX")
    # observed on MindSpore 2.10 CPU: ['net.mindir', 'net.onnx'], mode 0o100400
    assert sorted(os.listdir(tmp_path)) == ["net.mindir", "net.onnx"]
    assert oct(os.stat(base + ".mindir").st_mode) == "0o100400"
    text = open(base + ".onnx", encoding="utf-8").read()
    assert text.startswith("# mslab graph export") and "MatMul(%x, %weight)" in text
    # observed on MindSpore 2.10 CPU
    with pytest.raises(ValueError, match="Only support export file in 'AIR' format with Ascend backend."):
        ms.export(net, x, file_name=base, file_format="AIR")
    with pytest.raises(ValueError, match=re.escape("For 'export', 'file_format' must be one of ['AIR', 'ONNX', "
                                                   "'MINDIR'], but got BOGUS.")):
        ms.export(net, x, file_name=base, file_format="BOGUS")
