"""Profiler collects nothing on CPU; its schedule and step markers.

Every expectation was printed by MindSpore 2.10 on CPU (docs/mindspore_observed/infra.md).
"""
import os

import pytest

import mslab as ms

pytestmark = pytest.mark.usefixtures("restore_runtime_context")


def test_profiler_collects_nothing(tmp_path):
    with pytest.warns(UserWarning, match="Profiler collects nothing"):
        prof = ms.Profiler(output_path=str(tmp_path))
    prof.start()
    prof.step()
    prof.stop()
    prof.analyse()
    assert os.listdir(tmp_path) == []


def test_profiler_schedule_and_markers():
    from mslab import profiler

    s = profiler.schedule(wait=1, warmup=1, active=2, repeat=1, skip_first=0)
    A = profiler.ProfilerAction
    # observed on MindSpore 2.10 CPU
    assert repr(s) == "Schedule(wait=1, active=2, warmup=1, repeat=1, skip_first=0)"
    assert [s(i) for i in range(6)] == [A.NONE, A.WARM_UP, A.RECORD, A.RECORD_AND_SAVE, A.NONE, A.NONE]
    assert [a.value for a in profiler.ProfilerActivity] == ["NPU", "GPU", "CPU"]
    assert [a.value for a in profiler.ProfilerLevel] == ["LevelNone", "Level0", "Level1", "Level2"]
    assert profiler.mstx.range_start("x") == 0 and profiler.mstx.mark("m") is None
    with pytest.warns(UserWarning, match="collects nothing"):
        with profiler.profile(activities=[profiler.ProfilerActivity.CPU], schedule=s,
                              on_trace_ready=profiler.tensorboard_trace_handler("./unused")) as prof:
            prof.step()
