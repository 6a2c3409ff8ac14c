"""mslab.log (mindspore.log): the line format and the default level.

Every expectation was printed by MindSpore 2.10 on CPU (docs/mindspore_observed/infra.md).
"""
import re

import pytest

import mslab as ms

pytestmark = pytest.mark.usefixtures("restore_runtime_context")


def test_log_format_and_default_level(capsys):
    ms.log.warning("warn %s", "x")
    ms.log.info("info")
    ms.log.error("err")
    err = capsys.readouterr().err.splitlines()
    # observed on MindSpore 2.10 CPU:
    # [WARNING] ME(31941:140335904537472,MainProcess):2026-11-24-05:51:32.687.000 [/tmp/obs_infra/o8.py:19] warn x
    pattern = (r"\[(WARNING|ERROR)\] ME\(\d+:\d+,MainProcess\):\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d+\.\d+ "
               r"\[(.+):(\d+)\] (.*)")
    parsed = [re.fullmatch(pattern, line).groups() for line in err]
    assert [(lvl, msg) for lvl, _, _, msg in parsed] == [("WARNING", "warn x"), ("ERROR", "err")]
    assert parsed[0][1] == __file__
    assert ms.log.get_level() == "2" and ms.log.get_log_config() == {"GLOG_v": "2", "GLOG_logtostderr": "1"}
