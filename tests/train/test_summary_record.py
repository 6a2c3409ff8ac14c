"""SummaryRecord writes JSON lines.

Every expectation was printed by MindSpore 2.10 on CPU (docs/mindspore_observed/infra.md).
"""
import os
import re

import numpy as np
import pytest

import mslab as ms
from mslab.train.summary import SummaryRecord

pytestmark = pytest.mark.usefixtures("restore_runtime_context")


def test_summary_record_writes_json_lines(tmp_path, capsys):
    with SummaryRecord(str(tmp_path)) as sr:
        sr.add_value("scalar", "loss", ms.Tensor(1.5))
        sr.add_value("histogram", "w", ms.Tensor(np.array([1.0, 2.0], np.float32)))
        assert sr.record(1) is True
        sr.add_value("scalar", "loss", ms.Tensor(0.5))
        assert sr.record(2) is True
        # observed on MindSpore 2.10 CPU: the messages below
        with pytest.raises(ValueError, match='the parameter "name" type should be str'):
            sr.add_value("scalar", "", ms.Tensor(1.0))
        with pytest.raises(TypeError, match='the parameter "value" expect to be Tensor, but got float'):
            sr.add_value("scalar", "a", 1.0)
        with pytest.raises(ValueError, match="no such \"plugin\" of 'bogus'"):
            sr.add_value("bogus", "a", ms.Tensor(1.0))
        with pytest.raises(TypeError, match="The type of 'step' should be 'int', but got type 'bool'."):
            sr.record(True)
        path = sr.file_info["file_path"]
    assert re.fullmatch(r"events\.out\.events\.summary\.\d+\..*_MS", os.path.basename(path))
    assert SummaryRecord.read(path) == [{"step": 1, "scalar": {"loss": 1.5}, "histogram": {"w": [1.0, 2.0]}},
                                        {"step": 2, "scalar": {"loss": 0.5}}]
    assert sr.record(3) is False  # closed: MindSpore logs an ERROR and returns False (observed)
    assert "The record writer is closed" in capsys.readouterr().err
