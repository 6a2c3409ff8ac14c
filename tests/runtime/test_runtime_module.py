"""mindspore.runtime's names: set_memory checks and sets once; streams on CPU log an error.

Every expectation was printed by MindSpore 2.10 on CPU (docs/mindspore_observed/infra.md).
"""
import re

import pytest

import mslab as ms

pytestmark = pytest.mark.usefixtures("restore_runtime_context")


def test_runtime_set_memory_checks_and_sets_once():
    # observed on MindSpore 2.10 CPU
    with pytest.raises(ValueError, match=re.escape("The '2' is illegal, it must be match regular")):
        ms.runtime.set_memory(max_size="2")
    with pytest.raises(ValueError, match=re.escape("The '0GB' is illegal")):
        ms.runtime.set_memory(init_size="0GB")
    with pytest.raises(ValueError, match=re.escape("The optimize_level must be one of ['O0', 'O1'], but got O2.")):
        ms.runtime.set_memory(optimize_level="O2")
    ms.runtime.set_memory(max_size="4GB")
    with pytest.raises(RuntimeError, match="The 'set_memory' can not be set repeatedly."):
        ms.runtime.set_memory(max_size="4GB")


def test_runtime_streams_on_cpu_log_an_error(capsys):
    # observed on MindSpore 2.10 CPU: ERROR "CPU device is not supported. Please use correct device", None
    assert ms.runtime.synchronize() is None
    assert ms.runtime.current_stream() is None
    assert ms.runtime.launch_blocking() is None
    err = capsys.readouterr().err.splitlines()
    message = "CPU device is not supported. Please use correct device"
    assert len(err) == 2 and all(line.startswith("[ERROR] ME(") and line.endswith(message) for line in err)
